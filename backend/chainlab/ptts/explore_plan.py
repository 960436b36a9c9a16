"""The plan of a design-space sweep (chainlab.ptts.explore): the request checked against the model, the offset
step of each varied component, every choice of candidate periods with its cost (eq. 5.15), the points, and the
refusal of a sweep too large, with what would fit.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from chainlab.errors import ChainlabError, ModelError
from chainlab.ptts.cost import eq_5_15
from chainlab.ptts.explore_best import offset_axis
from chainlab.ptts.explore_points import Point
from chainlab.ptts.grid import compile_grid
from chainlab.ptts.model import Component, PttsModel

OBJECTIVES = ("p50", "p99", "mean", "deadline", "loss")
DEFAULT_POINTS = 400  # what the default step aims at (the editor's quick sweep)
MAX_POINTS = 1_000_000  # points of one sweep: every row is held in memory


@dataclass
class Combo:
    """One choice of candidate periods: its offset points and what each costs (eq. 5.15)."""

    periods: dict[str, int]
    points: int
    ops: int
    unit_ns: int  # its time grid: the resolution of its percentiles


@dataclass(frozen=True)
class Request:
    """A checked request: what the sweep varies, what it ranks by, and the offset step of each varied component."""

    model: PttsModel
    by_name: dict[str, Component]
    vary: list[str]
    periods: dict[str, list[int]]  # candidate periods, each named once
    period_names: list[str]  # in the model's order: the key and the columns are stable
    objective: str
    pareto: list[str]
    deadline: int | None
    op: str
    unit: int  # the model's time grid
    steps: dict[str, int]

    def refuse(self, message: str) -> ModelError:
        return ModelError(message, self.model.loc, self.model.name)


def check_request(
    model: PttsModel,
    vary: Sequence[str],
    step_ns: int | None,
    periods: dict[str, list[int]] | None,
    objective: str,
    pareto: Sequence[str] | None,
    deadline_ns: int | None,
) -> Request:
    """The request checked against the model (a ModelError names what is wrong), with the steps it sweeps by."""

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
    period_names = [c.name for c in model.components if c.name in periods]
    steps = {name: _offset_step(by_name[name].period_ns, unit, step_ns, len(vary)) for name in vary}
    return Request(model, by_name, list(vary), periods, period_names, objective, pareto, deadline, op, unit, steps)


def _offset_step(period: int, unit: int, step_ns: int | None, varied: int) -> int:
    """The step given, else one that keeps the sweep near DEFAULT_POINTS: the grid's unit for a short period, a
    twentieth of the period where that is few enough points, else whatever is."""
    per_comp = max(1, int(DEFAULT_POINTS ** (1.0 / max(1, varied))))
    if step_ns is not None:
        return step_ns
    if period // unit <= per_comp:
        return unit
    step = max(unit, -(-period // 20 // unit) * unit)
    return step if period // step <= per_comp else -(-period // per_comp // unit) * unit


def period_combos(request: Request, ir: dict[str, Any], limit: int) -> list[Combo]:
    """Every choice of candidate periods with its cost; one the single analysis would refuse is refused here."""
    from chainlab.ptts.api import DEFAULT_MAX_OPERATIONS, choose, prepare

    combos: list[Combo] = []
    for choice in itertools.product(*(request.periods[n] for n in request.period_names)):
        chosen = dict(zip(request.period_names, choice))
        shown = ", ".join(f"{n}={_ms(v)}" for n, v in chosen.items())
        try:
            prepared = prepare(with_periods(ir, chosen))
        except ChainlabError as e:
            if not chosen:
                raise
            raise request.refuse(f"with periods {shown}: {e.message}") from e
        # the single analysis' own limits, per period choice, before anything runs (analyze refuses the same)
        refusal = choose(prepared, per_root=False, max_trees=limit, max_operations=DEFAULT_MAX_OPERATIONS).refusal
        if refusal is not None and chosen:
            raise request.refuse(f"with periods {shown}: {refusal.reason}; drop that period (or simulate it)")
        ops = eq_5_15(prepared.chain)[0]
        count = math.prod(_offset_count(chosen, n, request.steps, request.by_name) for n in request.vary)
        combos.append(Combo(chosen, count, ops, prepared.chain.unit_ns))
    return combos


def sweep_points(request: Request, combos: list[Combo]) -> list[Point]:
    """Every point of the sweep: each period choice with every combination of the varied offsets."""
    points: list[Point] = []
    for combo in combos:
        axes = [swept_offsets(combo.periods, n, request.steps, request.by_name) for n in request.vary]
        for offsets in itertools.product(*axes):
            points.append({"offsets_ns": dict(zip(request.vary, offsets)), "periods_ns": combo.periods})
    return points


def check_size(request: Request, combos: list[Combo], max_operations: int) -> int:
    """The operations of the whole sweep (eq. 5.15 summed over its points); a sweep over the limits is refused."""
    total = sum(c.points for c in combos)  # counted before any list is made: 10^11 offsets are a message
    total_ops = sum(c.points * c.ops for c in combos)
    if total > MAX_POINTS or total_ops > max_operations:
        raise request.refuse(
            _too_large(
                total, total_ops, max_operations, combos, request.vary, request.steps, request.by_name, request.unit
            )
        )
    return total_ops


def swept_offsets(
    periods: dict[str, int], name: str, steps: dict[str, int], by_name: dict[str, Component]
) -> list[int]:
    """The offsets of `name` swept with these candidate periods (its current offset among them)."""
    return offset_axis(periods.get(name, by_name[name].period_ns), steps[name], by_name[name].offset_ns)


def _offset_count(periods: dict[str, int], name: str, steps: dict[str, int], by_name: dict[str, Component]) -> int:
    """len(swept_offsets(...)) without the list: a sweep of 10^11 offsets is counted, then refused, not built."""
    period, step, current = periods.get(name, by_name[name].period_ns), steps[name], by_name[name].offset_ns
    return -(-period // step) + (1 if 0 <= current < period and current % step else 0)


def with_periods(ir: dict[str, Any], periods: dict[str, int]) -> dict[str, Any]:
    """The IR with these candidate periods in place of the components' own."""
    return {**ir, "components": [{**c, "period_ns": periods.get(c["name"], c["period_ns"])} for c in ir["components"]]}


def _deadline(model: PttsModel, deadline_ns: int | None) -> tuple[int | None, str]:
    if deadline_ns is not None:
        return deadline_ns, "<="
    for req in model.requirements:
        if req.kind in ("deadline", "percentile"):
            return req.bound_ns, req.op
    return None, "<="


def _ms(ns: int) -> str:
    return f"{ns / 1e6:g} ms"


def _too_large(
    total: int,
    total_ops: int,
    max_operations: int,
    combos: list[Combo],
    vary: Sequence[str],
    steps: dict[str, int],
    by_name: dict[str, Component],
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
