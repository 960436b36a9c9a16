"""Calibration: the execution times of a chain's sub-boxes measured on a target, kept beside the model.

A calibration run is the chain itself, as planned, on the target, with the trace on (run/trace.py): each
sub-box's time is measured where it really runs, next to the other threads, with the caches as the schedule
leaves them. It is stored per chain and target in `.chainlab/calibration/CHAIN@TARGET.json` next to the model
file and used by every later run and deploy on that target until it is deleted or measured again:

- each box gets an execution-time profile (pmf of at most 16 points: per iteration, the sum over the
  instance's slices, pooled over the box's instances), so that any plan of the chain gets calibrated costs;
- the prediction of the same sub-boxes draws whole traced iterations (predict_latency's `measured`). Each
  sub-box's time counts from when the plan lets it start (its predecessors done, or the release) to its end, so
  the wake-up after a signal and the timer's delay before the first sub-box are calibrated with it: they are part
  of the latency as measured, and of nothing else in the model.
"""

from __future__ import annotations

import copy
import json
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from chainlab import finite_json
from chainlab.errors import ModelError
from chainlab.files import CALIBRATION, UserFileError, excerpt, read_user_text, resolved, write_atomic
from chainlab.ir import find_chain
from chainlab.plan.costs import MeasuredTimes
from chainlab.plan.model import Plan
from chainlab.plan.predict import source_flags
from chainlab.plan.simulate import PinnedProgram
from chainlab.run.trace import Trace

# traced iterations kept in the file: enough for the tail the prediction draws from, small enough to read
KEPT_ITERATIONS = 1000
PMF_POINTS = 16
VERSION = 1


@dataclass
class Calibration:
    chain: str
    target: str
    created: str
    iterations: int  # traced iterations measured
    period_ns: int
    boxes: dict[str, dict[str, Any]]  # box name -> {"etp": pmf, "cost_ns": mean}
    sub_boxes: list[str] = field(default_factory=list)
    durations_ns: list[list[int]] = field(default_factory=list)  # kept iterations x sub_boxes
    # the same iterations' start times from their release and iteration numbers (files before them: durations only)
    starts_ns: list[list[int]] = field(default_factory=list)
    traced: list[int] = field(default_factory=list)
    method: str = "scheduled run"
    version: int = VERSION

    def to_json(self) -> dict[str, Any]:
        return asdict(self)


def box_etp(samples: np.ndarray) -> dict[str, Any]:
    """A pmf of at most PMF_POINTS points (bin centres, integer ns) and the samples' mean."""
    counts, edges = np.histogram(samples, bins=min(PMF_POINTS, max(1, len(np.unique(samples)))))
    mids = (edges[:-1] + edges[1:]) / 2
    points = [[max(1, round(float(v))), float(n) / samples.size] for v, n in zip(mids, counts) if n > 0]
    return {"etp": {"kind": "pmf", "points": points}, "cost_ns": max(1, int(samples.mean()))}


def per_box_samples(ir: dict[str, Any], chain: str, per_instance: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
    """Whole-box samples (one per iteration and instance) pooled per box."""
    box_of = {i["name"]: i["box"] for i in find_chain(ir, chain)["instances"]}
    pooled: dict[str, list[np.ndarray]] = {}
    for inst, samples in per_instance.items():
        if inst in box_of:
            pooled.setdefault(box_of[inst], []).append(samples)
    return {box: np.concatenate(parts) for box, parts in pooled.items()}


def instance_of(sub_box: str) -> str:
    return sub_box.rsplit(".", 1)[0]


def calibration_from_trace(trace: Trace, ir: dict[str, Any], chain: str, target: str, period_ns: int) -> Calibration:
    durations = trace.durations
    per_instance: dict[str, np.ndarray] = {}
    for k, name in enumerate(trace.names):
        inst = instance_of(name)
        per_instance[inst] = per_instance.get(inst, 0) + durations[:, k]
    boxes = {box: box_etp(s) for box, s in per_box_samples(ir, chain, per_instance).items()}
    kept = slice(-KEPT_ITERATIONS, None)
    return Calibration(
        chain,
        target,
        datetime.now(UTC).isoformat(timespec="seconds"),
        len(durations),
        int(period_ns),
        boxes,
        list(trace.names),
        durations[kept].astype(np.int64).tolist(),
        trace.start[kept].astype(np.int64).tolist(),
        trace.iterations[kept].astype(np.int64).tolist(),
    )


def calibration_path(model_file: str | None, chain: str, target: str) -> Path | None:
    """Where the calibration of chain on target lives: beside the model file (None without one)."""
    if not model_file:
        return None
    return resolved(model_file).parent / ".chainlab" / "calibration" / f"{chain}@{target}.json"


def save_calibration(cal: Calibration, path: Path) -> None:
    """Written under a temporary name and renamed: a crash never leaves half a calibration (and no NaN, which the
    file's reader would refuse)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    write_atomic(path, finite_json.dumps(cal.to_json(), separators=(",", ":")))


def load_calibration(path: Path | None, chain: str, target: str) -> Calibration | None:
    """The stored calibration of chain on target, None when there is none; a damaged file is an error."""
    if path is None:
        return None
    try:
        text = read_user_text(path, CALIBRATION)
    except UserFileError as error:
        if error.missing:
            return None
        raise
    try:
        data = json.loads(text)
        cal = Calibration(**data)
    except (ValueError, TypeError) as e:  # the reason only: a key or value of the file is quoted at most briefly
        why = excerpt(str(e), 80)
        raise ModelError(f"{path}: not a chainlab calibration ({why}); delete it and calibrate again") from None
    if cal.version != VERSION or cal.chain != chain or cal.target != target:
        of = excerpt(f"{cal.chain}@{cal.target}", 80)
        raise ModelError(f"{path}: a calibration of {of}, not of {chain}@{target}")
    return cal


def apply_calibration(ir: dict[str, Any], cal: Calibration) -> dict[str, Any]:
    """The IR with every calibrated box's etp and cost replaced by the measured ones."""
    out = copy.deepcopy(ir)
    for b in out["boxes"]:
        measured = cal.boxes.get(b["name"])
        if measured:
            b["etp"] = measured["etp"]
            b["cost_ns"] = measured["cost_ns"]
    return out


def measured_costs(cal: Calibration, plan: Plan) -> MeasuredTimes | None:
    """The calibration run's sub-box times in `plan`'s sub-box order, or None when the plan has sub-boxes the
    calibration run did not have (another split): the boxes' profiles then stand for them.

    For a pinned plan each time includes the wait before the sub-box: from when `plan` lets it start (its
    predecessors' measured ends, or the release) to its end. Replayed through the same schedule this gives back
    each traced iteration's latency. Where `plan` orders sub-boxes differently from the run (a sub-box started
    before its new predecessors ended) only its execution time is kept."""
    column = {name: k for k, name in enumerate(cal.sub_boxes)}
    order = [column.get(s.name) for s in plan.inst.subs]
    if not cal.durations_ns or any(k is None for k in order):
        return None
    cols = [k for k in order if k is not None]
    durations = np.asarray(cal.durations_ns, dtype=float)[:, cols]
    if not cal.starts_ns or not plan.mapping.pinned:
        return MeasuredTimes(durations, includes_waits=False)
    start = np.asarray(cal.starts_ns, dtype=float)[:, cols]
    end = start + durations
    traced = np.asarray(cal.traced, dtype=np.int64)
    previous = np.full_like(end, np.nan)
    follows = np.flatnonzero(traced[1:] == traced[:-1] + 1) + 1  # rows whose previous iteration was traced too
    previous[follows] = end[follows - 1]
    program = PinnedProgram(
        plan.inst, plan.mapping, plan.signals, barrier=plan.barrier, sync_ns=0.0, sources=source_flags(plan)
    )
    ready = program.ready_times(end, previous, float(cal.period_ns) or None)
    begin = np.where(np.isfinite(ready), np.minimum(ready, start), start)
    return MeasuredTimes(end - begin, includes_waits=True)
