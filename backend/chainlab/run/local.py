"""`chainlab run --target here`: plan, generate, build (cached), calibrate if asked, run, report.

Thread mapping (the model's chain may ask for more threads than the target has rt-cores, e.g. XRay
wants 4 on a 2-core machine): the chain is re-planned with threads = number of the target's
rt-cores and cores = those rt-cores, so every pinned thread owns one core. options.threads overrides
this (several threads then share the cores round-robin, see chainlab.plan.pinning).
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
from collections.abc import Callable
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from chainlab.codegen import generate_project
from chainlab.deploy.targets import HERE
from chainlab.errors import ModelError
from chainlab.files import resolved, write_atomic
from chainlab.ir import find_chain, find_target
from chainlab.plan import (
    RUN_PREDICTION_DRAWS,
    PlanOptions,
    pin_threads,
    plan_for_cores,
    plan_to_json,
    predict_latency,
)
from chainlab.plan.model import Plan
from chainlab.progress import ProgressFn
from chainlab.run.build import build_project
from chainlab.run.calibration import (
    Calibration,
    apply_calibration,
    calibration_from_trace,
    calibration_path,
    load_calibration,
    measured_costs,
    save_calibration,
)
from chainlab.run.interrupt import interruptible
from chainlab.run.stats import ks_distance, latency_stats, plot_cdf, read_latencies
from chainlab.run.trace import DEFAULT_TRACE, read_trace, task_summary


@dataclass
class RunResult:
    chain: str
    period_ns: int
    heuristic: str
    memory: str
    threads: int
    cores: list[int]
    iterations: int
    completed: int
    status: str
    checksum: str
    arena_bytes: int
    sum_bytes: int
    measured: dict[str, Any]
    predicted: dict[str, Any] | None
    ks: float | None
    out_dir: str
    files: list[str] = field(default_factory=list)
    cached_build: bool = False
    calibrated: bool = False
    overloaded: bool = False
    calibration: str | None = None  # the calibration file the prediction used
    tasks: list[dict[str, Any]] = field(default_factory=list)  # measured per sub-box (run/trace.py)

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def target_cores(ir: dict[str, Any], target: str | None) -> list[int]:
    """The rt-cores a local target offers on this machine (all cores when it names none)."""
    ncpu = os.cpu_count() or 1
    if target is None:
        return list(range(ncpu))
    t = find_target(ir, target)
    if t["kind"] != "local":
        raise ModelError(
            f"target {target} is an ssh target; only local targets can run for now", loc=t.get("loc"), element=target
        )
    cores = [c for c in (t.get("rt_cores") or range(ncpu)) if c < ncpu]
    if not cores:
        raise ModelError(
            f"target {target}: none of its rt-cores {t.get('rt_cores')} exists on this machine ({ncpu} cores)",
            loc=t.get("loc"),
            element=target,
        )
    return cores


@dataclass
class PreparedRun:
    """A planned (and, when asked, calibrated) chain with its built binary, ready to run any number of times."""

    ir: dict[str, Any]
    chain: str
    plan: Plan  # as planned: the prediction comes from it
    pinned: Plan  # what the binary runs: the plan's threads on the target's cores (plan.json)
    binary: Path
    cached_build: bool
    calibration: Calibration | None
    calibration_file: Path | None
    threads: int
    iterations: int
    period_ns: int

    @property
    def calibrated(self) -> bool:
        return self.calibration is not None


def prepare_run(
    ir: dict[str, Any],
    chain: str,
    *,
    target: str | None = None,
    options: PlanOptions = PlanOptions(),
    iterations: int | None = None,
    calibrate: int = 0,
    out_dir: Path,
    cache: Path | None = None,
    log: Callable[[str], None] = lambda s: None,
    period_ns: int | None = None,
    model_file: str | None = None,
) -> PreparedRun:
    """Plan (options.threads threads, default one per rt-core of the target), calibrate and build. period_ns:
    None = the chain's source period when it has one (absolute-time releases), else free running; 0 = free
    running (iteration i+1 may start while i is in flight: latency then includes queueing).

    Calibration (run/calibration.py): calibrate > 0 runs the planned chain that many iterations with the trace
    on, keeps the sub-boxes' measured times beside the model (or in out_dir without a model file) and re-plans
    with them; calibrate == 0 uses the stored calibration of this chain and target when there is one."""
    cores = target_cores(ir, target)
    iterations = iterations or int(find_chain(ir, chain).get("iterations") or 1000)
    out_dir.mkdir(parents=True, exist_ok=True)
    plan = plan_for_cores(ir, chain, cores, options)
    period = (plan.chain.period_ns or 0) if period_ns is None else period_ns
    where = target or HERE
    cal_file = calibration_path(model_file, chain, where) or out_dir / "calibration.json"
    calibration = load_calibration(cal_file, chain, where) if calibrate == 0 else None
    if calibrate > 0:
        binary, _ = build_project(generate_project(pin_threads(plan, cores)), cache)
        log(f"calibrating: {calibrate} iterations of {chain} as planned, every sub-box timed")
        calibration = calibration_run(binary, ir, chain, where, calibrate, int(period), out_dir / "calibration")
        save_calibration(calibration, cal_file)
        log(f"calibration kept in {cal_file}")
    elif calibration is not None:
        log(f"using the calibration in {cal_file} ({calibration.created}, {calibration.iterations} iterations)")
    if calibration is not None:
        ir = apply_calibration(ir, calibration)
        plan = plan_for_cores(ir, chain, cores, options)
    pinned = pin_threads(plan, cores)
    binary, cached = build_project(generate_project(pinned), cache)
    log(f"{'cached build' if cached else 'built'} {binary}")
    return PreparedRun(
        ir,
        chain,
        plan,
        pinned,
        binary,
        cached,
        calibration,
        cal_file if calibration is not None else None,
        plan.threads,
        iterations,
        int(period),
    )


def calibration_run(
    binary: Path, ir: dict[str, Any], chain: str, target: str, iterations: int, period_ns: int, out_dir: Path
) -> Calibration:
    """Runs the chain `iterations` times with the trace on and makes its calibration."""
    out_dir.mkdir(parents=True, exist_ok=True)
    cmd = [str(binary), "--iterations", str(iterations), "--period-ns", str(period_ns), "--out", str(out_dir)]
    returncode, stderr = _execute([*cmd, "--trace", str(iterations)], None)
    trace = read_trace(out_dir / "tasks.csv")
    if returncode != 0 or trace is None:
        raise ModelError(f"the calibration run failed (exit {returncode}): {stderr.strip()[-2000:]}", element=chain)
    return calibration_from_trace(trace, ir, chain, target, period_ns)


def execute_run(
    prep: PreparedRun, out_dir: Path, *, progress: ProgressFn | None = None, extra_args: list[str] | None = None
) -> RunResult:
    """Run the built chain once into out_dir and report measured vs predicted latency. A run stopped by
    SIGINT/SIGTERM still reports what it measured (status 'stopped', completed < iterations)."""
    out = resolved(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    pinned, chain, iterations, period = prep.pinned, prep.chain, prep.iterations, prep.period_ns
    write_atomic(out / "plan.json", json.dumps(plan_to_json(pinned), indent=1))
    cmd = (
        [str(prep.binary), "--iterations", str(iterations), "--out", str(out), "--period-ns", str(period)]
        + ["--trace", str(min(iterations, DEFAULT_TRACE))]
        + (["--progress"] if progress else [])
        + (extra_args or [])
    )
    returncode, stderr = _execute(cmd, progress)
    if returncode != 0 or not (out / "run.json").exists():
        raise ModelError(f"the run failed (exit {returncode}): {stderr.strip()[-2000:]}", element=chain)
    header = json.loads((out / "run.json").read_text())
    lat = read_latencies(out / "latencies.csv")
    overloaded = bool(
        period and lat.size > 20 and np.median(lat[-10:]) > 2 * np.median(lat[:10]) and lat[-10:].min() > period
    )
    measured = latency_stats(lat)
    measured_times = measured_costs(prep.calibration, prep.plan) if prep.calibration else None
    pred = predict_latency(
        prep.plan, iterations=RUN_PREDICTION_DRAWS, seed=1, measured=measured_times, period_ns=period
    )
    trace = read_trace(out / "tasks.csv")
    threads = {s.name: pinned.mapping.thread_of[s.id] for s in pinned.inst.subs}
    predicted = {
        "mean_ns": pred.mean_ns,
        "std_ns": pred.std_ns,
        "p50_ns": pred.p50_ns,
        "p99_ns": pred.p99_ns,
        "max_ns": pred.max_ns,
        "samples": pred.samples,
    }
    ks = ks_distance(lat, pred.points)
    files = [str(out / "latencies.csv"), str(out / "run.json"), str(out / "plan.json")]
    write_atomic(out / "predicted.csv", "latency_ns,probability\n" + "".join(f"{x},{p}\n" for x, p in pred.points))
    files.append(str(out / "predicted.csv"))
    if lat.size:
        files += [
            str(f)
            for f in plot_cdf(
                lat, pred.points, f"{chain}: {pinned.heuristic}/{pinned.memory}, {prep.threads} thread(s)", out / "cdf"
            )
        ]
    result = RunResult(
        chain,
        int(period),
        pinned.heuristic,
        pinned.memory,
        prep.threads,
        list(pinned.cores),
        iterations,
        int(header["completed"]),
        header["status"],
        header["checksum"],
        pinned.allocation.arena_bytes,
        pinned.allocation.sum_bytes,
        measured,
        predicted,
        ks,
        str(out),
        files,
        prep.cached_build,
        prep.calibrated,
        overloaded,
        str(prep.calibration_file) if prep.calibration_file else None,
        task_summary(trace, threads) if trace else [],
    )
    write_atomic(out / "report.json", json.dumps(result.to_json(), indent=1))
    result.files.append(str(out / "report.json"))
    return result


def run_local(
    ir: dict[str, Any],
    chain: str,
    *,
    target: str | None = None,
    options: PlanOptions = PlanOptions(),
    iterations: int | None = None,
    calibrate: int = 0,
    out_dir: Path | None = None,
    cache: Path | None = None,
    progress: ProgressFn | None = None,
    log: Callable[[str], None] = lambda s: None,
    extra_args: list[str] | None = None,
    period_ns: int | None = None,
    model_file: str | None = None,
) -> RunResult:
    """One run on this machine: prepare_run then execute_run."""
    out = resolved(out_dir or Path("chainlab-runs") / chain)
    prep = prepare_run(
        ir,
        chain,
        target=target,
        options=options,
        iterations=iterations,
        calibrate=calibrate,
        out_dir=out,
        cache=cache,
        log=log,
        period_ns=period_ns,
        model_file=model_file,
    )
    return execute_run(prep, out, progress=progress, extra_args=extra_args)


def _execute(cmd: list[str], progress: ProgressFn | None) -> tuple[int, str]:
    """Runs the chain binary; its progress bar on stderr (`... NN% done/total`) becomes progress calls."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    assert proc.stderr is not None
    with interruptible(proc):
        return _follow(proc, progress)


def _follow(proc: subprocess.Popen[bytes], progress: ProgressFn | None) -> tuple[int, str]:
    stderr = proc.stderr
    assert isinstance(stderr, io.BufferedReader)  # a buffered pipe: read1 returns what is there, up to 4 KiB
    seen = bytearray()
    last = -1
    while True:
        chunk = stderr.read1(4096)
        if not chunk:
            break
        seen += chunk
        if progress:
            found = re.findall(rb"(\d+)% (\d+)/(\d+)", bytes(seen[-200:]))
            if found and int(found[-1][0]) != last:
                last = int(found[-1][0])
                progress(last / 100, f"{found[-1][1].decode()}/{found[-1][2].decode()} iterations")
    proc.wait()
    text = re.sub(r"\r?\[[#.]+\][^\r\n]*", "", seen.decode(errors="replace"))
    return proc.returncode, text


def summary_text(r: RunResult) -> str:
    m = r.measured
    release = f"released every {r.period_ns / 1e6:g} ms" if r.period_ns else "free-running source"
    lines = [
        f"chain {r.chain}: {r.heuristic}/{r.memory}, {r.threads} thread(s) on cores {r.cores}, {release}",
        f"  iterations {r.completed}/{r.iterations} ({r.status}), checksum {r.checksum}",
        f"  memory: arena {r.arena_bytes} B (sum of buffers {r.sum_bytes} B)",
    ]
    if m.get("samples"):
        lines.append(
            f"  measured  mean {m['mean_ns'] / 1e6:.3f} ms  sigma {m['std_ns'] / 1e6:.3f} ms  "
            f"p50 {m['p50_ns'] / 1e6:.3f}"
            f"  p99 {m['p99_ns'] / 1e6:.3f}  max {m['max_ns'] / 1e6:.3f} ms"
        )
    if r.predicted:
        p = r.predicted
        lines.append(
            f"  predicted mean {p['mean_ns'] / 1e6:.3f} ms  sigma {p['std_ns'] / 1e6:.3f} ms  "
            f"p50 {p['p50_ns'] / 1e6:.3f}"
            f"  p99 {p['p99_ns'] / 1e6:.3f}  max {p['max_ns'] / 1e6:.3f} ms   KS distance {r.ks:.3f}"
        )
        lines.append(
            f"  predicted from the sub-box times measured in {r.calibration}"
            if r.calibration
            else "  predicted from the model's costs: --calibrate N measures them on the target first"
        )
    if r.overloaded:
        lines.append(
            "  OVERLOADED: an iteration takes longer than the period, latencies grow with every release "
            "(fewer threads than the chain needs? try --threads or a target with more rt-cores)"
        )
    lines.append(f"  report: {r.out_dir}/report.json")
    return "\n".join(lines)


if __name__ == "__main__":  # pragma: no cover - manual use: python -m chainlab.run.local IR.json CHAIN
    r = run_local(
        json.loads(Path(sys.argv[1]).read_text()),
        sys.argv[2],
        iterations=int(sys.argv[3]) if len(sys.argv) > 3 else None,
    )
    print(summary_text(r))
