"""`chainlab deploy` end to end through the CLI: against this machine and against the SSH lab host (a real sshd
in a network namespace), three scenarios, collection, report; and the faults: a compile error on the target, a
target without cmake, an unknown host key, Ctrl-C and a dropped connection during a run."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
from pathlib import Path

from lab import Lab, lab_host

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
CHAIN = (REPO / "samples" / "chains" / "appendix-a.chain").read_text()
THROTTLE = """
throttle Duty {
    duty-cycle  counter llc-misses  sample 100 us  suspend 900 us  threshold 25 %
    mechanism sigstop
}
"""


def model(tmp: Path, lab: Lab | None, name: str = "lab", extra: str = "") -> Path:
    if lab is None:
        target = (
            f"target {name} {{\n    local\n    rt-cores 0\n    be-cores 1\n"
            f"    throttle Duty\n    workload hog\n{extra}}}\n"
        )
    else:
        target = (
            f'target {name} {{\n    ssh "root@{lab.host}"\n    port {lab.port}\n'
            f'    key "{lab.key}"\n    root "{lab.root}/chainlab"\n'
            f"    rt-cores 0\n    be-cores 1\n    throttle Duty\n    workload hog\n{extra}}}\n"
        )
    f = tmp / "lab.chain"
    f.write_text(CHAIN + THROTTLE + target)
    return f


def chainlab(args: list[str], env: dict[str, str] | None = None, timeout: float = 300) -> subprocess.CompletedProcess:
    """The CLI as a user runs it from the repository, with `env` set over this process's environment."""
    return subprocess.run(
        ["node", str(CLI), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=REPO,
        env={**os.environ, **(env or {})},
    )


def deployment(runs: Path) -> Path:
    [d] = list(runs.iterdir())
    return d


def remote_processes(root: Path) -> list[str]:
    out = subprocess.run(["ps", "-eo", "pid,stat,args"], capture_output=True, text=True).stdout
    return [ln for ln in out.splitlines() if str(root) in ln and "ps -eo" not in ln]


def long_deploy(tmp: Path, lab: Lab, scenarios: str, runs: Path) -> subprocess.Popen:
    """A deploy that measures for minutes, returned once its chain is running on the lab."""
    proc = subprocess.Popen(
        [
            "node",
            str(CLI),
            "deploy",
            str(model(tmp, lab)),
            "--target",
            "lab",
            "--scenario",
            scenarios,
            "--iterations",
            "2000000",
            "--runs",
            str(runs),
        ],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "CHAINLAB_KNOWN_HOSTS": str(lab.known_hosts)},
    )
    for _ in range(600):
        if any("--iterations 2000000" in ln for ln in remote_processes(lab.root)):
            break
        time.sleep(0.1)
    return proc


def test_local_and_ssh_cycles_agree_in_shape(lab: Lab, tmp_path: Path) -> None:
    env = {"CHAINLAB_KNOWN_HOSTS": str(lab.known_hosts)}
    local_runs, ssh_runs = tmp_path / "local", tmp_path / "ssh"
    local = chainlab(
        [
            "deploy",
            str(model(tmp_path, None, "bench")),
            "--target",
            "bench",
            "--iterations",
            "2000",
            "--runs",
            str(local_runs),
        ]
    )
    assert local.returncode == 0, local.stderr
    (tmp_path / "s").mkdir()
    remote = chainlab(
        [
            "deploy",
            str(model(tmp_path / "s", lab)),
            "--target",
            "lab",
            "--iterations",
            "2000",
            "--calibrate",
            "20",
            "--runs",
            str(ssh_runs),
        ],
        env,
    )
    assert remote.returncode == 0, remote.stderr + remote.stdout
    assert "[fallback] hardware counters" in remote.stdout and "report:" in remote.stdout
    results = {}
    for kind, runs in (("local", local_runs), ("ssh", ssh_runs)):
        d = deployment(runs)
        res = json.loads((d / "report.json").read_text())
        assert [s["scenario"] for s in res["scenarios"]] == ["baseline", "congested", "throttled"]
        assert all(s["status"] == "ok" and s["completed"] == 2000 for s in res["scenarios"])
        assert res["checksums_equal"]
        html = (d / "report.html").read_text()
        # self-contained: the plot view's script inline (allowed by its hash), the report embedded, nothing loaded
        assert not re.search(r"\s(src|href)\s*=|<link|@import", html) and "script-src 'sha256-" in html
        assert '<script type="application/json" id="chainlab-report">' in html and "<svg" in html  # CDF for no-JS
        for f in (
            "plan.json",
            "preflight.json",
            "model.ir.json",
            "cdf.svg",
            "pmf.png",
            "baseline/latencies.csv",
            "throttled/throttle-trace.csv",
        ):
            assert (d / f).exists(), f
        throttled = res["scenarios"][2]
        assert throttled["throttle"]["cores"][0]["suspensions"] > 0
        # no PMU here: the hog's counts, with its overflow notification instead of a sampler waking every S
        assert (
            throttled["throttle"]["sampling"] == "overflow" and "crossing_delay_ns" in throttled["throttle"]["cores"][0]
        )
        assert res["scenarios"][1]["be_bytes_per_s"] > throttled["be_bytes_per_s"]
        results[kind] = res
    # the image does not depend on the plan (calibrated there, not here): the same checksum here and there
    assert results["local"]["scenarios"][0]["checksum"] == results["ssh"]["scenarios"][0]["checksum"]
    stored = tmp_path / "s" / ".chainlab" / "calibration" / "App@lab.json"  # beside the model
    assert results["ssh"]["calibrated"] and stored.exists()
    assert results["ssh"]["calibration"] == str(stored) and results["ssh"]["scenarios"][0]["tasks"]
    assert remote_processes(lab.root) == []
    # a second deploy of the unchanged chain does not rebuild
    # `run` is the same pipeline with other defaults (the baseline, into -o DIR): on the lab too
    again = chainlab(
        [
            "run",
            str(tmp_path / "s" / "lab.chain"),
            "--target",
            "lab",
            "--iterations",
            "50",
            "-o",
            str(tmp_path / "again"),
        ],
        env,
    )
    # ... and predicts with the calibration kept from the first
    assert again.returncode == 0 and "cached build" in again.stdout, again.stderr
    rerun = json.loads((tmp_path / "again" / "report.json").read_text())
    assert rerun["calibration"] == str(stored) and rerun["kind"] == "ssh"
    assert [s["scenario"] for s in rerun["scenarios"]] == ["baseline"]


def test_unknown_host_key_refused_before_anything_is_uploaded(lab: Lab, tmp_path: Path) -> None:
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    before = sorted(lab.root.rglob("*"))
    r = chainlab(
        [
            "deploy",
            str(model(tmp_path, lab)),
            "--target",
            "lab",
            "--iterations",
            "10",
            "--runs",
            str(tmp_path / "runs"),
        ],
        {"CHAINLAB_KNOWN_HOSTS": str(empty)},
    )
    assert r.returncode == 1
    assert "is not known; its fingerprint is SHA256:" in r.stderr and "npx chainlab trust-host" in r.stderr
    assert sorted(lab.root.rglob("*")) == before
    ok = chainlab(["trust-host", str(tmp_path / "lab.chain"), "--target", "lab"], {"CHAINLAB_KNOWN_HOSTS": str(empty)})
    assert ok.returncode == 0 and "SHA256:" in ok.stdout and "added" in ok.stdout
    assert lab.host in empty.read_text()


def test_target_without_cmake_is_stopped_by_preflight(tmp_path: Path) -> None:
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for tool in (
        "sh",
        "cc",
        "gcc",
        "taskset",
        "setsid",
        "mkdir",
        "cat",
        "date",
        "stat",
        "touch",
        "sleep",
        "kill",
        "rm",
        "test",
        "getconf",
        "uname",
        "grep",
        "ls",
        "df",
        "awk",
        "chrt",
        "head",
        "cut",
        "sed",
        "basename",
        "nproc",
        "env",
    ):
        path = subprocess.run(["sh", "-c", f"command -v {tool}"], capture_output=True, text=True).stdout.strip()
        if path.startswith("/"):
            (bin_dir / tool).symlink_to(path)
    with lab_host(path_dirs=[str(bin_dir)]) as lab:
        r = chainlab(
            [
                "deploy",
                str(model(tmp_path, lab)),
                "--target",
                "lab",
                "--iterations",
                "10",
                "--runs",
                str(tmp_path / "runs"),
            ],
            {"CHAINLAB_KNOWN_HOSTS": str(lab.known_hosts)},
        )
    assert r.returncode == 1
    assert re.search(r"\[MISSING\] +cmake: cmake is not on the PATH -> install it on the target", r.stderr)
    assert "lacks essentials" in r.stderr


def test_compile_error_on_target_shows_the_generated_line(lab: Lab, tmp_path: Path) -> None:
    # A C compiler that rejects the chain's generated code: a wrapper that fails on src/chain.c like a real error
    wrapper = tmp_path / "bin"
    wrapper.mkdir()
    (wrapper / "cc").write_text(
        '#!/bin/sh\nfor a in "$@"; do case "$a" in *src/chain.c) '
        "echo \"$a:12:5: error: expected ';' before '}' token\" >&2; exit 1;; esac; done\n"
        'exec /usr/bin/cc "$@"\n'
    )
    (wrapper / "cc").chmod(0o755)
    with lab_host(path_dirs=[str(wrapper), "/usr/sbin", "/usr/bin", "/sbin", "/bin"]) as lab2:
        r = chainlab(
            [
                "deploy",
                str(model(tmp_path, lab2)),
                "--target",
                "lab",
                "--scenario",
                "baseline",
                "--iterations",
                "10",
                "--runs",
                str(tmp_path / "runs"),
            ],
            {"CHAINLAB_KNOWN_HOSTS": str(lab2.known_hosts), "CC": ""},
        )
    assert r.returncode == 1
    assert "building the generated chain on lab failed" in r.stderr
    assert "src/chain.c:12:5: error" in r.stderr
    assert "the generated sources are in" in r.stderr


def test_ctrl_c_stops_everything_remote_and_keeps_local_data(lab: Lab, tmp_path: Path) -> None:
    runs = tmp_path / "runs"
    proc = long_deploy(tmp_path, lab, "baseline,congested", runs)
    time.sleep(1.0)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert "interrupted" in err
    d = deployment(runs)
    base = json.loads((d / "report.json").read_text())["scenarios"][0]
    assert base["status"] == "stopped" and base["completed"] > 0
    assert (d / "baseline" / "latencies.csv").exists()
    time.sleep(0.5)
    assert remote_processes(lab.root) == []


def test_dropped_connection_keeps_what_was_measured(tmp_path: Path) -> None:
    with lab_host() as lab:
        runs = tmp_path / "runs"
        proc = long_deploy(tmp_path, lab, "baseline,congested", runs)
        time.sleep(1.0)
        lab.kill_sshd()  # the network is gone for a moment ...
        time.sleep(1.5)
        lab.start_sshd()  # ... and comes back: deploy reconnects, stops the run, fetches what it measured
        _, err = proc.communicate(timeout=120)
        assert proc.returncode == 1
        assert (
            "connection to" in err
            and "lost" in err
            and "reconnected" in err
            and "what was measured before is kept in" in err
        ), err[-600:]
        d = deployment(runs)
        dep = json.loads((d / "report.json").read_text())
        base = dep["scenarios"][0]
        assert base["status"] == "partial" and base["completed"] > 0
        lines = (d / "baseline" / "latencies.csv").read_text().strip().splitlines()
        assert len(lines) == base["completed"] + 1
        assert remote_processes(lab.root) == []


def test_unreachable_after_a_drop_leaves_it_to_the_watchdog(tmp_path: Path) -> None:
    with lab_host() as lab:
        runs = tmp_path / "runs"
        proc = long_deploy(tmp_path, lab, "baseline", runs)
        lab.kill_sshd()
        _, err = proc.communicate(timeout=120)
        assert (
            proc.returncode == 1 and "could not reconnect (" in err and "the target's watchdog stops the run" in err
        ), err[-600:]
        for _ in range(150):
            if not remote_processes(lab.root):
                break
            time.sleep(0.1)
        assert remote_processes(lab.root) == []


def test_hostile_strings_are_refused_or_passed_literally(lab: Lab, tmp_path: Path) -> None:
    env = {"CHAINLAB_KNOWN_HOSTS": str(lab.known_hosts)}
    marker = tmp_path / "injected"
    for bad_root in (
        f"{lab.root}/$(touch {marker})",
        f"{lab.root}/a;touch {marker}",
        f"{lab.root}/it's",
        f"{lab.root}/a b",
    ):
        text = (
            model(tmp_path, lab)
            .read_text()
            .replace(f'root "{lab.root}/chainlab"', f'root "{bad_root.replace(chr(34), "")}"')
        )
        (tmp_path / "bad.chain").write_text(text)
        r = chainlab(
            [
                "deploy",
                str(tmp_path / "bad.chain"),
                "--target",
                "lab",
                "--iterations",
                "5",
                "--runs",
                str(tmp_path / "r"),
            ],
            env,
        )
        assert r.returncode == 1 and "is not a safe path for the target" in r.stderr, r.stderr
    # the workload command is the user's own shell command: it reaches exactly one shell on the target, unchanged
    out = tmp_path / "workload.out"
    command = f"echo \\\"a b;c\\\" '$(touch {marker})' '`id`' > {out}; sleep 30"
    f = model(tmp_path, lab).read_text().replace("    workload hog\n", f'    workload "{command}"\n')
    (tmp_path / "wl.chain").write_text(f)
    r = chainlab(
        [
            "deploy",
            str(tmp_path / "wl.chain"),
            "--target",
            "lab",
            "--scenario",
            "congested",
            "--iterations",
            "20",
            "--runs",
            str(tmp_path / "wl"),
        ],
        env,
    )
    assert r.returncode == 0, r.stderr
    assert out.read_text() == f"a b;c $(touch {marker}) `id`\n"
    assert not marker.exists()
    assert remote_processes(lab.root) == []


def test_changed_host_key_is_refused_by_trust_host_unless_replaced_by_name(lab: Lab, tmp_path: Path) -> None:
    """Issue 17 F25: trust-host used to add the new key next to the changed one, and deploy then connected."""
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)], check=True)

    def fp(pub: str) -> str:
        return subprocess.run(["ssh-keygen", "-lf", pub], capture_output=True, text=True).stdout.split()[1]

    old_fp, new_fp = fp(f"{other}.pub"), fp(f"{lab.host_key}.pub")
    pattern = lab.host if lab.port == 22 else f"[{lab.host}]:{lab.port}"
    known = tmp_path / "known_hosts"
    unrelated = "10.200.254.9 " + " ".join(other.with_suffix(".pub").read_text().split()[:2]) + "\n"
    known.write_text(unrelated + f"{pattern} {' '.join(other.with_suffix('.pub').read_text().split()[:2])}\n")
    before = known.read_text()
    env = {"CHAINLAB_KNOWN_HOSTS": str(known)}
    f = str(model(tmp_path, lab))
    refused = chainlab(["trust-host", f, "--target", "lab"], env)
    assert refused.returncode == 1, refused.stdout
    assert "CHANGED" in refused.stderr and old_fp in refused.stderr and new_fp in refused.stderr, refused.stderr
    assert f"--replace {old_fp}" in refused.stderr
    assert known.read_text() == before
    deploy = chainlab(["deploy", f, "--target", "lab", "--iterations", "10", "--runs", str(tmp_path / "runs")], env)
    assert deploy.returncode == 1 and "CHANGED" in deploy.stderr
    wrong = chainlab(["trust-host", f, "--target", "lab", "--replace", new_fp], env)
    assert wrong.returncode == 1 and "no such key" in wrong.stderr and known.read_text() == before, wrong.stderr
    bad = chainlab(["trust-host", f, "--target", "lab", "--replace", "abc"], env)
    assert bad.returncode != 0 and "fingerprint" in bad.stderr and known.read_text() == before
    replaced = chainlab(["trust-host", f, "--target", "lab", "--replace", old_fp], env)
    assert replaced.returncode == 0 and new_fp in replaced.stdout and "added" in replaced.stdout, replaced.stderr
    lines = known.read_text().splitlines()
    assert lines[0] == unrelated.strip() and len(lines) == 2 and lines[1].startswith(f"{pattern} ssh-ed25519 ")
    again = chainlab(["trust-host", f, "--target", "lab"], env)
    assert again.returncode == 0 and "already in" in again.stdout
