"""Discrete latency distributions: exact sparse accumulation and their statistics.

`accumulate` sums weights of equal integer values (bincount when the value range is small,
a sort otherwise), so that no value is ever binned or approximated.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

DENSE_LIMIT = 8_000_000  # bins (64 MiB of float64) above which sums go through a sort
CDF_TOLERANCE = 1e-12


def accumulate(values: np.ndarray, weights: np.ndarray, step: int = 1) -> tuple[np.ndarray, np.ndarray]:
    """Unique ascending values (all multiples of `step` apart from a common base) and summed weights."""
    values = np.asarray(values, dtype=np.int64)
    weights = np.asarray(weights, dtype=np.float64)
    if len(values) == 0:
        return values, weights
    lo = int(values.min())
    hi = int(values.max())
    bins = (hi - lo) // step + 1 if step > 0 else DENSE_LIMIT
    if bins <= min(DENSE_LIMIT, max(4 * len(values), 1 << 20)) and not np.any((values - lo) % step):
        idx = (values - lo) // step
        sums = np.bincount(idx, weights=weights, minlength=(hi - lo) // step + 1)
        nz = np.flatnonzero(sums)
        return lo + nz.astype(np.int64) * step, sums[nz]
    uniq, inverse = np.unique(values, return_inverse=True)
    sums = np.bincount(inverse, weights=weights, minlength=len(uniq))
    keep = sums != 0
    return uniq[keep], sums[keep]


def convolve(
    v1: np.ndarray, p1: np.ndarray, v2: np.ndarray, p2: np.ndarray, step: int = 1, chunk: int = 20_000_000
) -> tuple[np.ndarray, np.ndarray]:
    """Exact (direct, no FFT) convolution of two sparse PMFs given as (values, weights)."""
    if len(v1) < len(v2):
        v1, p1, v2, p2 = v2, p2, v1, p1
    if len(v2) == 1:
        return v1 + v2[0], p1 * p2[0]
    per = max(1, chunk // max(1, len(v1)))
    parts_v, parts_p = [], []
    for s in range(0, len(v2), per):
        vv = (v1[:, None] + v2[None, s : s + per]).ravel()
        pp = (p1[:, None] * p2[None, s : s + per]).ravel()
        a, b = accumulate(vv, pp, step)
        parts_v.append(a)
        parts_p.append(b)
    if len(parts_v) == 1:
        return parts_v[0], parts_p[0]
    return accumulate(np.concatenate(parts_v), np.concatenate(parts_p), step)


@dataclass(frozen=True, eq=False)
class Distribution:
    """A latency PMF in integer nanoseconds: ascending unique values, positive probabilities."""

    values_ns: np.ndarray
    probs: np.ndarray
    _cdf: np.ndarray = field(init=False, repr=False)
    _total: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_cdf", np.cumsum(self.probs))
        object.__setattr__(self, "_total", float(self.probs.sum()))  # every statistic below divides by it

    @property
    def cdf(self) -> np.ndarray:
        return self._cdf

    @property
    def total(self) -> float:
        return self._total

    @property
    def mean_ns(self) -> float:
        return float(np.dot(self.values_ns.astype(np.float64), self.probs) / self.total)

    @property
    def std_ns(self) -> float:
        centred = self.values_ns.astype(np.float64) - self.mean_ns
        return float(np.sqrt(max(0.0, float(np.dot(centred * centred, self.probs) / self.total))))

    @property
    def min_ns(self) -> int:
        return int(self.values_ns[0])

    @property
    def max_ns(self) -> int:
        return int(self.values_ns[-1])

    def percentile_ns(self, q: float) -> int:
        """The smallest x with CDF(x) >= q (q in (0, 1]); float sums are compared with 1e-12 slack."""
        idx = int(np.searchsorted(self.cdf, q * self.total - CDF_TOLERANCE, side="left"))
        return int(self.values_ns[min(idx, len(self.values_ns) - 1)])

    def prob_le(self, x_ns: int) -> float:
        idx = int(np.searchsorted(self.values_ns, x_ns, side="right"))
        return float(self.cdf[idx - 1]) if idx > 0 else 0.0

    def prob_lt(self, x_ns: int) -> float:
        idx = int(np.searchsorted(self.values_ns, x_ns, side="left"))
        return float(self.cdf[idx - 1]) if idx > 0 else 0.0

    def prob(self, op: str, x_ns: int) -> float:
        return self.prob_le(x_ns) if op == "<=" else self.prob_lt(x_ns)

    def cdf_at(self, x_ns: np.ndarray) -> np.ndarray:
        idx = np.searchsorted(self.values_ns, x_ns, side="right")
        out = np.zeros(len(idx))
        pos = idx > 0
        out[pos] = self.cdf[idx[pos] - 1]
        return out

    def as_ms(self) -> list[list[float]]:
        return np.column_stack((self.values_ns / 1e6, self.probs)).tolist()

    def summary(self) -> dict[str, object]:
        return {
            "mean_ms": self.mean_ns / 1e6,
            "std_ms": self.std_ns / 1e6,
            "min_ms": self.min_ns / 1e6,
            "max_ms": self.max_ns / 1e6,
            "percentiles": {key: self.percentile_ns(q) / 1e6 for key, q in PERCENTILES.items()},
        }


PERCENTILES = {"50": 0.5, "90": 0.9, "99": 0.99, "99.9": 0.999}


def ks_distance(a: Distribution, b: Distribution) -> float:
    """sup_x |F_a(x) - F_b(x)| (attained at a support point of either)."""
    xs = np.union1d(a.values_ns, b.values_ns)
    return float(np.max(np.abs(a.cdf_at(xs) / a.total - b.cdf_at(xs) / b.total))) if len(xs) else 0.0
