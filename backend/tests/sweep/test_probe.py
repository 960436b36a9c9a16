"""chainlab.sweep.probe through the real CLI and backend: a --scheduler address that is not a Dask scheduler (a port
that speaks HTTP, one that never answers, one that refuses, a worker's) is one line with the reason, exit 1, within
the stated time-out; a real scheduler passes."""

from __future__ import annotations

import subprocess
import time
from pathlib import Path

import pytest
from dask_processes import DASK, DaskProcesses, free_port
from distributed.security import Security
from listeners import listener

from chainlab.errors import ModelError
from chainlab.sweep.probe import CONNECT_TIMEOUT_S, NotAScheduler, check_scheduler

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
EXPLORE = ["explore", "samples/ptts/case-study.chain", "--ptts", "ConfigE", "--vary", "GPU,Wall", "--step", "4 ms"]
HEURISTICS = ["experiment", "heuristics", "--chains", "3", "--boxes", "20", "--samples", "200"]
CLI_START_S = 20  # the CLI and the backend starting and computing the first point on a loaded 2-core machine


def chainlab(args: list[str]) -> tuple[subprocess.CompletedProcess[str], float]:
    start = time.monotonic()
    done = subprocess.run(
        ["node", str(CLI), *args],
        cwd=REPO,
        capture_output=True,
        text=True,
        timeout=120,
    )
    return done, time.monotonic() - start


def one_line(done: subprocess.CompletedProcess[str], *parts: str) -> str:
    assert done.returncode == 1, done.stderr
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1, done.stderr
    for part in parts:
        assert part in lines[0], done.stderr
    assert "internal error" not in done.stderr and "Traceback" not in done.stderr
    return lines[0]


def test_explore_at_a_port_that_speaks_http_is_not_a_scheduler(tmp_path: Path) -> None:
    with listener("http") as listening:
        done, took = chainlab([*EXPLORE, "--scheduler", f"tcp://127.0.0.1:{listening.port}"])
    one_line(done, f"tcp://127.0.0.1:{listening.port} is not a Dask scheduler (it answers in another protocol")
    assert took < CLI_START_S + CONNECT_TIMEOUT_S


def test_heuristics_at_a_port_that_never_answers_ends_after_the_time_out(tmp_path: Path) -> None:
    with listener("silent") as listening:
        args = [*HEURISTICS, "--out", str(tmp_path / "exp"), "--scheduler", f"tcp://127.0.0.1:{listening.port}"]
        done, took = chainlab(args)
    one_line(
        done,
        f"tcp://127.0.0.1:{listening.port} is not a Dask scheduler",
        f"no Dask handshake within {CONNECT_TIMEOUT_S:g} s",
    )
    assert CONNECT_TIMEOUT_S <= took < CLI_START_S + CONNECT_TIMEOUT_S + 1


@pytest.mark.parametrize(
    ("kind", "error", "reason"),
    [
        ("silent", NotAScheduler, "sent no Dask handshake within"),
        ("http", NotAScheduler, "answers in another protocol: reading its reply raised MemoryError"),
        ("closing", NotAScheduler, "closes them without a Dask handshake"),
    ],
)
def test_each_kind_of_wrong_port_has_its_reason(kind: str, error: type[Exception], reason: str) -> None:
    # a port that answers is told apart at once; its time-out is long enough that a loaded machine (the listener's
    # thread not scheduled for a second) cannot turn the reason into the silent port's
    timeout = 1 if kind == "silent" else 5
    with listener(kind) as listening:
        start = time.monotonic()
        with pytest.raises(error, match=reason):
            check_scheduler(f"tcp://127.0.0.1:{listening.port}", timeout=timeout)
        assert time.monotonic() - start < timeout + 1  # the outer bound is the time-out plus half a second


def test_a_refused_port_cannot_be_reached() -> None:
    with pytest.raises(ModelError, match=r"cannot reach the Dask scheduler at .*: Connection refused"):
        check_scheduler(f"tcp://127.0.0.1:{free_port()}", timeout=1)


def test_a_scheduler_passes_and_its_worker_is_not_one() -> None:
    dask = DaskProcesses(1)
    try:
        check_scheduler(dask.address)
        from distributed import Client

        with Client(dask.address, set_as_default=False) as client:
            [worker] = client.scheduler_info()["workers"]
        with pytest.raises(NotAScheduler, match=r"is not a Dask scheduler \(it is a Dask Worker\)"):
            check_scheduler(worker)
    finally:
        dask.stop()


@pytest.mark.parametrize("address", ["ucx://127.0.0.1:8786", "inproc://x"])
def test_a_scheme_other_than_tcp_or_tls_is_refused_at_once(address: str) -> None:
    with pytest.raises(ModelError, match=r"is tcp://HOST:PORT or tls://HOST:PORT, not \w+://"):
        check_scheduler(address, timeout=1)


def test_tls_needs_dasks_tls_settings_and_reaches_a_tls_scheduler_with_them(tmp_path: Path) -> None:
    import dask

    with pytest.raises(ModelError, match="a tls:// scheduler needs Dask's TLS settings"):
        check_scheduler(f"tls://127.0.0.1:{free_port()}", timeout=1)
    security = Security.temporary()  # a CA and certificates made for this test
    pem = {}
    for name in ("tls_ca_file", "tls_scheduler_cert", "tls_scheduler_key", "tls_client_cert", "tls_client_key"):
        pem[name] = tmp_path / f"{name}.pem"
        pem[name].write_text(getattr(security, name))
    port = free_port()
    scheduler = subprocess.Popen(
        [
            *(str(DASK), "scheduler", "--protocol", "tls", "--no-dashboard"),
            *("--host", "127.0.0.1", "--port", str(port)),
            *("--tls-ca-file", str(pem["tls_ca_file"]), "--tls-cert", str(pem["tls_scheduler_cert"])),
            *("--tls-key", str(pem["tls_scheduler_key"])),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    settings = {
        "distributed.comm.tls.ca-file": str(pem["tls_ca_file"]),
        "distributed.comm.tls.client.cert": str(pem["tls_client_cert"]),
        "distributed.comm.tls.client.key": str(pem["tls_client_key"]),
    }
    try:
        with dask.config.set(settings):
            deadline = time.monotonic() + 60
            while True:  # the scheduler process takes a few seconds to listen
                try:
                    check_scheduler(f"tls://127.0.0.1:{port}", timeout=2)
                    break
                except ModelError:
                    if time.monotonic() > deadline:
                        raise
                    time.sleep(0.5)
            with listener("silent") as listening, pytest.raises(NotAScheduler, match="no Dask handshake within 1 s"):
                check_scheduler(f"tls://127.0.0.1:{listening.port}", timeout=1)
    finally:
        scheduler.terminate()
        scheduler.wait(15)
