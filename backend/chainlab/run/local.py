"""`chainlab run --target here`: plan, generate, build (cached), calibrate if asked, run, report.

Thread mapping (the model's chain may ask for more threads than the target has rt-cores, e.g. XRay
wants 4 on a 2-core machine): the chain is re-planned with threads = number of the target's
rt-cores and cores = those rt-cores, so every pinned thread owns one core. options.threads overrides
this (several threads then share the cores round-robin, see chainlab.plan.pinning).
"""

from __future__ import annotations

import copy
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
from chainlab.errors import ModelError
from chainlab.files import write_atomic
from chainlab.ir import find_chain, find_target
from chainlab.plan import PlanOptions, pin_threads, plan_for_cores, plan_to_json, predict_latency
from chainlab.plan.model import Plan
from chainlab.progress import ProgressFn
from chainlab.run.build import build_project
from chainlab.run.interrupt import interruptible
from chainlab.run.stats import ks_distance, latency_stats, plot_cdf, read_latencies


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


def calibrated_ir(ir: dict[str, Any], chain: str, calibration_csv: Path, bins: int = 16) -> dict[str, Any]:
    """The IR with every box's cost replaced by its measured ETP on this machine: per repetition, the
    sum over the instance's slices (one core), binned into a pmf of at most `bins` points; a box used
    by several instances pools their samples. cost_ns becomes the measured mean."""
    rows = np.genfromtxt(calibration_csv, delimiter=",", skip_header=1, dtype=None, encoding=None)
    per_inst: dict[str, dict[int, int]] = {}
    for name, rep, ns in np.atleast_1d(rows):
        inst = str(name).rsplit(".", 1)[0]
        reps = per_inst.setdefault(inst, {})
        reps[int(rep)] = reps.get(int(rep), 0) + int(ns)
    c = find_chain(ir, chain)
    box_of = {i["name"]: i["box"] for i in c["instances"]}
    per_box: dict[str, list[int]] = {}
    for inst, reps in per_inst.items():
        per_box.setdefault(box_of[inst], []).extend(reps.values())
    out = copy.deepcopy(ir)
    for b in out["boxes"]:
        if b["name"] not in per_box:
            continue
        samples = np.asarray(per_box[b["name"]], dtype=float)
        counts, edges = np.histogram(samples, bins=min(bins, max(1, len(np.unique(samples)))))
        mids = (edges[:-1] + edges[1:]) / 2
        points = [[max(1, round(v)), float(n) / samples.size] for v, n in zip(mids, counts) if n > 0]
        b["etp"] = {"kind": "pmf", "points": points}
        b["cost_ns"] = max(1, int(samples.mean()))
    return out


@dataclass
class PreparedRun:
    """A planned (and, when asked, calibrated) chain with its built binary, ready to run any number of times."""

    ir: dict[str, Any]
    chain: str
    plan: Plan  # as planned: the prediction comes from it
    pinned: Plan  # what the binary runs: the plan's threads on the target's cores (plan.json)
    binary: Path
    cached_build: bool
    calibrated: bool
    threads: int
    iterations: int
    period_ns: int


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
) -> PreparedRun:
    """Plan (options.threads threads, default one per rt-core of the target), calibrate (calibrate > 0: every
    sub-box alone that many times, then re-plan with the measured costs) and build. period_ns: None = the
    chain's source period when it has one (absolute-time releases), else free running; 0 = free running
    (iteration i+1 may start while i is in flight: latency then includes queueing)."""
    cores = target_cores(ir, target)
    iterations = iterations or int(find_chain(ir, chain).get("iterations") or 1000)
    out_dir.mkdir(parents=True, exist_ok=True)
    plan = plan_for_cores(ir, chain, cores, options)
    calibrated = False
    if calibrate > 0:
        binary, _ = build_project(generate_project(pin_threads(plan, cores)), cache)
        log(f"calibrating every sub-box {calibrate} times")
        subprocess.run(
            [str(binary), "--calibrate", str(calibrate), "--out", str(out_dir)], check=True, capture_output=True
        )
        ir = calibrated_ir(ir, chain, out_dir / "calibration.csv")
        plan = plan_for_cores(ir, chain, cores, options)
        calibrated = True
    pinned = pin_threads(plan, cores)
    binary, cached = build_project(generate_project(pinned), cache)
    log(f"{'cached build' if cached else 'built'} {binary}")
    period = (plan.chain.period_ns or 0) if period_ns is None else period_ns
    return PreparedRun(ir, chain, plan, pinned, binary, cached, calibrated, plan.threads, iterations, int(period))


def execute_run(
    prep: PreparedRun, out_dir: Path, *, progress: ProgressFn | None = None, extra_args: list[str] | None = None
) -> RunResult:
    """Run the built chain once into out_dir and report measured vs predicted latency. A run stopped by
    SIGINT/SIGTERM still reports what it measured (status 'stopped', completed < iterations)."""
    out = out_dir.resolve()
    out.mkdir(parents=True, exist_ok=True)
    pinned, chain, iterations, period = prep.pinned, prep.chain, prep.iterations, prep.period_ns
    write_atomic(out / "plan.json", json.dumps(plan_to_json(pinned), indent=1))
    cmd = (
        [str(prep.binary), "--iterations", str(iterations), "--out", str(out), "--period-ns", str(period)]
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
    pred = predict_latency(prep.plan, iterations=min(iterations, 2000), seed=1)
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
) -> RunResult:
    """One run on this machine: prepare_run then execute_run."""
    out = Path(out_dir or Path("chainlab-runs") / chain).resolve()
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
