"""Preparing a chain for a session on its target: plan → calibrate → pin → generate → build, and the prediction
the run is measured against.

The chain is planned for the target's rt-cores (options.plan.threads threads, default one per rt-core) and the
plan's threads are pinned to them. Calibration (run/calibration.py) runs the planned chain with every sub-box
timed, keeps the times beside the model and re-plans with them; without it the stored calibration of the chain
on the target is used when there is one.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chainlab.codegen import generate_project
from chainlab.errors import RunError
from chainlab.files import write_atomic
from chainlab.finite_json import dumps
from chainlab.plan import RUN_PREDICTION_DRAWS, LatencyPrediction, pin_threads, plan_for_cores, predict_latency
from chainlab.plan.model import Plan
from chainlab.run.build import content_hash
from chainlab.run.calibration import (
    Calibration,
    apply_calibration,
    calibration_from_trace,
    calibration_path,
    load_calibration,
    measured_costs,
    save_calibration,
)
from chainlab.run.options import RunOptions
from chainlab.run.session import OnTarget, chain_argv, follow_chain
from chainlab.run.target_build import build_on_target
from chainlab.run.trace import read_trace


@dataclass
class Prepared:
    """A chain built on its target, with the plan and prediction it is measured against."""

    plan: Plan  # as planned: the prediction comes from it
    pinned: Plan  # what the binary runs: the plan's threads on the target's rt-cores (plan.json)
    prediction: LatencyPrediction
    cached_build: bool
    calibration: Calibration | None
    calibration_file: Path | None


def _progress(options: RunOptions, share: float) -> Any:
    """The calibration run's progress as the first `share` of the run's."""

    def report(fraction: float, message: str) -> None:
        if options.progress is not None:
            options.progress(fraction * share, f"calibration: {message}")

    return report


async def _build_chain(on: OnTarget, plan: Plan, cores: list[int], root: str, local: Path) -> tuple[Plan, bool]:
    """The plan pinned to the cores, generated and built there; on.binary is set to it."""
    pinned = pin_threads(plan, cores)
    files = generate_project(pinned)
    remote = f"{root}/builds/{content_hash(files)}"
    cached = await build_on_target(on.transport, files, remote, "generated chain", local, ["build/chain"])
    on.binary = f"{remote}/build/chain"
    return pinned, cached


async def _calibrate(on: OnTarget, chain: str, count: int, options: RunOptions, out: Path) -> Calibration:
    """The planned chain run `count` iterations with every sub-box timed, made into its calibration."""
    options.log(f"calibrating: {count} iterations of {chain} as planned, every sub-box timed")
    cdir = f"{on.run_dir}/calibration"
    argv = chain_argv(on, cdir, count)
    share = options.calibration_share(on.iterations)
    status = await follow_chain(on.transport, argv, on.run_dir, "calibration", _progress(options, share))
    try:
        await on.transport.get_file(f"{cdir}/tasks.csv", out / "calibration-tasks.csv")
        trace = read_trace(out / "calibration-tasks.csv")
    except OSError:
        trace = None
    if status != 0 or trace is None:
        log = (await on.transport.read_text(f"{on.run_dir}/logs/calibration.log"))[-2000:]
        raise RunError(
            f"the calibration run on {on.target['name']} traced no complete iteration (exit {status}): {log.strip()}"
        )
    return calibration_from_trace(trace, on.ir, chain, on.target["name"], on.period_ns)


async def prepare(on: OnTarget, chain: str, cores: list[int], root: str, options: RunOptions, out: Path) -> Prepared:
    """Plan, calibrate when asked, pin, generate and build the chain on the target; predict its latency."""
    where = on.target["name"]
    plan = plan_for_cores(on.ir, chain, cores, options.plan)
    on.period_ns = (plan.chain.period_ns or 0) if options.period_ns is None else options.period_ns
    cal_file = calibration_path(options.model_file, chain, where) or out / "calibration.json"
    calibration = load_calibration(cal_file, chain, where) if options.calibrate == 0 else None
    options.log(f"building the chain on {where}")
    if options.calibrate > 0:
        await _build_chain(on, plan, cores, root, out / "project-uncalibrated")
        calibration = await _calibrate(on, chain, options.calibrate, options, out)
        save_calibration(calibration, cal_file)
        options.log(f"calibration kept in {cal_file}")
    elif calibration is not None:
        options.log(f"using the calibration in {cal_file} ({calibration.created}, {calibration.iterations} iterations)")
    if calibration is not None:
        on.ir = apply_calibration(on.ir, calibration)
        plan = plan_for_cores(on.ir, chain, cores, options.plan)
    pinned, cached = await _build_chain(on, plan, cores, root, out / "project")
    measured = measured_costs(calibration, plan) if calibration is not None else None
    prediction = predict_latency(
        plan, iterations=RUN_PREDICTION_DRAWS, seed=1, measured=measured, period_ns=on.period_ns
    )
    pinned.latency = prediction.summary()  # the plan that runs, with the prediction at its period
    return Prepared(plan, pinned, prediction, cached, calibration, cal_file if calibration is not None else None)


def write_prediction(prepared: Prepared, out: Path) -> None:
    """plan.json and predicted.csv of the run."""
    from chainlab.plan import plan_to_json

    write_atomic(out / "plan.json", dumps(plan_to_json(prepared.pinned), indent=1))
    points = prepared.prediction.points
    write_atomic(out / "predicted.csv", "latency_ns,probability\n" + "".join(f"{x},{p}\n" for x, p in points))
