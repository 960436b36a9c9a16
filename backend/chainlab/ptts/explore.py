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
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chainlab.errors import ChainlabError, ModelError
from chainlab.ptts.cost import eq_5_15
from chainlab.ptts.etp import ChainResolver
from chainlab.ptts.grid import compile_grid
from chainlab.ptts.model import PttsModel, parse_model
from chainlab.sweep.pareto import pareto_front

OBJECTIVES = ("p50", "p99", "mean", "deadline", "loss")
DEFAULT_POINTS = 400  # what the default step aims at (the editor's quick sweep)
MAX_POINTS = 1_000_000  # points of one sweep: every row is held in memory
MAX_SWEEP_OPERATIONS = 10**11  # eq. 5.15 summed over the points (about 100 s of one core on the case study)
REPLY_POINTS = 10_000  # points in the reply; beyond, an even sample (the --out file has every one)
IN_PROCESS_S = 1.5  # a sweep estimated shorter than this runs here: a LocalCluster takes ~1-2 s to start
FORMAT = "chainlab-explore-1"  # in the model hash: rows of another row format are not mixed

Point = dict[str, dict[str, int]]  # {"offsets_ns": {C: ns}, "periods_ns": {C: ns}}


@dataclass(frozen=True)
class Shared:
    """What every worker gets once: the resolved IR and what a row needs besides the point."""

    ir: dict[str, Any]
    deadline_ns: int | None
    op: str
    max_trees: int


def analyse_point(shared: Shared, point: Point) -> dict[str, Any]:
    """One exact analysis: the row of the sweep (flat, for the CSV)."""
    from chainlab.ptts.api import compute  # imported in the worker

    offsets, periods = point["offsets_ns"], point["periods_ns"]
    components = []
    for spec in shared.ir["components"]:
        name = spec["name"]
        if name in offsets or name in periods:
            spec = {**spec, "offset_ns": offsets.get(name, spec["offset_ns"])}
            spec["period_ns"] = periods.get(name, spec["period_ns"])
        components.append(spec)
    r = compute({**shared.ir, "components": components}, max_trees=shared.max_trees)
    d = r.distribution
    row: dict[str, Any] = {f"offset_ns.{n}": v for n, v in offsets.items()}
    row.update({f"period_ns.{n}": v for n, v in periods.items()})
    row.update(
        {
            "mean_ms": d.mean_ns / 1e6,
            "p50_ms": d.percentile_ns(0.5) / 1e6,
            "p99_ms": d.percentile_ns(0.99) / 1e6,
            "max_ms": d.max_ns / 1e6,
            "loss": r.loss.probability,
        }
    )
    if shared.deadline_ns is not None:
        row["p_deadline"] = d.prob(shared.op, shared.deadline_ns)
    return row


def point_key(point: Point) -> str:
    offsets = ";".join(f"{n}@{v}" for n, v in point["offsets_ns"].items())  # no comma: the CSV cell needs no quotes
    periods = ";".join(f"{n}={v}" for n, v in point["periods_ns"].items())
    return f"{offsets}|{periods}"


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


def _deadline(model: PttsModel, deadline_ns: int | None) -> tuple[int | None, str]:
    if deadline_ns is not None:
        return deadline_ns, "<="
    for req in model.requirements:
        if req.kind in ("deadline", "percentile"):
            return req.bound_ns, req.op
    return None, "<="


def objective_value(objective: str) -> Callable[[dict[str, Any]], float]:
    """Lower is better; `deadline` ranks by the probability of missing it."""
    if objective == "deadline":
        return lambda p: 1.0 - p["p_deadline"]
    field = {"p50": "p50_ms", "p99": "p99_ms", "mean": "mean_ms", "loss": "loss"}[objective]
    return lambda p: p[field]


def _rank(objective: str) -> Callable[[dict[str, Any]], tuple[float, float]]:
    value = objective_value(objective)
    tie = objective_value("p99" if objective == "mean" else "mean")
    return lambda p: (value(p), tie(p))


def _ms(ns: int) -> str:
    return f"{ns / 1e6:g} ms"


@dataclass
class _Combo:
    """One choice of candidate periods: its offset points and what each costs (eq. 5.15)."""

    periods: dict[str, int]
    points: int
    ops: int


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
    from chainlab.ptts.api import DEFAULT_MAX_TREES, compute, prepare

    # Dask is imported when a sweep runs, not with chainlab.ptts
    from chainlab.sweep.cluster import Engine
    from chainlab.sweep.engine import SweepCancelled, run_sweep
    from chainlab.sweep.store import RowStore

    model = parse_model(ptts_ir, resolve_chain)

    def refuse(message: str) -> ModelError:
        return ModelError(message, model.loc, model.name)

    if objective not in OBJECTIVES:
        raise refuse(f"unknown objective {objective!r} (expected one of {', '.join(OBJECTIVES)})")
    pareto = list(pareto or [])
    if pareto and (len(pareto) != 2 or pareto[0] == pareto[1] or not set(pareto) <= set(OBJECTIVES)):
        raise refuse(f"pareto: name two different objectives of {', '.join(OBJECTIVES)}, not {','.join(pareto)}")
    periods = dict(periods or {})
    if not vary and not periods:
        raise refuse("name at least one component whose offset to vary, or candidate periods")
    by_name = {c.name: c for c in model.components}
    for name in [*vary, *periods]:
        if name not in by_name:
            raise refuse(f"no component named '{name}' (it has: {', '.join(by_name)})")
    if len(set(vary)) != len(vary):
        raise refuse("a component is named twice in vary")
    for name, values in periods.items():
        if not values or not all(isinstance(v, int) and not isinstance(v, bool) and v > 0 for v in values):
            raise refuse(f"periods of {name}: give positive periods in ns, not {values!r}")
        periods[name] = list(dict.fromkeys(values))  # a candidate named twice is one
    deadline, op = _deadline(model, deadline_ns)
    if "deadline" in (objective, *pareto) and deadline is None:
        raise refuse("objective 'deadline' needs a deadline or percentile requirement (or deadline_ns)")
    if step_ns is not None and (not isinstance(step_ns, int) or isinstance(step_ns, bool) or step_ns <= 0):
        raise refuse(f"step_ns must be a positive integer, not {step_ns!r}")
    unit = compile_grid(model).unit_ns
    per_comp = max(1, int(DEFAULT_POINTS ** (1.0 / max(1, len(vary)))))
    steps: dict[str, int] = {}
    for name in vary:
        period = by_name[name].period_ns
        if step_ns is not None:
            steps[name] = step_ns
        elif period // unit <= per_comp:
            steps[name] = unit
        else:
            step = max(unit, -(-period // 20 // unit) * unit)
            steps[name] = step if period // step <= per_comp else -(-period // per_comp // unit) * unit

    ir = _resolved_ir(ptts_ir, resolve_chain)
    limit = max_trees or DEFAULT_MAX_TREES
    names = [c.name for c in model.components]
    period_names = [n for n in names if n in periods]  # in the model's order: the key and the columns are stable
    combos: list[_Combo] = []
    for choice in itertools.product(*(periods[n] for n in period_names)):
        chosen = dict(zip(period_names, choice))
        try:
            ops = eq_5_15(prepare(_with_periods(ir, chosen)).chain)[0]
        except ChainlabError as e:
            if not chosen:
                raise
            shown = ", ".join(f"{n}={_ms(v)}" for n, v in chosen.items())
            raise refuse(f"with periods {shown}: {e.message}") from e
        count = math.prod(-(-chosen.get(n, by_name[n].period_ns) // steps[n]) for n in vary)
        combos.append(_Combo(chosen, count, ops))
    total = sum(c.points for c in combos)  # counted before any list is made: 10^11 offsets are a message
    total_ops = sum(c.points * c.ops for c in combos)
    if total > MAX_POINTS or total_ops > max_operations:
        raise refuse(_too_large(total, total_ops, max_operations, combos, vary, steps, by_name, unit))

    # fail fast (validity, the analysis' own limits) before any worker starts, for every period choice
    started = time.perf_counter()
    for combo in combos:
        try:
            compute(_with_periods(ir, combo.periods), max_trees=limit)
        except ChainlabError as e:
            if not combo.periods:
                raise
            shown = ", ".join(f"{n}={_ms(v)}" for n, v in combo.periods.items())
            raise refuse(f"with periods {shown}: {e.message}") from e
    per_point_s = (time.perf_counter() - started) / len(combos)
    if cluster is None and total * per_point_s < IN_PROCESS_S:
        cluster = "process"

    points: list[Point] = []
    for combo in combos:
        axes = [range(0, combo.periods.get(n, by_name[n].period_ns), steps[n]) for n in vary]
        for offsets in itertools.product(*axes):
            points.append({"offsets_ns": dict(zip(vary, offsets)), "periods_ns": combo.periods})
    shared = Shared(ir, deadline, op, limit)
    fields = [*(f"offset_ns.{n}" for n in vary), *(f"period_ns.{n}" for n in period_names)]
    fields += ["mean_ms", "p50_ms", "p99_ms", "max_ms", "loss", *(["p_deadline"] if deadline is not None else [])]
    store = RowStore(out, model_hash(ir, deadline, op), fields=fields, resume=resume) if out is not None else None
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
                on_engine=engines.append,
            )
        )
    except SweepCancelled as stopped:
        rows, complete = stopped.rows, False
    finally:
        if store is not None:
            store.close()
    engine = engines[0] if engines else Engine("process", 1)
    done = [_reply_point(p, r) for p, r in zip(points, rows) if r is not None]
    if not done:
        raise refuse("the sweep was cancelled before its first point")
    best = min(done, key=_rank(objective))
    front: dict[str, Any] | None = None
    if pareto:
        a, b = objective_value(pareto[0]), objective_value(pareto[1])
        front = {"objectives": pareto, "points": [done[i] for i in pareto_front(done, a, b)]}
    listed = done if len(done) <= REPLY_POINTS else done[:: -(-len(done) // REPLY_POINTS)]
    return {
        "name": model.name,
        "vary": list(vary),
        "step_ns": steps,
        "periods_ns": {n: periods[n] for n in period_names},
        "objective": objective,
        "deadline_ms": deadline / 1e6 if deadline is not None else None,
        "points": listed,
        "best": best,
        "pareto": front,
        "total_points": len(points),
        "done_points": len(done),
        "resumed_points": resumed,
        "complete": complete,
        "cost": {"eq_5_15": total_ops, "limit": max_operations},
        "engine": engine.engine,
        "workers": engine.workers,
        "out": str(Path(out).resolve()) if out is not None else None,
    }


def _with_periods(ir: dict[str, Any], periods: dict[str, int]) -> dict[str, Any]:
    return {**ir, "components": [{**c, "period_ns": periods.get(c["name"], c["period_ns"])} for c in ir["components"]]}


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


def _too_large(
    total: int,
    total_ops: int,
    max_operations: int,
    combos: list[_Combo],
    vary: Sequence[str],
    steps: dict[str, int],
    by_name: dict[str, Any],
    unit: int,
) -> str:
    """Why the sweep is refused, and what would fit: a coarser step, fewer candidate periods."""
    if total > MAX_POINTS:
        head = f"the sweep has {total} points (limit {MAX_POINTS})"
    else:
        head = (
            f"the sweep needs about {float(total_ops):.3g} operations (eq. 5.15 summed over {total} points; "
            f"limit {float(max_operations):.3g})"
        )
    hints = []
    if vary:
        over = max(total / MAX_POINTS, total_ops / max_operations)
        step = max(steps.values())
        step = max(step + 1, -(-int(step * over ** (1 / len(vary))) // unit) * unit)  # a first guess, then up
        for _ in range(100):
            counts = [math.prod(-(-c.periods.get(n, by_name[n].period_ns) // step) for n in vary) for c in combos]
            if sum(counts) <= MAX_POINTS and sum(n * c.ops for n, c in zip(counts, combos)) <= max_operations:
                hints.append(f"a step of at least {_ms(step)} ({step} ns, {sum(counts)} points)")
                break
            step = -(-int(step * 1.05) // unit) * unit
    if len(combos) > 1:
        share: dict[tuple[str, int], int] = {}
        for c in combos:
            for n, v in c.periods.items():
                share[(n, v)] = share.get((n, v), 0) + c.points * c.ops
        (n, v), ops = max(share.items(), key=lambda kv: kv[1])
        hints.append(f"fewer periods (the costliest, {n}={_ms(v)}, takes {100 * ops / max(1, total_ops):.0f}% of it)")
    return head + (": use " + ", or ".join(hints) if hints else "")
