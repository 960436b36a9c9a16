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

CHAINLAB_FAULT_SEED picks other moments (default 17). npm test runs one case per victim and kind of run (9, about
2 min); CHAINLAB_FAULT_ALL=1 runs every combination (15).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
import threading
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from lab import Lab
from test_deploy_cycle import CHAIN, CLI, REPO, model

SEED = int(os.environ.get("CHAINLAB_FAULT_SEED", "17"))
ALL = os.environ.get("CHAINLAB_FAULT_ALL") == "1"
more = pytest.mark.skipif(not ALL, reason="a further combination: CHAINLAB_FAULT_ALL=1")
CG2 = next(
    (ln.split()[1] for ln in Path("/proc/mounts").read_text().splitlines() if ln.split()[2:3] == ["cgroup2"]), None
)


class Marked:
    """The processes of one case: everything started with its environment marker."""

    def __init__(self) -> None:
        self.mark = f"CHAINLAB_FAULT_MARK={uuid.uuid4().hex}".encode()
        self.stopped_seen: list[str] = []

    def env(self, **extra: str) -> dict[str, str]:
        key, value = self.mark.decode().split("=", 1)
        return {**os.environ, key: value, **extra}

    def processes(self) -> list[tuple[int, str, str, str]]:
        """(pid, state, comm, command line) of every live marked process (zombies are gone already)."""
        found = []
        for d in Path("/proc").iterdir():
            if not d.name.isdigit():
                continue
            try:
                if self.mark not in (d / "environ").read_bytes().split(b"\0"):
                    continue
                stat = (d / "stat").read_text()
                cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
            except OSError:
                continue
            state = stat.rsplit(")", 1)[1].split()[0]
            if state != "Z":
                found.append((int(d.name), state, stat[stat.index("(") + 1 : stat.rindex(")")], cmd))
        return found

    def find(self, what: Callable[[str, str], bool]) -> int | None:
        procs = self.processes()
        self.stopped_seen += [f"{c} {cmd}" for _, s, c, cmd in procs if s == "T" and c != "chainlab-hog"]
        return next((pid for pid, _, comm, cmd in procs if what(comm, cmd)), None)


def remote_processes(root: Path) -> list[str]:
    """The lab's processes of this run: their command lines name the lab root (full, untruncated lines)."""
    found = []
    for d in Path("/proc").iterdir():
        try:
            cmd = (d / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace") if d.name.isdigit() else ""
            state = (d / "stat").read_text().rsplit(")", 1)[1].split()[0] if cmd else "Z"
        except OSError:
            continue
        if str(root) in cmd and state != "Z":
            found.append(f"{d.name} {state} {cmd}")
    return found


def wait_for(cond: Callable[[], object], timeout: float, step: float = 0.05) -> object:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        v = cond()
        if v:
            return v
        time.sleep(step)
    return None


def cgroups() -> set[str]:
    return {p.name for p in Path(CG2).iterdir() if p.is_dir()} if CG2 else set()


def check_data(root: Path) -> list[str]:
    """Every latencies.csv under root is complete or marked partial, with exactly `completed` rows."""
    problems = []
    for lat in root.rglob("latencies.csv"):
        rows = max(0, len(lat.read_text().splitlines()) - 1)
        header = lat.with_name("run.json")
        if header.exists():
            try:
                run = json.loads(header.read_text())
            except ValueError:
                problems.append(f"{header}: not JSON (truncated)")
                continue
            if run.get("status") not in ("ok", "stopped", "partial"):
                problems.append(f"{header}: status {run.get('status')}")
            elif run.get("status") == "ok" and run.get("completed") != run.get("iterations", run.get("completed")):
                problems.append(f"{header}: 'ok' but {run.get('completed')} of {run.get('iterations')}")
            elif run.get("completed") is not None and int(run["completed"]) != rows:
                problems.append(f"{lat}: {rows} rows, run.json says {run['completed']} completed")
            continue
        # a run's local copy: its scenario in report.json says what it holds
        dep = next((p / "report.json" for p in lat.parents if (p / "report.json").exists()), None)
        if dep is None:
            problems.append(f"{lat}: {rows} rows and nothing says whether they are complete")
            continue
        scen = next((s for s in json.loads(dep.read_text())["scenarios"] if s["scenario"] == lat.parent.name), None)
        if scen is None or scen["status"] not in ("ok", "stopped", "partial"):
            problems.append(f"{lat}: scenario {scen and scen['status']}")
        elif scen.get("completed") is not None and int(scen["completed"]) != rows:
            problems.append(f"{lat}: {rows} rows, report.json says {scen['completed']}")
    return problems


def assert_clean(case: Marked, data: Path, before_cg: set[str], timeout: float, lab: Lab | None = None) -> None:
    left = wait_for(
        lambda: not case.find(lambda c, cmd: True) and (lab is None or not remote_processes(lab.root)), timeout
    )
    procs = case.processes()
    for pid, _, _, _ in procs:  # do not leave them to the next case, but fail
        os.kill(pid, signal.SIGCONT)
        os.kill(pid, signal.SIGKILL)
    assert left, f"left running: {procs} {remote_processes(lab.root) if lab else ''}"
    assert not case.stopped_seen, f"stopped processes: {case.stopped_seen}"
    mine = {c for c in cgroups() - before_cg if c.startswith("chainlab") and "-test-" not in c and "-faults-" not in c}
    assert not mine, f"cgroups left: {mine}"
    assert check_data(data) == []
    if lab is not None:
        assert check_data(lab.root) == []


def finish(case: Marked, proc: subprocess.Popen[str], timeout: float) -> str:
    """The CLI's stderr once it ended; one that does not end is a failure, and nothing of it is left running."""
    try:
        return proc.communicate(timeout=timeout)[1]
    except subprocess.TimeoutExpired:
        for pid, _, _, _ in case.processes():
            os.kill(pid, signal.SIGCONT)
            os.kill(pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"the CLI did not end within {timeout} s of the fault")


def cli(case: Marked, args: list[str], **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        ["node", str(CLI), *args],
        cwd=REPO,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=case.env(**env),
    )


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
