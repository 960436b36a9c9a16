"""Execution-time profiles: IR ETPs (point, uniform, pmf, histogram, chain) as exact PMF arrays.

An `Etp` holds its support as strictly ascending int64 nanoseconds and float64 probabilities
that sum to 1 (a pmf that passes the contract's sum rule, chainlab.ir.pmf, is normalised silently).
Conversion to the analysis grid happens in `grid.py`.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chainlab.errors import ChainlabError, ModelError
from chainlab.ir.pmf import PMF_SUM_TOLERANCE, sums_to_one

ChainResolver = Callable[[str], Sequence[Sequence[float]]]

SUM_TOLERANCE = PMF_SUM_TOLERANCE
MAX_ETP_POINTS = 5_000_000
MAX_TIME_NS = 2**53 - 1


@dataclass(frozen=True, eq=False)
class Etp:
    """An execution-time profile: the PMF of a component's latency, on exact integer ns."""

    values: np.ndarray  # int64, strictly ascending, >= 0
    probs: np.ndarray  # float64, > 0, sums to 1

    @property
    def min(self) -> int:
        return int(self.values[0])

    @property
    def max(self) -> int:
        return int(self.values[-1])

    @property
    def width(self) -> int:
        return self.max - self.min

    def points(self) -> list[tuple[int, float]]:
        return [(int(v), float(p)) for v, p in zip(self.values, self.probs)]


def check_int(value: Any, what: str, loc: Any, element: str, minimum: int | None = None) -> int:
    if isinstance(value, bool) or value is None:
        raise ModelError(f"{what} must be an integer number of nanoseconds, not {value!r}", loc, element)
    if isinstance(value, float):
        if not math.isfinite(value) or not value.is_integer():
            raise ModelError(f"{what} must be an integer number of nanoseconds, not {value!r}", loc, element)
        value = int(value)
    if not isinstance(value, int):
        raise ModelError(f"{what} must be an integer number of nanoseconds, not {value!r}", loc, element)
    if minimum is not None and value < minimum:
        if minimum == 1:
            raise ModelError(f"{what} must be positive, not {value} ns", loc, element)
        raise ModelError(
            f"{what} must be at least {minimum} ns, not {value} ns (negative times are not allowed)", loc, element
        )
    if value > MAX_TIME_NS:  # the language exports no longer time; beyond it the int64 time arithmetic could overflow
        raise ModelError(f"{what} must be at most 2^53 - 1 ns (about 104 days), not {value} ns", loc, element)
    return value


def check_number(value: Any, what: str, loc: Any, element: str) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(float(value)):
        raise ModelError(f"{what} must be a finite number, not {value!r}", loc, element)
    return float(value)


def _points_etp(points: Any, what: str, loc: Any, element: str) -> Etp:
    if not isinstance(points, (list, tuple)) or len(points) == 0:
        raise ModelError(f"{what} needs a non-empty list of [time_ns, probability] points", loc, element)
    if len(points) > MAX_ETP_POINTS:
        raise ModelError(
            f"{what} has {len(points)} points; at most {MAX_ETP_POINTS} are supported (bin it coarser)", loc, element
        )
    times: list[int] = []
    probs: list[float] = []
    for n, point in enumerate(points):
        if not isinstance(point, (list, tuple)) or len(point) != 2:
            raise ModelError(f"{what}: point {n} must be a pair [time_ns, probability], not {point!r}", loc, element)
        t = check_int(point[0], f"{what}: time of point {n}", loc, element, minimum=0)
        p = check_number(point[1], f"{what}: probability of point {n}", loc, element)
        if p < 0 or p > 1 + SUM_TOLERANCE:
            raise ModelError(f"{what}: probability of point {n} is {p}; it must lie in [0, 1]", loc, element)
        times.append(t)
        probs.append(p)
    total = math.fsum(probs)
    if not sums_to_one(probs):
        raise ModelError(
            f"{what}: probabilities sum to {total:.12g}, not 1 (the tolerance is {PMF_SUM_TOLERANCE:g})", loc, element
        )
    t_arr = np.asarray(times, dtype=np.int64)
    p_arr = np.asarray(probs, dtype=np.float64) / total
    order = np.argsort(t_arr, kind="stable")
    t_arr, p_arr = t_arr[order], p_arr[order]
    uniq, inverse = np.unique(t_arr, return_inverse=True)
    merged = np.bincount(inverse, weights=p_arr, minlength=len(uniq))
    keep = merged > 0
    if not keep.any():
        raise ModelError(f"{what}: all probabilities are zero", loc, element)
    return Etp(uniq[keep], merged[keep])


def parse_etp(spec: Any, element: str, loc: Any, resolve_chain: ChainResolver | None) -> Etp:
    """One IR ETP (point, uniform, pmf, histogram or chain) as an Etp."""
    what = "execution-time profile"
    if not isinstance(spec, Mapping):
        raise ModelError(f"{what} must be an object with a 'kind', not {spec!r}", loc, element)
    kind = spec.get("kind")
    if kind == "point":
        value = check_int(spec.get("value_ns"), f"{what}: value_ns", loc, element, minimum=0)
        return Etp(np.asarray([value], dtype=np.int64), np.asarray([1.0]))
    if kind == "uniform":
        lo = check_int(spec.get("min_ns"), f"{what}: min_ns", loc, element, minimum=0)
        hi = check_int(spec.get("max_ns"), f"{what}: max_ns", loc, element, minimum=0)
        step = check_int(spec.get("step_ns"), f"{what}: step_ns", loc, element, minimum=1)
        if hi < lo:
            raise ModelError(f"{what}: max_ns ({hi}) is below min_ns ({lo})", loc, element)
        if (hi - lo) % step:
            raise ModelError(
                f"{what}: max_ns - min_ns ({hi - lo} ns) is not a multiple of step_ns ({step} ns)", loc, element
            )
        count = (hi - lo) // step + 1
        if count > MAX_ETP_POINTS:
            raise ModelError(
                f"{what}: {count} points; at most {MAX_ETP_POINTS} are supported (use a coarser step)", loc, element
            )
        values = lo + step * np.arange(count, dtype=np.int64)
        return Etp(values, np.full(count, 1.0 / count))
    if kind in ("pmf", "histogram"):
        return _points_etp(spec.get("points"), f"{what} ({kind})", loc, element)
    if kind == "chain":
        chain = spec.get("chain")
        if not isinstance(chain, str) or not chain:
            raise ModelError(f"{what}: 'chain' must name a box chain", loc, element)
        if resolve_chain is None:
            raise ModelError(
                f"{what} refers to the latency of box chain '{chain}', but no chain resolver was given to the analysis",
                loc,
                element,
            )
        try:
            points = resolve_chain(chain)
        except ChainlabError:
            raise
        except Exception as error:  # the resolver belongs to another module; never leak its traceback
            raise ModelError(
                f"{what}: the latency of box chain '{chain}' could not be resolved: {error}", loc, element
            ) from error
        if points is None:
            raise ModelError(f"{what}: box chain '{chain}' has no latency distribution", loc, element)
        return _points_etp([list(p) for p in points], f"{what} (latency of box chain '{chain}')", loc, element)
    raise ModelError(f"{what}: unknown kind {kind!r} (expected point, uniform, pmf, histogram or chain)", loc, element)
