"""The best point of a design-space sweep, and which swept settings the objective depends on at all.

Decided here, once, so that the CLI and the editor say the same: two values of the objective are the same when they
differ by less than its resolution (rounding, not design); a swept offset or period the objective does not depend on
keeps its current value in the best point, and among the points tied for the lowest objective the best is the one
nearest the current offsets and periods. Applying the best then changes only what changes the objective.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from chainlab.number_format import PROBABILITY_FLOOR

LATENCY_FIELDS = {"p50": "p50_ms", "p99": "p99_ms", "mean": "mean_ms"}
# sums over the hyper-period's latency trees err by ~1e-15 of their value; 1e-9 leaves a wide margin and is still
# far below any difference a design decision is made on
RELATIVE_RESOLUTION = 1e-9

ReplyPoint = dict[str, Any]  # a point of the reply: offsets_ns, periods_ns, mean_ms, p99_ms, ..., loss
Axis = tuple[str, str]  # ("offsets_ns" | "periods_ns", component): one dimension of the sweep grid


def objective_value(objective: str) -> Callable[[ReplyPoint], float]:
    """Lower is better; `deadline` ranks by the probability of missing it."""
    if objective == "deadline":
        return lambda p: 1.0 - p["p_deadline"]
    field = {**LATENCY_FIELDS, "loss": "loss"}[objective]
    return lambda p: p[field]


def objective_resolution(objective: str, values: Sequence[float], grid_ns: int) -> float:
    """The smallest difference of the objective that is more than rounding, in its unit (ms or probability).

    p50 and p99 are latencies on the time grid: they move in whole grid steps, so two of them less than a step
    apart are equal. The mean is a probability-weighted sum of grid latencies: a real change can be a fraction of a
    step, so it gets the floating-point resolution (1e-9 of its value), as probabilities do; those never below
    PROBABILITY_FLOOR, where sums of probabilities leave their noise (1 - 0.9999999999999998).
    """
    if objective in ("p50", "p99"):
        return grid_ns / 1e6
    top = max((abs(v) for v in values), default=0.0)
    floor = PROBABILITY_FLOOR if objective in ("loss", "deadline") else 0.0
    return max(floor, RELATIVE_RESOLUTION * top, 1e-300)


def differs(a: float, b: float, resolution: float) -> bool:
    """Whether two values of the objective differ: from half the resolution on (a whole grid step computed from ns
    in ms may read 0.9999999999 of a step)."""
    return abs(a - b) >= resolution / 2


def offset_axis(period_ns: int, step_ns: int, current_ns: int) -> list[int]:
    """The offsets swept over [0, period) with `step_ns`, and the current one where the step misses it: the best
    can then keep it, and the chart shows where the model is now."""
    axis = list(range(0, period_ns, step_ns))
    if 0 <= current_ns < period_ns and current_ns % step_ns:
        axis.append(current_ns)
        axis.sort()
    return axis


def _coordinate(point: ReplyPoint, axis: Axis) -> int:
    return int(point[axis[0]][axis[1]])


def depends(
    points: Sequence[ReplyPoint], axes: Sequence[Axis], value: Callable[[ReplyPoint], float], resolution: float
) -> dict[Axis, bool]:
    """Per axis: whether moving along it (the other settings fixed) changes the objective anywhere in the sweep.

    False also for an axis with one value only: the sweep shows no change there.
    """
    out: dict[Axis, bool] = {}
    for axis in axes:
        others = [a for a in axes if a != axis]
        lines: dict[tuple[int, ...], tuple[float, float]] = {}
        for p in points:
            key = tuple(_coordinate(p, a) for a in others)
            v = value(p)
            lo, hi = lines.get(key, (v, v))
            lines[key] = (min(lo, v), max(hi, v))
        out[axis] = any(differs(lo, hi, resolution) for lo, hi in lines.values())
    return out


@dataclass(frozen=True)
class Current:
    """The model's own settings of the swept components."""

    offsets_ns: dict[str, int]  # of the components whose offset is swept
    periods_ns: dict[str, int]  # of the components with candidate periods
    period_of: dict[str, int]  # the model's period of each component whose offset is swept (an offset is a phase)

    def of(self, axis: Axis) -> int:
        return (self.offsets_ns if axis[0] == "offsets_ns" else self.periods_ns)[axis[1]]


@dataclass(frozen=True)
class BestChoice:
    """The best point and what the reply says about it."""

    best: ReplyPoint
    resolution: float
    depends: dict[Axis, bool]


def _distance(point: ReplyPoint, current: Current) -> tuple[float, int]:
    """How far a point is from the current settings: the periods' relative change first (they change the
    hyper-period), then the offsets' distance in ns, around the period (an offset is a phase)."""
    periods = sum(abs(v - current.periods_ns[n]) / current.periods_ns[n] for n, v in point["periods_ns"].items())
    offsets = 0
    for name, v in point["offsets_ns"].items():
        period = point["periods_ns"].get(name, current.period_of[name])
        gap = abs(v - current.offsets_ns[name]) % period
        offsets += min(gap, period - gap)
    return periods, offsets


def choose_best(
    points: Sequence[ReplyPoint],
    objective: str,
    current: Current,
    grid_ns: int,
) -> BestChoice:
    """The best point of a sweep: the lowest objective, keeping the current value of every swept setting the
    objective does not depend on, and among points tied within the resolution the nearest the current settings.
    grid_ns: the finest time grid of the sweep's period choices (the resolution of percentiles).
    """
    value = objective_value(objective)
    resolution = objective_resolution(objective, [value(p) for p in points], grid_ns)
    first = points[0]
    axes: list[Axis] = [("offsets_ns", n) for n in first["offsets_ns"]] + [
        ("periods_ns", n) for n in first["periods_ns"]
    ]
    flat_or_not = depends(points, axes, value, resolution)
    candidates = list(points)
    for axis, matters in flat_or_not.items():
        kept = [p for p in candidates if _coordinate(p, axis) == current.of(axis)]
        if not matters and kept:  # a current period not among the candidates cannot be kept
            candidates = kept
    lowest = min(value(p) for p in candidates)
    tied = [p for p in candidates if not differs(value(p), lowest, resolution)]
    secondary = objective_value("p99" if objective == "mean" else "mean")
    order = {id(p): i for i, p in enumerate(points)}
    best = min(tied, key=lambda p: (*_distance(p, current), secondary(p), order[id(p)]))
    return BestChoice(best, resolution, flat_or_not)
