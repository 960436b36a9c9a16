"""Local scenarios (thesis ch.4, Table 4.4): the real-time chain alone, next to best-effort work, and next to
best-effort work kept in check by the throttler.

- baseline:  the chain alone on the target's rt-cores.
- congested: + the best-effort workload on the be-cores (the built-in hog, Syn 'C', or the target's command).
- throttled: + chainlab-throttle with the model's throttle parameters on the be-cores.

The chain is planned and built once; each scenario runs the same binary into its own directory. Background
processes run in their own sessions and are always stopped (SIGCONT first, so nothing stays suspended).
Without a hardware PMU the throttler reads the hog's cooperative counters (bytes it really moved).
"""
from __future__ import annotations

import json
import os
import shlex
import signal
import struct
import subprocess
import time
from contextlib import ExitStack, contextmanager
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterator

from chainlab.errors import ModelError
from chainlab.run.build import default_cache
from chainlab.run.interrupt import interrupted
from chainlab.run.local import PreparedRun, RunResult, execute_run, prepare_run

SCENARIOS = ("baseline", "congested", "throttled")
HOG_BYTES = 64 << 20
REPO_TOOLS = Path(__file__).resolve().parents[3] / "runtime-c" / "build" / "throttle"
RUNTIME_SOURCES = Path(__file__).resolve().parents[3] / "runtime-c"


@dataclass
class ScenarioResult:
    scenario: str
    run: RunResult
    increase_pct: float | None = None       # mean latency over the baseline's, in %
    be_bytes_per_s: float | None = None     # best-effort progress (hog: bytes moved per second)
    throttle: dict[str, Any] | None = None  # the daemon's totals (suspended time, suspensions per core)
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["run"] = self.run.to_json()
        return d


def parse_scenarios(text: str | list[str] | None) -> list[str]:
    names = [s.strip() for s in (text.split(",") if isinstance(text, str) else text or []) if s.strip()]
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown or not names:
        raise ModelError(f"unknown scenario {', '.join(unknown) or '(none)'}: choose from {', '.join(SCENARIOS)}")
    return list(dict.fromkeys(names))


def tool_binaries(cache: Path | None = None) -> tuple[Path, Path]:
    """chainlab-throttle and chainlab-hog: the repository's build, else built once into the cache."""
    if (REPO_TOOLS / "chainlab-throttle").exists() and (REPO_TOOLS / "chainlab-hog").exists():
        return REPO_TOOLS / "chainlab-throttle", REPO_TOOLS / "chainlab-hog"
    build = (cache or default_cache()).parent / "tools"
    if not (build / "throttle" / "chainlab-hog").exists():
        for cmd in (["cmake", "-S", str(RUNTIME_SOURCES), "-B", str(build), "-DCMAKE_BUILD_TYPE=Release"],
                    ["cmake", "--build", str(build), "--target", "chainlab-throttle", "chainlab-hog"]):
            proc = subprocess.run(cmd, capture_output=True, text=True)
            if proc.returncode != 0:
                raise ModelError(f"building the throttler failed:\n{(proc.stdout + proc.stderr)[-3000:]}")
    return build / "throttle" / "chainlab-throttle", build / "throttle" / "chainlab-hog"


def _target(ir: dict[str, Any], name: str | None) -> dict[str, Any]:
    t = next((t for t in ir.get("targets", []) if t["name"] == name), None)
    if t is None:
        names = ", ".join(t["name"] for t in ir.get("targets", [])) or "none"
        raise ModelError(f"scenarios need a target of the model with be-cores (targets: {names})", element=name)
    return t


def _be_cores(tgt: dict[str, Any]) -> list[int]:
    ncpu = os.cpu_count() or 1
    cores = [c for c in tgt.get("be_cores") or [] if c < ncpu]
    if not cores:
        raise ModelError(f"target {tgt['name']}: congested and throttled scenarios need be-cores that exist on this "
                         f"machine ({ncpu} cores; the target names {tgt.get('be_cores') or 'none'})",
                         tgt.get("loc"), f"target {tgt['name']}")
    return cores


_BPS = {"MB/s": 1e6, "GB/s": 1e9, "MiB/s": 2.0 ** 20, "GiB/s": 2.0 ** 30}


def _quantity(q: dict[str, Any] | None) -> str | None:
    """A model threshold as the daemon reads it: `25%` or bytes per second."""
    if not q:
        return None
    return f"{q['value']:g}%" if q.get("unit") == "%" else f"{float(q['value']) * _BPS[q['unit']]:.0f}"


def daemon_args(ir: dict[str, Any], tgt: dict[str, Any], source: list[str]) -> list[str]:
    """chainlab-throttle key=value arguments from the model's throttle of the target."""
    name = tgt.get("throttle")
    thr = next((t for t in ir.get("throttles", []) if t["name"] == name), None)
    if thr is None:
        raise ModelError(f"target {tgt['name']} names no throttle: the throttled scenario needs one",
                         tgt.get("loc"), f"target {tgt['name']}")
    be = _be_cores(tgt)
    args = [f"mode={thr['mode']}", f"cores={','.join(map(str, be))}", f"mechanism={thr['mechanism']}", *source]
    if thr["mode"] == "duty-cycle":
        dc = thr["duty_cycle"]
        args += [f"sample={dc['sample_ns']}ns", f"suspend={dc['suspend_ns']}ns"]
        for key in ("threshold", "read_threshold", "write_threshold"):
            if _quantity(dc.get(key)):
                args.append(f"{key}={_quantity(dc[key])}")
        if dc.get("proportional"):
            args.append("proportional=true")
    else:
        b = thr["budget"]
        args += [f"period={b['period_ns']}ns", f"budget={b['misses']}", f"distribution={b.get('distribution') or 'static'}"]
    rt = [c for c in tgt.get("rt_cores") or [] if c not in be]
    if thr["mechanism"] == "fifo-hold" and rt:
        args.append(f"sampler_cpu={rt[0]}")  # the hold threads spin on the be-cores: sample from elsewhere
    else:
        args.append(f"sampler_cpu={be[0]}")  # keep the sampler's time off the real-time cores
    return args


def has_pmu(throttle: Path, core: int) -> bool:
    """Whether perf_event_open works for the daemon here (this VM: ENOENT, no PMU)."""
    proc = subprocess.run([str(throttle), "source=perf", f"cores={core}", "mechanism=none", "duration=5ms",
                           "threshold=100%", "calib_read=1GB/s", "calib_write=1GB/s"], capture_output=True, text=True)
    return proc.returncode == 0


class _Background:
    """A process in its own session, stopped for sure at the end (SIGCONT, TERM, then KILL)."""

    def __init__(self, argv: list[str], log: Path):
        self.argv = argv
        self._log = open(log, "wb")
        self.proc = subprocess.Popen(argv, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=self._log,
                                     start_new_session=True)

    def stop(self, timeout: float = 10) -> str:
        if self.proc.poll() is None:
            for sig in (signal.SIGCONT, signal.SIGTERM):
                _killpg(self.proc.pid, sig)
        try:
            out, _ = self.proc.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _killpg(self.proc.pid, signal.SIGKILL)
            out, _ = self.proc.communicate()
        self._log.close()
        return out.decode(errors="replace") if out else ""


def _killpg(pid: int, sig: int) -> None:
    try:
        os.killpg(pid, sig)
    except ProcessLookupError:
        pass


def _hog_moved(shm: Path) -> int:
    _, _, r, w = struct.unpack("<QqQQ", shm.read_bytes()[:32])
    return r + w


@contextmanager
def _workload(tgt: dict[str, Any], hog: Path, out: Path, stack: ExitStack) -> Iterator[tuple[_Background, Path | None]]:
    """The target's best-effort workload pinned to its be-cores; yields (process, hog shm or None)."""
    be = ",".join(map(str, _be_cores(tgt)))
    work = tgt.get("workload") or {"kind": "hog"}
    shm: Path | None = None
    if work.get("kind") == "hog":
        shm = out / "hog.shm"
        shm.unlink(missing_ok=True)
        # Syn 'C': a buffer well beyond the last-level cache, so the hog streams from memory
        argv = ["taskset", "-c", be, str(hog), f"--shm={shm}", f"--size={HOG_BYTES}"]
    else:
        argv = ["taskset", "-c", be, "sh", "-c", str(work.get("command") or "")]
    bg = _Background(argv, out / "workload.log")
    stack.callback(bg.stop)
    if shm is not None:
        for _ in range(300):
            if shm.exists() and shm.stat().st_size >= 32:
                break
            if bg.proc.poll() is not None:
                raise ModelError(f"the best-effort hog exited at once ({shlex.join(argv)}): see {out / 'workload.log'}")
            time.sleep(0.01)
    yield bg, shm


def run_scenarios(ir: dict[str, Any], chain: str, *, target: str, scenarios: list[str], out_dir: Path,
                  heuristic: str | None = None, memory: str | None = None, iterations: int | None = None,
                  threads: int | None = None, calibrate: int = 0, period_ns: int | None = None,
                  cache: Path | None = None, on_progress: Callable[[float, str], None] | None = None,
                  log: Callable[[str], None] = lambda s: None) -> list[ScenarioResult]:
    tgt = _target(ir, target)
    if set(scenarios) - {"baseline"}:
        _be_cores(tgt)
    throttle_bin, hog_bin = tool_binaries(cache)
    source: list[str] = []
    if "throttled" in scenarios:
        daemon_args(ir, tgt, [])  # refuse a missing throttle before anything runs
        if has_pmu(throttle_bin, _be_cores(tgt)[0]):
            source = ["source=perf"]
        elif (tgt.get("workload") or {"kind": "hog"}).get("kind") == "hog":
            source = ["source=coop"]
        else:
            raise ModelError(f"target {target}: no hardware counters here (perf_event_open fails) and the workload is "
                             "not the built-in hog, whose cooperative counters are the fallback",
                             tgt.get("loc"), f"target {target}")
        # percent thresholds need the machine's per-core maximum: measure it once, alone, on a be-core
        cal = subprocess.run(["taskset", "-c", str(_be_cores(tgt)[0]), str(throttle_bin), "--calibrate"],
                             capture_output=True, text=True)
        if cal.returncode != 0:
            raise ModelError(f"calibrating the memory bandwidth failed: {cal.stderr.strip()[-500:]}")
        bw = json.loads(cal.stdout)
        source += [f"calib_read={bw['read_bps']:.0f}", f"calib_write={bw['write_bps']:.0f}"]
    out_dir = out_dir.resolve()
    prep: PreparedRun = prepare_run(ir, chain, target=target, heuristic=heuristic, memory=memory, iterations=iterations,
                                    threads=threads, calibrate=calibrate, out_dir=out_dir, cache=cache, log=log,
                                    period_ns=period_ns)
    results: list[ScenarioResult] = []
    for k, name in enumerate(scenarios):
        if interrupted():
            log(f"interrupted: scenario {name} and later ones not run")
            break
        sub = out_dir / name
        sub.mkdir(parents=True, exist_ok=True)

        def progress(fraction: float, message: str, k: int = k, name: str = name) -> None:
            if on_progress:
                on_progress((k + fraction) / len(scenarios), f"{name}: {message}")

        log(f"scenario {name}")
        notes: list[str] = []
        with ExitStack() as stack:
            shm = None
            daemon: _Background | None = None
            if name != "baseline":
                bg, shm = stack.enter_context(_workload(tgt, hog_bin, sub, stack))
            if name == "throttled":
                src = source + ([f"shm={shm}"] if "source=coop" in source else [])
                args = daemon_args(ir, tgt, src)
                if "mechanism=sigstop" in args:
                    args.append(f"pids={bg.proc.pid}")
                args.append(f"trace={sub / 'throttle-trace.csv'}")
                daemon = _Background([str(throttle_bin), *args], sub / "throttle.log")
                stack.callback(daemon.stop)
                time.sleep(0.05)
                if daemon.proc.poll() is not None:
                    raise ModelError(f"the throttler exited at once: {(sub / 'throttle.log').read_text()[-1000:]}"
                                     f" ({shlex.join([str(throttle_bin), *args])})")
                (sub / "throttle-args.txt").write_text(shlex.join([str(throttle_bin), *args]) + "\n")
                if "source=coop" in source:
                    notes.append("no hardware counters here: the throttler reads the hog's cooperative byte counters")
            before = (_hog_moved(shm), time.monotonic()) if shm else None
            run = execute_run(prep, sub, on_progress=progress)
            after = (_hog_moved(shm), time.monotonic()) if shm else None
            totals = None
            if daemon is not None:
                text = daemon.stop()
                try:
                    totals = json.loads(text.strip().splitlines()[-1])
                except (ValueError, IndexError):
                    notes.append(f"the throttler printed no totals: {(sub / 'throttle.log').read_text()[-500:]}")
        result = ScenarioResult(name, run, notes=notes, throttle=totals)
        if before and after and after[1] > before[1]:
            result.be_bytes_per_s = (after[0] - before[0]) / (after[1] - before[1])
        results.append(result)
        if run.status != "ok" or interrupted():
            log(f"scenario {name} ended early ({run.status}): stopping")
            break
    base = next((r for r in results if r.scenario == "baseline"), None)
    if base and base.run.measured.get("samples"):
        for r in results:
            if r.run.measured.get("samples"):
                r.increase_pct = 100 * (r.run.measured["mean_ns"] / base.run.measured["mean_ns"] - 1)
    (out_dir / "scenarios.json").write_text(json.dumps([r.to_json() for r in results], indent=1))
    return results


def comparison_table(results: list[ScenarioResult]) -> str:
    """Thesis Table 4.4 style: x̄, σ, max, increase over baseline, best-effort progress, throttled time."""
    head = f"{'scenario':11} {'mean ms':>9} {'sigma ms':>9} {'p99 ms':>9} {'max ms':>9} {'+mean %':>8} {'BE GB/s':>8} {'BE susp %':>9} {'iterations':>11}"
    lines = [head, "-" * len(head)]
    for r in results:
        m = r.run.measured
        if not m.get("samples"):
            lines.append(f"{r.scenario:11} (no iteration completed)")
            continue
        inc = f"{r.increase_pct:+8.1f}" if r.increase_pct is not None else f"{'':>8}"
        be = f"{r.be_bytes_per_s / 1e9:8.2f}" if r.be_bytes_per_s is not None else f"{'-':>8}"
        susp = "-"
        if r.throttle and r.throttle.get("cores") and r.throttle.get("wall_ns"):
            frac = sum(c["suspended_ns"] for c in r.throttle["cores"]) / (r.throttle["wall_ns"] * len(r.throttle["cores"]))
            susp = f"{100 * frac:.1f}"
        lines.append(f"{r.scenario:11} {m['mean_ns'] / 1e6:9.3f} {m['std_ns'] / 1e6:9.3f} {m['p99_ns'] / 1e6:9.3f} "
                     f"{m['max_ns'] / 1e6:9.3f} {inc} {be} {susp:>9} {r.run.completed:>5}/{r.run.iterations:<5}"
                     + ("" if r.run.status == "ok" else f" {r.run.status.upper()}") + (" OVERLOADED" if r.run.overloaded else ""))
    cong = next((r for r in results if r.scenario == "congested"), None)
    thr = next((r for r in results if r.scenario == "throttled"), None)
    if cong and thr and cong.increase_pct and thr.increase_pct is not None and cong.increase_pct > 0:
        lines.append(f"the throttler removes {100 * (1 - thr.increase_pct / cong.increase_pct):.0f} % of the hog's mean-latency "
                     f"increase; the hog keeps {100 * (thr.be_bytes_per_s or 0) / (cong.be_bytes_per_s or 1):.0f} % of its progress")
    if any(r.run.overloaded for r in results):
        lines.append("OVERLOADED: iterations take longer than the period and latencies grow with every release; the numbers "
                     "measure the backlog, not the chain (too few rt-cores, or the machine is busy with other work)")
    for r in results:
        lines += [f"note ({r.scenario}): {n}" for n in r.notes]
    return "\n".join(lines)
