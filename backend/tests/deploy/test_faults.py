"""The fault suite (issue 17): kill one process of a measurement at a random (seeded) moment and check what is left.

Runs through the real processes: the CLI (node), the language server (the bundle the extension ships, over stdio,
asked for the editor's *Run on target*), the backend (python -m chainlab.rpc), the generated chain, the hog,
the throttler's daemon and guardian, and the SSH lab (a real sshd in a network namespace). Cases: a local run, a
throttled scenario on this machine, an ssh deploy; killed: the CLI (SIGKILL, SIGTERM), the language server (SIGKILL,
SIGTERM), the backend (SIGKILL, SIGTERM), the daemon, the guardian, the ssh connection. After each:
- no chainlab process is left: every local one carries a unique environment marker, every lab one names the lab root;
- none was left stopped (state T) on the way, no cgroup of the run is left or frozen;
- what was measured is complete or marked partial (status stopped/partial), never silently truncated: each
  latencies.csv has its run.json (or results) and exactly `completed` rows.

The doors (addresses that are not what they claim): a Dask scheduler port that never answers, an ssh port that
never speaks SSH (each as is, and with the CLI or the backend killed while it waits), a chain killed on the ssh
target: one line with the reason within the stated time-out, and the same checks after.

CHAINLAB_FAULT_SEED picks other moments (default 17). npm test runs one case per victim and kind of run (9, about
2 min) and the doors (9, about 1 min); CHAINLAB_FAULT_ALL=1 runs every combination (15).
"""

from __future__ import annotations

import dataclasses
import json
import os
import random
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from fault_case import Marked, assert_clean, cgroups, cli, finish, remote_processes, wait_for
from lab import Lab
from listeners import Listening, listener
from test_deploy_cycle import CHAIN, REPO, model

from chainlab.deploy.reach import BANNER_TIMEOUT_S
from chainlab.deploy.ssh import ALIVE_CHECK_S
from chainlab.sweep.probe import CONNECT_TIMEOUT_S

__all__ = ["Marked", "wait_for"]  # the fault suite's helpers, also for the other deploy tests
SEED = int(os.environ.get("CHAINLAB_FAULT_SEED", "17"))
ALL = os.environ.get("CHAINLAB_FAULT_ALL") == "1"
more = pytest.mark.skipif(not ALL, reason="a further combination: CHAINLAB_FAULT_ALL=1")
CLI_START_S = 20  # the CLI and the backend starting (and a sweep's first point) on a loaded 2-core machine


def is_chain(comm: str, cmd: str) -> bool:
    return "--iterations" in cmd and comm == "chain"


def is_backend(comm: str, cmd: str) -> bool:
    return "chainlab.rpc" in cmd


VICTIMS: dict[str, Callable[[str, str], bool]] = {
    "cli": lambda comm, cmd: comm in ("node", "MainThread") and "chainlab.js" in cmd,
    "backend": is_backend,
    "daemon": lambda comm, cmd: comm == "chainlab-thrott",
    "guardian": lambda comm, cmd: comm == "chainlab-guard",
}


def kill_at_random(case: Marked, proc: subprocess.Popen[str], victim: str, sig: int, rng: random.Random) -> int:
    """Wait until the measurement runs (and the victim exists), then a random moment, then kill the victim."""
    ready = "daemon" if victim in ("daemon", "guardian") else "chain"
    if not wait_for(lambda: case.find(VICTIMS.get(ready, is_chain)), 120, 0.1):
        proc.kill()
        pytest.fail(f"the {ready} never started: {proc.communicate(timeout=30)}")
    time.sleep(rng.uniform(0.0, 1.2))
    pid = proc.pid if victim == "cli" else wait_for(lambda: case.find(VICTIMS[victim]), 30)
    assert isinstance(pid, int), f"no {victim} to kill"
    os.kill(pid, sig)
    return pid


@pytest.mark.parametrize(
    ("victim", "sig"),
    [
        ("cli", signal.SIGKILL),
        ("cli", signal.SIGTERM),
        ("backend", signal.SIGKILL),
        pytest.param("backend", signal.SIGTERM, marks=more),
    ],
)
def test_local_run(victim: str, sig: int, tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-local-{victim}-{sig}")
    case, before = Marked(), cgroups()
    (tmp_path / "m.chain").write_text(CHAIN)
    out = tmp_path / "out"
    proc = cli(case, ["run", str(tmp_path / "m.chain"), "--iterations", "20000", "-o", str(out)])
    kill_at_random(case, proc, victim, sig, rng)
    err = finish(case, proc, 60)
    if victim == "cli" and sig == signal.SIGTERM:
        assert proc.returncode == 130 and "interrupted" in err, err  # handled like Ctrl-C: the reply still comes
        assert json.loads((out / "baseline" / "run.json").read_text())["status"] == "stopped"
    if victim == "backend" and sig == signal.SIGTERM:
        assert proc.returncode == 130, err
    assert_clean(case, tmp_path, before, 15)
    if victim == "backend" and sig == signal.SIGKILL:  # the chain was stopped by its parent's death, data kept
        assert json.loads((out / "baseline" / "run.json").read_text())["status"] == "stopped"


@pytest.mark.parametrize(
    ("victim", "sig"),
    [
        pytest.param("cli", signal.SIGKILL, marks=more),
        pytest.param("backend", signal.SIGKILL, marks=more),
        ("daemon", signal.SIGKILL),
        ("guardian", signal.SIGKILL),
    ],
)
def test_throttled_scenario(victim: str, sig: int, tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-throttled-{victim}")
    case, before = Marked(), cgroups()
    runs = tmp_path / "runs"
    f = model(tmp_path, None)
    proc = cli(
        case,
        [
            "deploy",
            str(f),
            "--target",
            "lab",
            "--scenario",
            "throttled",
            "--iterations",
            "20000",
            "--runs",
            str(runs),
        ],
    )
    kill_at_random(case, proc, victim, sig, rng)
    finish(case, proc, 90)
    assert_clean(case, tmp_path, before, 20)


@pytest.mark.parametrize("victim", [pytest.param("cli", marks=more), "backend", "connection"])
def test_ssh_deploy(victim: str, lab: Lab, tmp_path: Path) -> None:
    rng = random.Random(f"{SEED}-ssh-{victim}")
    case, before = Marked(), cgroups()
    runs = tmp_path / "runs"
    proc = cli(
        case,
        [
            "deploy",
            str(model(tmp_path, lab)),
            "--target",
            "lab",
            "--scenario",
            "baseline,congested",
            "--iterations",
            "20000",
            "--runs",
            str(runs),
        ],
        CHAINLAB_KNOWN_HOSTS=str(lab.known_hosts),
    )
    started = wait_for(lambda: any("--iterations 20000" in ln for ln in remote_processes(lab.root)), 120, 0.25)
    if not started:
        proc.kill()
        pytest.fail(f"the chain never started on the lab: {proc.communicate(timeout=30)}")
    time.sleep(rng.uniform(0.0, 1.2))
    if victim == "connection":
        lab.kill_sshd()
        time.sleep(rng.uniform(0.2, 1.0))
        lab.start_sshd()
    else:
        pid = proc.pid if victim == "cli" else case.find(is_backend)
        assert pid
        os.kill(pid, signal.SIGKILL)
    finish(case, proc, 90)
    # a killed backend's heartbeat stops: the lab's watchdog stops the run after 5 s without one
    assert_clean(case, tmp_path, before, 30, lab)


# ---------------------------------------------------------------- doors: addresses that are not what they claim

EXPLORE = ["explore", "samples/ptts/case-study.chain", "--ptts", "ConfigE", "--vary", "GPU,Wall", "--step", "4 ms"]


def kill_while_waiting(case: Marked, proc: subprocess.Popen[str], waiting: Listening, victim: str | None) -> None:
    """Once the backend is connected to the port (waiting on it), SIGKILL the victim: the CLI or the backend."""
    if not wait_for(lambda: waiting.accepted, CLI_START_S, 0.05):
        proc.kill()
        pytest.fail(f"the backend never connected to the port: {proc.communicate(timeout=30)}")
    if victim is not None:
        pid = proc.pid if victim == "cli" else case.find(is_backend)
        assert pid, f"no {victim} to kill"
        os.kill(pid, signal.SIGKILL)


def one_line(err: str, *parts: str) -> None:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and all(p in lines[0] for p in parts), err
    assert "internal error" not in err and "Traceback" not in err, err


@pytest.mark.parametrize("victim", [None, "cli", "backend"])
def test_a_scheduler_port_that_never_answers(victim: str | None, tmp_path: Path) -> None:
    """explore --scheduler at a port that accepts and never answers: one line within the time-out; the CLI or the
    backend killed while it waits leaves nothing running."""
    case, before = Marked(), cgroups()
    with listener("silent") as silent:
        address = f"tcp://127.0.0.1:{silent.port}"
        start = time.monotonic()
        proc = cli(case, [*EXPLORE, "--scheduler", address])
        kill_while_waiting(case, proc, silent, victim)
        err = finish(case, proc, CLI_START_S + CONNECT_TIMEOUT_S + 5)
        took = time.monotonic() - start
        assert_clean(case, tmp_path, before, CONNECT_TIMEOUT_S + 5)  # the port still silent: ended by the time-out
    if victim is None:
        assert proc.returncode == 1, err
        one_line(err, f"{address} is not a Dask scheduler", f"no Dask handshake within {CONNECT_TIMEOUT_S:g} s")
        assert CONNECT_TIMEOUT_S <= took < CLI_START_S + CONNECT_TIMEOUT_S + 1


@pytest.mark.parametrize("victim", [None, "cli", "backend"])
def test_an_ssh_port_that_never_speaks_ssh(victim: str | None, lab: Lab, tmp_path: Path) -> None:
    """deploy to a target whose port accepts TCP and never sends a banner: one line naming it, after the banner's
    time-out; a killed CLI or backend leaves nothing running."""
    case, before = Marked(), cgroups()
    here = lab.host.rsplit(".", 1)[0] + ".1"  # this machine's end of the lab's link
    with listener("silent", here) as silent:
        target = dataclasses.replace(lab, host=here, port=silent.port)
        args = ["deploy", str(model(tmp_path, target)), "--target", "lab", "--runs", str(tmp_path / "runs")]
        start = time.monotonic()
        proc = cli(case, args, CHAINLAB_KNOWN_HOSTS=str(lab.known_hosts))
        kill_while_waiting(case, proc, silent, victim)
        err = finish(case, proc, CLI_START_S + BANNER_TIMEOUT_S + 5)
        took = time.monotonic() - start
        assert_clean(case, tmp_path, before, BANNER_TIMEOUT_S + 5)  # the port still silent: ended by the time-out
    if victim is None:
        assert proc.returncode == 1, err
        one_line(
            err,
            f"cannot reach {here}:{silent.port}: the port accepts TCP but does not speak SSH "
            f"(no banner within {BANNER_TIMEOUT_S:g} s)",
        )
        assert BANNER_TIMEOUT_S <= took < CLI_START_S + BANNER_TIMEOUT_S + 1


@pytest.mark.parametrize(
    ("what", "sig", "said"),
    [
        ("chain", signal.SIGKILL, "was killed by signal 9 (SIGKILL, exit status 137) in scenario baseline, before"),
        ("group", signal.SIGKILL, "ended without an exit status (the shell that records it was killed too)"),
        ("group", signal.SIGTERM, "PARTIAL baseline: the chain on lab was stopped by a signal chainlab did not send"),
    ],
)
def test_a_chain_that_dies_on_the_target(what: str, sig: int, said: str, lab: Lab, tmp_path: Path) -> None:
    """The chain killed on the ssh target (alone, or with the shell that records its exit status): the scenario
    fails at once with how the chain ended and where its log is (a stopped one keeps what it measured, partial),
    not after a download's time-out as a lost connection; nothing is left running."""
    rng = random.Random(f"{SEED}-died-{what}-{sig}")
    case, before = Marked(), cgroups()
    runs = tmp_path / "runs"
    args = ["deploy", str(model(tmp_path, lab)), "--target", "lab", "--scenario", "baseline,congested"]
    proc = cli(case, [*args, "--iterations", "200000", "--runs", str(runs)], CHAINLAB_KNOWN_HOSTS=str(lab.known_hosts))
    binary = f"{lab.root}/chainlab/builds/"
    chain = wait_for(
        lambda: next((ln for ln in remote_processes(lab.root) if ln.split()[2].startswith(binary)), ""), 120
    )
    if not chain:
        proc.kill()
        pytest.fail(f"the chain never started on the lab: {proc.communicate(timeout=30)}")
    time.sleep(rng.uniform(0.2, 1.2))
    pid = int(str(chain).split()[0])
    if what == "group":  # the chain with the shell that records its exit status
        os.killpg(os.getpgid(pid), sig)
    else:
        os.kill(pid, sig)
    killed = time.monotonic()
    out, err = proc.communicate(timeout=60)
    took = time.monotonic() - killed
    assert proc.returncode == 1, err
    assert said in (out if sig == signal.SIGTERM else err), out + err
    if sig == signal.SIGKILL:
        one_line(err, "the chain on lab", "(see its log on lab: ", "/logs/chain-baseline.log)")
    assert took < ALIVE_CHECK_S + 10, took  # not a download's time-out and eight reconnections
    assert "connection" not in err, err
    assert_clean(case, tmp_path, before, 10, lab)


# ---------------------------------------------------------------- the language server (the editor's Run on target)

LANGUAGE = REPO / "language"
SERVER = LANGUAGE / "dist" / "server.cjs"  # the bundle the extension ships (extension/esbuild.mjs copies it)


def server_bundle() -> Path:
    """The bundled language server, built by `node language/esbuild.mjs` when missing (scripts/setup.mjs builds it)."""
    if not SERVER.exists():
        subprocess.run(["node", "esbuild.mjs"], cwd=LANGUAGE, check=True, timeout=300)
    return SERVER


class LanguageServer:
    """The bundled language server over stdio, as the extension starts it; what it sends is read and kept."""

    def __init__(self, case: Marked, cwd: Path) -> None:
        self.proc = subprocess.Popen(
            ["node", str(server_bundle()), "--stdio"],
            cwd=cwd,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env=case.env(),
        )
        self.messages: list[dict[str, object]] = []
        self.reader = threading.Thread(target=self._read, daemon=True)  # a full pipe must not block the server
        self.reader.start()
        self.next_id = 0

    def _read(self) -> None:
        out = self.proc.stdout
        assert out is not None
        while True:
            header = b""
            while not header.endswith(b"\r\n\r\n"):
                byte = out.read(1)
                if not byte:
                    return
                header += byte
            fields = dict(ln.split(b":", 1) for ln in header.split(b"\r\n") if b":" in ln)
            length = int(next(v for k, v in fields.items() if k.strip().lower() == b"content-length"))
            self.messages.append(json.loads(out.read(length)))

    def send(self, method: str, params: object, request: bool = True) -> int | None:
        message: dict[str, object] = {"jsonrpc": "2.0", "method": method, "params": params}
        if request:
            self.next_id += 1
            message["id"] = self.next_id
        body = json.dumps(message).encode()
        assert self.proc.stdin is not None
        self.proc.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
        self.proc.stdin.flush()
        return self.next_id if request else None

    def reply(self, request_id: int, timeout: float) -> dict[str, object] | None:
        found = wait_for(lambda: next((m for m in self.messages if m.get("id") == request_id), None), timeout)
        return found if isinstance(found, dict) else None


@pytest.mark.parametrize(
    ("sig", "scenario"),
    [
        (signal.SIGKILL, "baseline"),
        (signal.SIGTERM, "baseline"),
        pytest.param(signal.SIGKILL, "throttled", marks=more),
        pytest.param(signal.SIGTERM, "throttled", marks=more),
    ],
)
def test_language_server_run(sig: int, scenario: str, tmp_path: Path) -> None:
    """The editor's *Run on target* (chainlab/deploy to a local target) while the language server is killed."""
    rng = random.Random(f"{SEED}-ls-{sig}-{scenario}")
    case, before = Marked(), cgroups()
    f = model(tmp_path, None)
    ls = LanguageServer(case, tmp_path)
    try:
        init = ls.send("initialize", {"processId": os.getpid(), "rootUri": None, "capabilities": {}})
        assert init and ls.reply(init, 60), f"the language server did not initialize: {ls.proc.poll()}"
        ls.send("initialized", {}, request=False)
        run = ls.send(
            "chainlab/deploy",
            {
                "uri": f.as_uri(),
                "chain": "App",
                "target": "lab",
                "scenario": scenario,
                "iterations": 20000,
                "calibrate": 0,
                "runs": str(tmp_path / "runs"),
            },
        )
        ready = "daemon" if scenario == "throttled" else "chain"
        if not wait_for(lambda: case.find(VICTIMS.get(ready, is_chain)), 120, 0.1):
            pytest.fail(f"the {ready} never started: {ls.messages[-3:]} {run and ls.reply(run, 0)}")
        time.sleep(rng.uniform(0.0, 1.2))
        os.kill(ls.proc.pid, sig)
        ls.proc.wait(30)
    finally:
        if ls.proc.poll() is None:
            ls.proc.kill()
            ls.proc.wait()
    assert_clean(case, tmp_path, before, 20)
    # what was measured before the kill is kept where the chain wrote it (a local target: the run's folder), marked
    measured = list((tmp_path / "runs").rglob("run.json"))
    assert measured, f"nothing measured kept under {tmp_path / 'runs'}"
    assert {json.loads(m.read_text())["status"] for m in measured} <= {"stopped", "ok"}
