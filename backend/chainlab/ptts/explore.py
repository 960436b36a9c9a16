"""Offset exploration (thesis contribution 5, Figure 5.14): sweep component offsets, analyse each point.

Every grid point is an independent exact analysis; they run in parallel on all cores with a
`ProcessPoolExecutor`. Offsets do not change the hyper-period, so every point costs the same.
"""

from __future__ import annotations

import copy
import itertools
import math
import multiprocessing
import os
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from chainlab.errors import ModelError
from chainlab.ptts.etp import ChainResolver
from chainlab.ptts.grid import compile_grid
from chainlab.ptts.model import PttsModel, parse_model

OBJECTIVES = ("p99", "mean", "deadline", "loss")
MAX_POINTS = 400
POOL_THRESHOLD = 8  # fewer points than this run in-process (a pool costs ~100 ms to start)


def _resolved_ir(ptts_ir: dict[str, Any], resolve_chain: ChainResolver | None) -> dict[str, Any]:
    """A copy of the IR with box-chain ETPs replaced by their PMFs (workers get no resolver)."""
    ir = copy.deepcopy(ptts_ir)
    model = parse_model(ptts_ir, resolve_chain)
    for spec, comp in zip(ir["components"], model.components):
        if isinstance(spec.get("etp"), dict) and spec["etp"].get("kind") == "chain":
            spec["etp"] = {"kind": "pmf", "points": [[v, p] for v, p in comp.etp.points()]}
    return ir


def _deadline(model: PttsModel, deadline_ns: int | None) -> tuple[int | None, str]:
    if deadline_ns is not None:
        return deadline_ns, "<="
    for req in model.requirements:
        if req.kind in ("deadline", "percentile"):
            return req.bound_ns, req.op
    return None, "<="


def _point(args: tuple[dict[str, Any], dict[str, int], int | None, str, int]) -> dict[str, Any]:
    from chainlab.ptts.api import compute  # imported in the worker

    ir, offsets, deadline, op, max_trees = args
    for spec in ir["components"]:
        if spec["name"] in offsets:
            spec["offset_ns"] = offsets[spec["name"]]
    r = compute(ir, max_trees=max_trees)
    d = r.distribution
    out = {
        "offsets_ns": offsets,
        "offsets_ms": {k: v / 1e6 for k, v in offsets.items()},
        "mean_ms": d.mean_ns / 1e6,
        "p99_ms": d.percentile_ns(0.99) / 1e6,
        "max_ms": d.max_ns / 1e6,
        "loss": r.loss.probability,
    }
    if deadline is not None:
        out["p_deadline"] = d.prob(op, deadline)
    return out


def _key(objective: str) -> Callable[[dict[str, Any]], tuple[float, float]]:
    if objective == "p99":
        return lambda p: (p["p99_ms"], p["mean_ms"])
    if objective == "mean":
        return lambda p: (p["mean_ms"], p["p99_ms"])
    if objective == "deadline":
        return lambda p: (-p["p_deadline"], p["mean_ms"])
    return lambda p: (p["loss"], p["mean_ms"])


def explore(
    ptts_ir: dict[str, Any],
    vary: Sequence[str],
    *,
    step_ns: int | None = None,
    objective: str = "p99",
    workers: int | None = None,
    resolve_chain: ChainResolver | None = None,
    deadline_ns: int | None = None,
    max_points: int = MAX_POINTS,
    max_trees: int | None = None,
) -> dict[str, Any]:
    """Sweep the offsets of `vary` over [0, period) and report mean, p99, P(deadline), loss per point."""
    from chainlab.ptts.api import DEFAULT_MAX_TREES, compute

    model = parse_model(ptts_ir, resolve_chain)
    if objective not in OBJECTIVES:
        raise ModelError(
            f"unknown objective {objective!r} (expected one of {', '.join(OBJECTIVES)})", model.loc, model.name
        )
    if not vary:
        raise ModelError("name at least one component whose offset to vary", model.loc, model.name)
    by_name = {c.name: c for c in model.components}
    for name in vary:
        if name not in by_name:
            raise ModelError(f"no component named '{name}' (it has: {', '.join(by_name)})", model.loc, model.name)
    if len(set(vary)) != len(vary):
        raise ModelError("a component is named twice in vary", model.loc, model.name)
    deadline, op = _deadline(model, deadline_ns)
    if objective == "deadline" and deadline is None:
        raise ModelError(
            "objective 'deadline' needs a deadline or percentile requirement (or deadline_ns)", model.loc, model.name
        )
    unit = compile_grid(model).unit_ns
    per_comp = max(1, int(max_points ** (1.0 / len(vary))))
    steps: dict[str, int] = {}
    for name in vary:
        comp = by_name[name]
        if step_ns is not None:
            if not isinstance(step_ns, int) or step_ns <= 0:
                raise ModelError(f"step_ns must be a positive integer, not {step_ns!r}", model.loc, model.name)
            step = step_ns
        elif comp.period_ns // unit <= per_comp:
            step = unit
        else:
            step = max(unit, -(-comp.period_ns // 20 // unit) * unit)
            if comp.period_ns // step > per_comp:
                step = -(-comp.period_ns // per_comp // unit) * unit
        steps[name] = step
    # counted before any list is made: a 1 ns step over a 100 s period is a message, not 10^11 offsets in memory
    counts = [-(-by_name[name].period_ns // steps[name]) for name in vary]
    total = math.prod(counts)
    if total > max_points:
        smallest = max(-(-by_name[name].period_ns // per_comp) for name in vary)
        raise ModelError(
            f"the sweep has {total} points (limit {max_points}); use a step of at least {smallest} ns "
            f"({smallest / 1e6:g} ms)",
            model.loc,
            model.name,
        )
    axes = [list(range(0, by_name[name].period_ns, steps[name])) for name in vary]
    ir = _resolved_ir(ptts_ir, resolve_chain)
    limit = max_trees or DEFAULT_MAX_TREES
    compute(ir, max_trees=limit)  # fail fast (cost, validity) before spawning workers
    jobs = [(copy.deepcopy(ir), dict(zip(vary, combo)), deadline, op, limit) for combo in itertools.product(*axes)]
    if workers is not None and (not isinstance(workers, int) or workers < 1):
        raise ModelError(f"workers must be a positive integer, not {workers!r}", model.loc, model.name)
    n_workers = workers or os.cpu_count() or 1
    if n_workers <= 1 or len(jobs) < POOL_THRESHOLD:
        points = [_point(j) for j in jobs]
    else:
        # Workers are spawned, not forked: the caller may be multi-threaded (the JSON-RPC server), and a
        # fork taken while another thread holds a lock deadlocks the child.
        with ProcessPoolExecutor(max_workers=n_workers, mp_context=multiprocessing.get_context("spawn")) as pool:
            points = list(pool.map(_point, jobs, chunksize=max(1, len(jobs) // (4 * n_workers))))
    best = min(points, key=_key(objective))
    return {
        "name": model.name,
        "vary": list(vary),
        "step_ns": steps,
        "objective": objective,
        "deadline_ms": deadline / 1e6 if deadline is not None else None,
        "points": points,
        "best": best,
        "workers": n_workers if len(jobs) >= POOL_THRESHOLD else 1,
    }
