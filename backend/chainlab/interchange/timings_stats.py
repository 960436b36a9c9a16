"""One name's measured times as the model takes them: exact statistics in integer ns and a small histogram whose
times are decimals in the unit the CSV used (a 1-2-5 bin width, or the exact times where there are few)."""

from __future__ import annotations

from array import array
from dataclasses import dataclass

import numpy as np

#: At most this many bins (a pmf people read and the analysis takes at once).
MAX_BINS = 50
_NS_PER = {"ns": 1, "us": 1_000, "ms": 1_000_000, "s": 1_000_000_000}
_PERCENTILES = (("median_ns", 50), ("p90_ns", 90), ("p99_ns", 99))


@dataclass(frozen=True)
class NameTimings:
    """The measured times of one box or component.

    Attributes
    ----------
    name : str
        As the CSV wrote it.
    samples : int
        How many times were measured (the sum of the counts, for a CSV of bins).
    first_row : int
        The line of its first row in the file.
    unit : str
        The unit of its first row (ns, us, ms or s): the unit of ``bins``.
    stats : dict of str to int
        ``mean_ns`` (rounded half to even), ``median_ns``, ``p90_ns``, ``p99_ns`` (the smallest time with at least
        that share of the samples at or below it), ``min_ns``, ``max_ns``.
    bins : list of (str, int)
        [time in ``unit`` as an exact decimal, count], ascending; at most MAX_BINS.
    bin_ns : int or None
        The bin width (1, 2 or 5 × 10^k ns): each time is counted at the next multiple of it (an upper bound); None
        where the exact times are kept.
    """

    name: str
    samples: int
    first_row: int
    unit: str
    stats: dict[str, int]
    bins: list[tuple[str, int]]
    bin_ns: int | None

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "samples": self.samples,
            "first_row": self.first_row,
            "unit": self.unit,
            "stats": dict(self.stats),
            "bins": [[time, count] for time, count in self.bins],
            "bin_ns": self.bin_ns,
        }


def summarize(name: str, first_row: int, unit: str, times: array, counts: array | None) -> NameTimings | None:
    """Statistics and bins of one name's times.

    Parameters
    ----------
    name, first_row, unit
        As NameTimings has them.
    times
        Integer ns, one per row (array of 'q').
    counts
        The count of each row's time (a CSV of bins), or None: each row is one sample.

    Returns
    -------
    NameTimings or None
        None when every count is 0.
    """
    values, weights = _distinct(np.frombuffer(times, dtype=np.int64), counts)
    if values.size == 0:
        return None
    total = int(weights.sum())
    bins, width = _bins(values, weights, unit)
    return NameTimings(name, total, first_row, unit, _stats(values, weights, total), bins, width)


def _distinct(times: np.ndarray, counts: array | None) -> tuple[np.ndarray, np.ndarray]:
    """The distinct times, ascending, with their total counts (times counted 0 times left out)."""
    if counts is None:
        values, weights = np.unique(times, return_counts=True)
        return values, weights.astype(np.int64)
    order = np.argsort(times, kind="stable")
    ordered = times[order]
    weights = np.frombuffer(counts, dtype=np.int64)[order]
    starts = np.flatnonzero(np.r_[True, ordered[1:] != ordered[:-1]])
    values, sums = ordered[starts], np.add.reduceat(weights, starts)
    keep = sums > 0
    return values[keep], sums[keep]


def _stats(values: np.ndarray, weights: np.ndarray, total: int) -> dict[str, int]:
    cumulative = np.cumsum(weights)
    stats = {"mean_ns": _mean(values, weights, total)}
    for key, percent in _PERCENTILES:
        threshold = -(-percent * total // 100)  # the sample of rank ceil(p × n): no float rounding
        stats[key] = int(values[int(np.searchsorted(cumulative, threshold, side="left"))])
    stats["min_ns"] = int(values[0])
    stats["max_ns"] = int(values[-1])
    return stats


def _mean(values: np.ndarray, weights: np.ndarray, total: int) -> int:
    if int(values[-1]) * total < 2**63:  # then the int64 dot product is exact
        weighted = int(np.dot(values, weights))
    else:
        weighted = sum(v * w for v, w in zip(values.tolist(), weights.tolist(), strict=True))
    quotient, remainder = divmod(weighted, total)
    if 2 * remainder > total or (2 * remainder == total and quotient % 2):
        quotient += 1
    return quotient


def _bins(values: np.ndarray, weights: np.ndarray, unit: str) -> tuple[list[tuple[str, int]], int | None]:
    if values.size <= MAX_BINS:
        return [(decimal_in(int(v), unit), int(w)) for v, w in zip(values, weights, strict=True)], None
    width = bin_width(int(values[0]), int(values[-1]))
    positions = -(-values // width)  # ceil: each time at the upper edge of its bin
    starts = np.flatnonzero(np.r_[True, positions[1:] != positions[:-1]])
    sums = np.add.reduceat(weights, starts)
    return [(decimal_in(int(p) * width, unit), int(w)) for p, w in zip(positions[starts], sums, strict=True)], width


def bin_width(low_ns: int, high_ns: int) -> int:
    """The smallest 1, 2 or 5 × 10^k ns that puts [low, high] into at most MAX_BINS bins."""
    exponent = 0
    while True:
        for mantissa in (1, 2, 5):
            width = mantissa * 10**exponent
            if -(-high_ns // width) - -(-low_ns // width) + 1 <= MAX_BINS:
                return width
        exponent += 1


def decimal_in(ns: int, unit: str) -> str:
    """Integer ns as an exact decimal in `unit`: 1500 ns in ms is ``0.0015``."""
    factor = _NS_PER[unit]
    whole, fraction = divmod(ns, factor)
    if fraction == 0:
        return str(whole)
    digits = len(str(factor)) - 1
    return f"{whole}.{str(fraction).rjust(digits, '0').rstrip('0')}"
