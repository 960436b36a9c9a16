"""Execution-time model of sub-boxes: a MODEL until measured costs replace it.

The planner needs an execution time for every sub-box twice: a mean, for list scheduling and the
nominal timeline, and a distribution, for the Monte Carlo latency prediction. Until calibration
(a later issue) measures them on the target, they come from the model, in this order:

1. the box's `etp` (point, uniform, pmf or histogram) describes the whole box on one core; a
   slice covering a fraction f of the rows takes f times a sample of it (slices scale linearly);
2. else the box's `cost_ns` (whole box, one core) times f, times a multiplicative jitter factor
   drawn from a log-normal with median-corrected mean 1 and sigma `jitter` (default 3 %): execution
   times on a quiet, pinned core are tight and right-skewed (cache misses only add time);
3. else an estimate from the kernel and the image size (ns per pixel below), with the same jitter.
   These per-pixel numbers are placeholders of the right order for a desktop core, nothing more.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from chainlab.plan.model import Instance

DEFAULT_JITTER = 0.03

NS_PER_PIXEL = {
    "source": 0.5,
    "gain": 0.5,
    "offset": 0.5,
    "add": 0.75,
    "mul": 0.75,
    "average": 1.0,
    "copy": 0.25,
    "dup": 0.25,
    "sink": 0.25,
}


def estimated_box_cost_ns(inst: Instance) -> float:
    """Model estimate of a whole box on one core (used only when the box gives neither etp nor cost)."""
    if inst.kernel == "convolution":
        k = int(inst.args[0]) if inst.args else 3
        per_pixel = 0.25 * k * k
    elif inst.kernel == "dup":
        per_pixel = NS_PER_PIXEL["dup"] * max(1, len(inst.outputs))
    else:
        per_pixel = NS_PER_PIXEL.get(inst.kernel, 0.5)
    return max(1.0, per_pixel * inst.pixels)


def _etp_points(etp: dict[str, Any]) -> tuple[np.ndarray, np.ndarray]:
    kind = etp["kind"]
    if kind == "point":
        return np.array([float(etp["value_ns"])]), np.array([1.0])
    if kind == "uniform":
        lo, hi, step = int(etp["min_ns"]), int(etp["max_ns"]), max(1, int(etp["step_ns"]))
        values = np.arange(lo, max(lo, hi) + 1, step, dtype=float)
        return values, np.full(len(values), 1.0 / len(values))
    points = sorted((float(v), float(p)) for v, p in etp["points"])
    values = np.array([v for v, _ in points])
    probs = np.array([p for _, p in points])
    return values, probs / probs.sum()


def box_mean_cost_ns(inst: Instance) -> float:
    """Mean execution time of the whole box on one core, from etp, cost or the kernel estimate."""
    if inst.etp is not None:
        values, probs = _etp_points(inst.etp)
        return float(np.dot(values, probs))
    if inst.cost_ns:
        return float(inst.cost_ns)
    return estimated_box_cost_ns(inst)


def cost_source(inst: Instance) -> str:
    return "etp" if inst.etp is not None else "cost" if inst.cost_ns else "model"


class CostSampler:
    """Draws execution times for all sub-boxes at once: `sample(rng, runs)` -> array (n_subs, runs)."""

    def __init__(
        self,
        instances: list[Instance],
        sub_instance: list[int],
        sub_fraction: list[float],
        jitter: float = DEFAULT_JITTER,
    ):
        self.n = len(sub_instance)
        self.fraction = np.asarray(sub_fraction, dtype=float)
        self.jitter = float(jitter)
        self.mean = np.zeros(self.n)
        jitter_rows: list[int] = []
        self.etp_groups: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []  # (rows, values, cdf)
        by_etp: dict[int, list[int]] = {}
        etps: dict[int, dict[str, Any]] = {}
        for s, i in enumerate(sub_instance):
            inst = instances[i]
            self.mean[s] = box_mean_cost_ns(inst) * self.fraction[s]
            if inst.etp is not None:
                by_etp.setdefault(i, []).append(s)
                etps[i] = inst.etp
            else:
                jitter_rows.append(s)
        self.jitter_rows = np.asarray(jitter_rows, dtype=np.int64)
        for i, rows in by_etp.items():
            values, probs = _etp_points(etps[i])
            cdf = np.cumsum(probs)
            cdf[-1] = 1.0
            self.etp_groups.append((np.asarray(rows, dtype=np.int64), values, cdf))

    def sample(self, rng: np.random.Generator, runs: int) -> np.ndarray:
        out = np.empty((self.n, runs))
        if len(self.jitter_rows):
            base = self.mean[self.jitter_rows][:, None]
            if self.jitter > 0:
                sigma = self.jitter
                factor = rng.lognormal(-0.5 * sigma * sigma, sigma, size=(len(self.jitter_rows), runs))
                out[self.jitter_rows] = base * factor
            else:
                out[self.jitter_rows] = np.broadcast_to(base, (len(self.jitter_rows), runs))
        for rows, values, cdf in self.etp_groups:
            u = rng.random((len(rows), runs))
            picked = values[np.minimum(np.searchsorted(cdf, u, side="right"), len(values) - 1)]
            out[rows] = picked * self.fraction[rows][:, None]
        return out

    def nominal(self) -> np.ndarray:
        return self.mean.copy()


@dataclass
class MeasuredTimes:
    """Sub-box times of a calibration run, (iterations, n_subs) in a plan's sub-box order.

    `includes_waits`: each time runs from when the sub-box could start by the plan (predecessors done, or the
    release) to its end, so it holds the wake-up and signalling delays as measured and the schedule adds no sync
    time of its own; False: execution times only."""

    costs: np.ndarray
    includes_waits: bool


class MeasuredCostSampler:
    """Draws sub-box times from a calibration run: whole traced iterations at random, so that what slows several
    sub-boxes at once (a busy memory bus, an interrupt) stays together."""

    jitter = 0.0

    def __init__(self, measured: MeasuredTimes):
        self.measured = np.asarray(measured.costs, dtype=float)
        self.n = self.measured.shape[1]
        self.mean = self.measured.mean(axis=0)

    def sample(self, rng: np.random.Generator, runs: int) -> np.ndarray:
        return self.measured[rng.integers(0, len(self.measured), size=runs)].T

    def nominal(self) -> np.ndarray:
        return self.mean.copy()
