"""What the fault suite (test_faults.py) checks after each fault: the processes of one case (an environment marker
here, the lab root there), cgroups, and whether what was measured is complete or marked partial."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from lab import Lab
from test_deploy_cycle import CLI, REPO

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
