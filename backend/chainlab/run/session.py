"""A session on a target: the scenarios of one prepared chain, run one after the other through a Transport, each
one's files collected as soon as it ends (a broken connection loses at most the scenario in flight).

Everything started on the target goes through Transport.start and is stopped by Transport.cleanup; a remote
watchdog stops the run when this controller vanishes.
"""

from __future__ import annotations

import asyncio
import json
import re
import signal
import struct
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chainlab.deploy.targets import open_transport
from chainlab.deploy.transport import NO_EXIT_STATUS, RemoteProcess, Transport, TransportError
from chainlab.errors import RunError
from chainlab.files import write_atomic
from chainlab.progress import ProgressFn
from chainlab.run.interrupt import interrupted
from chainlab.run.scenarios import HOG_BYTES, daemon_args
from chainlab.run.trace import DEFAULT_TRACE

RECONNECT_TRIES = 8
_PROGRESS = re.compile(r"(\d+)% (\d+)/(\d+)")


@dataclass
class OnTarget:
    """A prepared chain on its target: how to reach it and where its binary, tools and run folder are."""

    transport: Transport
    target: dict[str, Any]
    ir: dict[str, Any]
    model_file: str
    binary: str
    tools: str
    run_dir: str
    iterations: int
    period_ns: int
    has_pmu: bool = False
    throttle_calib: dict[str, float] | None = None
    chain_args: tuple[str, ...] = ()


@dataclass
class ScenarioRun:
    scenario: str
    status: str  # ok | stopped | watchdog | partial (connection lost) | failed
    local_dir: str
    completed: int = 0
    iterations: int = 0
    checksum: str | None = None
    be_bytes_per_s: float | None = None
    throttle: dict[str, Any] | None = None
    error: str | None = None


def chain_argv(on: OnTarget, out: str, iterations: int) -> list[str]:
    """The chain binary run `iterations` times into `out`, its progress bar on, the last iterations traced."""
    return _in_dir(
        out,
        [
            on.binary,
            *("--iterations", str(iterations), "--out", out, "--period-ns", str(on.period_ns), "--progress"),
            *("--trace", str(min(iterations, DEFAULT_TRACE))),
            *on.chain_args,
        ],
    )


def _in_dir(directory: str, argv: list[str]) -> list[str]:
    """argv run after creating its output directory (one command on the target instead of two)."""
    return ["sh", "-c", 'mkdir -p "$0" && exec "$@"', directory, *argv]


async def follow_chain(
    transport: Transport,
    argv: list[str],
    run_dir: str,
    name: str,
    progress: ProgressFn,
    watch: RemoteProcess | None = None,
    ended: list[int] | None = None,
) -> int | None:
    """Start the chain, follow its progress bar, pass Ctrl-C on. Returns its exit status. When `watch` (the
    throttler) ends first, the chain is stopped like on Ctrl-C (what it measured is kept) and `ended` gets its
    exit status: the rest would not be the scenario asked for."""
    proc = await transport.start(argv, run_dir=run_dir, name=name)
    log, offset, sent = f"{run_dir}/logs/{name}.log", 0, False
    while True:
        status = await proc.wait(0.3)
        if watch is not None and status is None and not sent and ended is not None:
            gone = await watch.wait(0.01)
            if gone is not None:
                ended.append(gone)
                await proc.signal(signal.SIGINT)
                sent = True
        try:
            text = await transport.read_text(log, offset)
            offset += len(text.encode())
            found = _PROGRESS.findall(text)
            if found:
                pct, done, total = found[-1]
                progress(int(pct) / 100, f"{done}/{total} iterations")
        except (TransportError, OSError):
            pass
        if status is not None:
            return status
        if interrupted() and not sent:
            await proc.signal(signal.SIGINT)  # the chain writes what it measured and exits
            sent = True


def chain_log(text: str) -> str:
    """What the chain binary said, without its progress bar: its last lines, on one line."""
    lines = [ln.strip() for ln in re.sub(r"\r?\[[#.]+\][^\r\n]*", "", text).splitlines() if ln.strip()]
    return "; ".join(lines[-3:])[-2000:]


def _hog_moved(data: bytes) -> int:
    _, _, r, w = struct.unpack("<QqQQ", data[:32])
    return r + w


async def _read_hog(transport: Transport, shm: str, local: Path) -> tuple[int, float] | None:
    try:
        await transport.get_file(shm, local)
        return _hog_moved(local.read_bytes()), time.monotonic()
    except (TransportError, OSError, struct.error):
        return None


def _workload(on: OnTarget, shm: str) -> list[str]:
    be = ",".join(map(str, on.target.get("be_cores") or []))
    work = on.target.get("workload") or {"kind": "hog"}
    if work.get("kind") == "hog":
        return ["taskset", "-c", be, f"{on.tools}/build/throttle/chainlab-hog", f"--shm={shm}", f"--size={HOG_BYTES}"]
    return ["taskset", "-c", be, "sh", "-c", str(work["command"])]


async def _start_best_effort(on: OnTarget, name: str, rdir: str, local: Path) -> RemoteProcess | None:
    """The scenario's best-effort work: the workload (congested) or the throttler that starts it (throttled)."""
    shm = f"{rdir}/hog.shm"
    if name == "congested":
        await on.transport.start(_in_dir(rdir, _workload(on, shm)), run_dir=on.run_dir, name=f"workload-{name}")
        return None
    if name != "throttled":
        return None
    source = ["source=perf"] if on.has_pmu else ["source=coop", f"shm={shm}"]
    if on.throttle_calib:
        calib = on.throttle_calib
        source += [f"calib_read={calib['read_bps']:.0f}", f"calib_write={calib['write_bps']:.0f}"]
    args = [*daemon_args(on.ir, on.target, source), f"trace={rdir}/throttle-trace.csv"]
    write_atomic(local / "throttle-args.txt", " ".join(args) + "\n")
    # the daemon starts the workload itself, so sigstop reaches it and nothing outlives the daemon
    return await on.transport.start(
        _in_dir(rdir, [f"{on.tools}/build/throttle/chainlab-throttle", *args, "--", *_workload(on, shm)]),
        run_dir=on.run_dir,
        name=f"throttle-{name}",
    )


async def _hog_before(on: OnTarget, name: str, shm: str, local: Path) -> tuple[int, float] | None:
    """The hog's bytes moved once it streams (it has started before the chain starts); None without a hog."""
    if name == "baseline" or (on.target.get("workload") or {"kind": "hog"}).get("kind") != "hog":
        return None
    before = None
    for _ in range(250):
        before = await _read_hog(on.transport, shm, local / "hog.before")
        if before and before[0] > 0:
            break
        await asyncio.sleep(0.02)
    return before


async def _stop_throttler(on: OnTarget, daemon: RemoteProcess, name: str) -> dict[str, Any] | None:
    await daemon.signal(signal.SIGTERM)
    await daemon.wait(10)
    text = await on.transport.read_text(f"{on.run_dir}/logs/throttle-{name}.log")
    totals = [ln for ln in text.splitlines() if ln.startswith("{")]
    return json.loads(totals[-1]) if totals else None


async def run_scenario(on: OnTarget, name: str, local: Path, progress: ProgressFn) -> ScenarioRun:
    """One scenario: its best-effort work started, the chain run and followed, everything stopped, files fetched."""
    rdir = f"{on.run_dir}/{name}"
    local.mkdir(parents=True, exist_ok=True)
    result = ScenarioRun(name, "failed", str(local), iterations=on.iterations)
    clean, throttler_ended = False, list[int]()
    try:
        daemon = await _start_best_effort(on, name, rdir, local)
        before = await _hog_before(on, name, f"{rdir}/hog.shm", local)
        argv = chain_argv(on, rdir, on.iterations)
        status = await follow_chain(on.transport, argv, on.run_dir, f"chain-{name}", progress, daemon, throttler_ended)
        after = await _read_hog(on.transport, f"{rdir}/hog.shm", local / "hog.after") if before else None
        if before and after and after[1] > before[1]:
            result.be_bytes_per_s = (after[0] - before[0]) / (after[1] - before[1])
        if daemon is not None:
            result.throttle = await _stop_throttler(on, daemon, name)
        if status not in (0, None):
            await _chain_failed(on, name, status, result)
        clean = status is not None and name == "baseline"
    finally:
        if not clean:  # workload, daemon, an interrupted chain: stopped (resumed first) whatever happened
            await on.transport.cleanup(on.run_dir, keep="watchdog")
    await _fetch(on.transport, rdir, local)
    header = json.loads((local / "run.json").read_text())
    result.status, result.completed, result.checksum = header["status"], int(header["completed"]), header["checksum"]
    if throttler_ended:
        result.status = "partial"
        result.error = (
            f"the throttler ended during the run (exit {throttler_ended[0]}): the chain was stopped, "
            f"the {result.completed} iterations measured until then are kept"
        )
    elif result.status == "stopped" and status is not None and not interrupted():
        result.status = "partial"  # stopped on the target by someone else: not the scenario asked for
        result.error = (
            f"the chain on {on.transport.name} was stopped by a signal chainlab did not send and {ending(status)}: "
            f"the {result.completed} iterations measured until then are kept"
        )
    return result


def ending(status: int) -> str:
    """How a process ended, from the status RemoteProcess.wait gave, in words."""
    if status == NO_EXIT_STATUS:
        return "ended without an exit status (the shell that records it was killed too)"
    if status == 0:
        return "exited normally"
    number = -status if status < 0 else status - 128 if status > 128 else 0
    try:
        name = signal.Signals(number).name
    except ValueError:
        return f"ended with exit code {status}"
    return f"was killed by signal {number} ({name}{f', exit status {status}' if status > 0 else ''})"


async def _chain_failed(on: OnTarget, name: str, status: int, result: ScenarioRun) -> None:
    """A chain that did not end well: what it said goes into the result; without results it is the run's end."""
    log, where = f"{on.run_dir}/logs/chain-{name}.log", on.transport.name
    said = chain_log(await on.transport.read_text(log))
    result.error = f"the chain {ending(status)}" + (f": {said}" if said else "")
    if not await on.transport.exists(f"{on.run_dir}/{name}/run.json"):  # it measured nothing it could write
        raise RunError(
            f"the chain on {where} {ending(status)} in scenario {name}, before writing its results "
            f"(see its log on {where}: {log})" + (f"; it said: {said}" if said else "")
        )


async def _fetch(transport: Transport, rdir: str, local: Path) -> None:
    for f in ("latencies.csv", "run.json", "throttle-trace.csv", "tasks.csv"):
        try:
            await transport.get_file(f"{rdir}/{f}", local / f)
        except FileNotFoundError:
            if f in ("latencies.csv", "run.json"):  # the connection is fine: the chain did not write it
                raise RunError(f"the chain on {transport.name} ended without writing {rdir}/{f}") from None
        except (TransportError, OSError):
            if f in ("latencies.csv", "run.json"):
                raise


async def recover(on: OnTarget, name: str, local: Path, error: str, why: list[str]) -> ScenarioRun | None:
    """After a dropped connection: reconnect (a few tries), stop everything of the run there (the chain writes what
    it measured on SIGTERM) and fetch the scenario's files. None when the target stays unreachable; on success
    `on.transport` is the new connection."""
    rdir = f"{on.run_dir}/{name}"
    for _ in range(RECONNECT_TRIES):
        await asyncio.sleep(1)
        try:
            t = await open_transport(on.target, on.model_file)
        except TransportError as e:
            why.append(e.message)
            continue
        try:
            await t.cleanup(on.run_dir)
            for _ in range(100):
                if await t.exists(f"{rdir}/run.json"):
                    break
                await asyncio.sleep(0.1)
            local.mkdir(parents=True, exist_ok=True)
            for f in ("latencies.csv", "run.json"):
                await t.get_file(f"{rdir}/{f}", local / f)
            header = json.loads((local / "run.json").read_text())
        except (TransportError, OSError, ValueError) as e:
            why.append(getattr(e, "message", None) or f"{type(e).__name__}: {e}")
            await t.close()
            continue
        await on.transport.close()
        on.transport = t
        return ScenarioRun(
            name,
            "partial",
            str(local),
            completed=int(header["completed"]),
            iterations=on.iterations,
            checksum=header["checksum"],
            error=error,
        )
    return None
