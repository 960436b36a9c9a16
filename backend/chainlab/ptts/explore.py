"""Design-space exploration (thesis contribution 5, Figure 5.14; section 5.7): sweep the offsets of several
components and candidate periods, analyse every point exactly, rank the points by an objective and give the Pareto
front of two.

Points are independent analyses run by the sweep engine (chainlab.sweep: this process, a LocalCluster or a Dask
scheduler). Offsets do not change the hyper-period but periods do, so points differ in cost: the whole sweep's
cost (eq. 5.15 per point) is summed before anything runs and refused above a limit, with a coarser step or the
costliest periods named. Rows can go to a CSV as they complete; a resumed sweep recomputes none of them.
"""

from __future__ import annotations

import copy
import hashlib
import itertools
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chainlab.ptts.etp import ChainResolver
from chainlab.ptts.explore_best import Current, choose_best, objective_value
from chainlab.ptts.explore_plan import (  # OBJECTIVES re-exported: callers (the contract test) find them here
    OBJECTIVES as OBJECTIVES,
)
from chainlab.ptts.explore_plan import (
    Combo,
    Request,
    check_request,
    check_size,
    period_combos,
    sweep_points,
    with_periods,
)
from chainlab.ptts.explore_points import Point, Shared, analyse_point, point_key
from chainlab.ptts.model import parse_model
from chainlab.ptts.offset_runs import analyse_points, run_label
from chainlab.sweep.pareto import pareto_front

MAX_SWEEP_OPERATIONS = 10**11  # eq. 5.15 summed over the points (about 100 s of one core on the case study)
REPLY_POINTS = 10_000  # points in the reply; beyond, an even sample (the --out file has every one)
IN_PROCESS_S = 1.5  # a sweep estimated shorter than this runs here: a LocalCluster takes ~1-2 s to start
ESTIMATE_S = 0.3  # about the most the estimate of a sweep's time spends timing points
ESTIMATE_RUN = 32  # points of a period choice timed together (a short run shares less: it overrates)
FORMAT = "chainlab-explore-1"  # in the model hash: rows of another row format are not mixed


def _resolved_ir(ptts_ir: dict[str, Any], resolve_chain: ChainResolver | None) -> dict[str, Any]:
    """A copy of the IR with box-chain ETPs replaced by their PMFs (workers get no resolver)."""
    ir = copy.deepcopy(ptts_ir)
    model = parse_model(ptts_ir, resolve_chain)
    for spec, comp in zip(ir["components"], model.components):
        if isinstance(spec.get("etp"), dict) and spec["etp"].get("kind") == "chain":
            spec["etp"] = {"kind": "pmf", "points": [[v, p] for v, p in comp.etp.points()]}
    return ir


def _without_locations(value: Any) -> Any:
    if isinstance(value, dict):
        return {k: _without_locations(v) for k, v in value.items() if k != "loc"}
    if isinstance(value, list):
        return [_without_locations(v) for v in value]
    return value


def model_hash(ir: dict[str, Any], deadline_ns: int | None, op: str) -> str:
    """What the rows depend on: the resolved model (not where it is written) and the deadline."""
    text = json.dumps([FORMAT, _without_locations(ir), deadline_ns, op], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def explore(
    ptts_ir: dict[str, Any],
    vary: Sequence[str],
    *,
    step_ns: int | None = None,
    periods: dict[str, list[int]] | None = None,
    objective: str = "p99",
    pareto: Sequence[str] | None = None,
    resolve_chain: ChainResolver | None = None,
    deadline_ns: int | None = None,
    max_operations: int = MAX_SWEEP_OPERATIONS,
    max_trees: int | None = None,
    cluster: str | None = None,
    out: str | Path | None = None,
    resume: bool = False,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
) -> dict[str, Any]:
    """Sweep the offsets of `vary` over [0, period) and the candidate `periods`; every point analysed exactly.

    cluster: None chooses (this process for a short sweep, else a LocalCluster); "process", "local" or a
    scheduler address tcp://HOST:PORT force one. out: a CSV written as rows complete (resume: continue it).
    """
    from chainlab.ptts.api import DEFAULT_MAX_TREES

    request = check_request(parse_model(ptts_ir, resolve_chain), vary, step_ns, periods, objective, pareto, deadline_ns)
    ir = _resolved_ir(ptts_ir, resolve_chain)
    limit = max_trees or DEFAULT_MAX_TREES
    combos = period_combos(request, ir, limit)
    total_ops = check_size(request, combos, max_operations)
    points = sweep_points(request, combos)
    if cluster is None and _estimated_seconds(ir, combos, points, limit) < IN_PROCESS_S:
        cluster = "process"
    shared = Shared(ir, request.deadline, request.op, limit)
    ran = _run_points(request, shared, combos, points, cluster, out, resume, progress, cancelled)
    return _reply(request, combos, points, ran, {"eq_5_15": total_ops, "limit": max_operations}, out)


def _estimated_seconds(ir: dict[str, Any], combos: list[Combo], points: list[Point], limit: int) -> float:
    """The sweep's time: each period choice, cheapest first, timed here on one point and then on a run of its points
    (analysed together, as the sweep analyses them, warm) while the timing stays within ESTIMATE_S; a choice not
    timed is scaled from the last one timed by eq. 5.15 (which overrates the costly ones, often 100x). It fails
    fast, before any worker starts: a model the analysis refuses fails once, with analyze's message and nearby
    periods."""
    from chainlab.ptts.api import compute

    started = time.perf_counter()
    cheapest = min(combos, key=lambda c: c.ops)
    compute(with_periods(ir, cheapest.periods), max_trees=limit)
    per_point, timed_ops = time.perf_counter() - started, cheapest.ops
    timing = Shared(ir, None, "<=", limit)
    firsts = dict(zip(map(id, combos), itertools.accumulate([c.points for c in combos], initial=0)))  # points' order
    total = 0.0
    for combo in sorted(combos, key=lambda c: c.ops):
        guess = per_point * max(1.0, combo.ops / max(1, timed_ops))
        if time.perf_counter() - started + guess < IN_PROCESS_S:  # a point that may take longer: a cluster's sweep
            first = firsts[id(combo)]
            run = points[first : first + min(combo.points, 1 + ESTIMATE_RUN)]
            guess, timed_ops = _timed(timing, run[:1]), combo.ops
            if len(run) > 1 and time.perf_counter() - started + guess * len(run) < IN_PROCESS_S:
                guess = _timed(timing, run[1:])  # this first time builds the hop tables and choices the sweep shares
                if time.perf_counter() - started + guess * len(run) < ESTIMATE_S:
                    guess = _timed(timing, run[1:])
            per_point = guess
        total += combo.points * guess
    return total


def _timed(shared: Shared, run: list[Point]) -> float:
    """Seconds a point of the run took, analysed together."""
    started = time.perf_counter()
    analyse_points(shared, run)
    return (time.perf_counter() - started) / len(run)


@dataclass(frozen=True)
class _Ran:
    """What the sweep engine did: a row for each point (None where cancelled first), and on what."""

    rows: list[dict[str, Any] | None]
    complete: bool
    resumed: int  # points whose rows the store had already
    engine: str
    workers: int


def _run_points(
    request: Request,
    shared: Shared,
    combos: list[Combo],
    points: list[Point],
    cluster: str | None,
    out: str | Path | None,
    resume: bool,
    progress: Callable[[int, int], None] | None,
    cancelled: Callable[[], bool] | None,
) -> _Ran:
    """The points analysed by the sweep engine, their rows written to `out` as they complete."""
    # Dask is imported when a sweep runs, not with chainlab.ptts
    from chainlab.sweep.cluster import Engine
    from chainlab.sweep.engine import SweepCancelled, run_sweep
    from chainlab.sweep.store import RowStore

    fields = [*(f"offset_ns.{n}" for n in request.vary), *(f"period_ns.{n}" for n in request.period_names)]
    fields += [
        "mean_ms",
        "p50_ms",
        "p99_ms",
        "max_ms",
        "loss",
        *(["p_deadline"] if request.deadline is not None else []),
    ]
    store = None
    if out is not None:
        store = RowStore(out, model_hash(shared.ir, request.deadline, request.op), fields=fields, resume=resume)
    resumed = len(store.rows().keys() & {point_key(p) for p in points}) if store is not None else 0
    engines: list[Engine] = []
    complete = True
    try:
        rows: list[dict[str, Any] | None] = list(
            run_sweep(
                analyse_point,
                shared,
                points,
                key=point_key,
                cluster=cluster,
                store=store,
                progress=progress,
                cancelled=cancelled,
                cost=point_cost(combos),
                on_engine=engines.append,
                many=analyse_points,
                together=run_label,
            )
        )
    except SweepCancelled as stopped:
        rows, complete = stopped.rows, False
    finally:
        if store is not None:
            store.close()
    engine = engines[0] if engines else Engine("process", 1)
    return _Ran(rows, complete, resumed, engine.engine, engine.workers)


def _reply(
    request: Request,
    combos: list[Combo],
    points: list[Point],
    ran: _Ran,
    cost: dict[str, int],
    out: str | Path | None,
) -> dict[str, Any]:
    """The reply: the points (an even sample beyond REPLY_POINTS), the best, what the objective depends on, the
    Pareto front, and what the sweep cost and ran on."""
    done = [_reply_point(p, r) for p, r in zip(points, ran.rows) if r is not None]
    if not done:
        raise request.refuse("the sweep was cancelled before its first point")
    vary, period_names, by_name = request.vary, request.period_names, request.by_name
    current = Current(
        offsets_ns={n: by_name[n].offset_ns for n in vary},
        periods_ns={n: by_name[n].period_ns for n in period_names},
        period_of={n: by_name[n].period_ns for n in vary},
    )
    picked = choose_best(done, request.objective, current, min(c.unit_ns for c in combos))
    front: dict[str, Any] | None = None
    if request.pareto:
        a, b = objective_value(request.pareto[0]), objective_value(request.pareto[1])
        front = {"objectives": request.pareto, "points": [done[i] for i in pareto_front(done, a, b)]}
    listed = done if len(done) <= REPLY_POINTS else done[:: -(-len(done) // REPLY_POINTS)]
    deadline = request.deadline
    return {
        "name": request.model.name,
        "vary": list(vary),
        "step_ns": request.steps,
        "periods_ns": {n: request.periods[n] for n in period_names},
        "objective": request.objective,
        "deadline_ms": deadline / 1e6 if deadline is not None else None,
        "points": listed,
        "best": picked.best,
        "current": {"offsets_ns": current.offsets_ns, "periods_ns": current.periods_ns},
        "resolution": picked.resolution,
        "depends": {
            "offsets": {n: picked.depends[("offsets_ns", n)] for n in vary},
            "periods": {n: picked.depends[("periods_ns", n)] for n in period_names},
        },
        "pareto": front,
        "total_points": len(points),
        "done_points": len(done),
        "resumed_points": ran.resumed,
        "complete": ran.complete,
        "cost": cost,
        "engine": ran.engine,
        "workers": ran.workers,
        "out": str(Path(out).resolve()) if out is not None else None,
    }


def point_cost(combos: list[Combo]) -> Callable[[Point], float]:
    """A point's relative cost for the engine's batches: eq. 5.15 of its period set."""
    ops = {tuple(sorted(c.periods.items())): float(c.ops) for c in combos}
    return lambda point: ops[tuple(sorted(point["periods_ns"].items()))]


def _reply_point(point: Point, row: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {
        "offsets_ns": dict(point["offsets_ns"]),
        "offsets_ms": {n: v / 1e6 for n, v in point["offsets_ns"].items()},
        "periods_ns": dict(point["periods_ns"]),
        "periods_ms": {n: v / 1e6 for n, v in point["periods_ns"].items()},
    }
    for field in ("mean_ms", "p50_ms", "p99_ms", "max_ms", "loss", "p_deadline"):
        if field in row:
            out[field] = row[field]
    return out
