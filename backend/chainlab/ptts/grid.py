"""The exact integer analysis grid and the chain expressed on it.

The grid unit is the coarsest unit that makes every period, offset and ETP point integral:
the gcd of all of them (in ns). Every later computation is integer arithmetic in grid units;
nothing is ever accumulated in floating point time. An explicit `resolution_ns` must divide
every period and offset; ETP points that are not on it are rounded *up* onto it (a
conservative binning that the result reports as `etp_rounded`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import reduce

import numpy as np

from chainlab.errors import ModelError
from chainlab.ptts.model import PttsModel


@dataclass(frozen=True, eq=False)
class GridChain:
    """A PTTS chain on its integer grid: all times below are in grid units (`unit_ns` ns each)."""

    model: PttsModel
    unit_ns: int
    periods: tuple[int, ...]
    offsets: tuple[int, ...]
    etp_values: tuple[np.ndarray, ...]  # int64 grid units, ascending
    etp_probs: tuple[np.ndarray, ...]
    etp_rounded: bool

    @property
    def n(self) -> int:
        return len(self.periods)

    @property
    def names(self) -> list[str]:
        return [c.name for c in self.model.components]

    @property
    def production_first(self) -> bool:
        return self.model.production_first

    @property
    def hyperperiod(self) -> int:
        return math.lcm(*self.periods)

    @property
    def roots(self) -> int:
        """Latency trees (thesis Table 5.2): triggerings of C0 in one hyper-period."""
        return self.hyperperiod // self.periods[0]

    def emin(self, i: int) -> int:
        return int(self.etp_values[i][0])

    def emax(self, i: int) -> int:
        return int(self.etp_values[i][-1])

    def in_order(self, i: int) -> bool:
        """True when component i can never produce out of trigger order (ETP width <= own period).

        At equal production instants the later trigger's write counts as the newer one.
        """
        return self.emax(i) - self.emin(i) <= self.periods[i]

    @property
    def all_in_order(self) -> bool:
        return all(self.in_order(i) for i in range(self.n))

    def hop_range(self, i: int) -> tuple[int, int]:
        """Bounds of (consumer trigger of C_{i+1}) - (trigger of C_i) over all phases and ETP draws."""
        d = self.periods[i + 1]
        if self.production_first:
            return self.emin(i), self.emax(i) + d - 1
        return self.emin(i) + 1, self.emax(i) + d

    def ns(self, units: int) -> int:
        return units * self.unit_ns


def _gcd_array(values: np.ndarray) -> int:
    nz = values[values != 0]
    if len(nz) == 0:
        return 0
    return int(np.gcd.reduce(nz))


def derive_unit(model: PttsModel) -> int:
    """The gcd of all periods, offsets and ETP points (ns)."""
    g = reduce(math.gcd, [c.period_ns for c in model.components] + [c.offset_ns for c in model.components])
    for c in model.components:
        g = math.gcd(g, _gcd_array(c.etp.values))
    return g


def compile_grid(model: PttsModel) -> GridChain:
    """The chain on its exact integer grid (see module doc for resolution_ns handling)."""
    etp_values = [c.etp.values for c in model.components]
    etp_probs = [c.etp.probs for c in model.components]
    rounded = False
    res = model.resolution_ns
    if res is not None:
        for c in model.components:
            if c.period_ns % res or c.offset_ns % res:
                raise ModelError(
                    f"resolution_ns ({res} ns) must divide every period and offset; "
                    f"period {c.period_ns} ns / offset {c.offset_ns} ns are not multiples of it",
                    c.loc,
                    c.name,
                )
        new_values, new_probs = [], []
        for vals, probs in zip(etp_values, etp_probs):
            if np.any(vals % res):
                rounded = True
                up = -((-vals) // res) * res
                uniq, inverse = np.unique(up, return_inverse=True)
                new_values.append(uniq)
                new_probs.append(np.bincount(inverse, weights=probs, minlength=len(uniq)))
            else:
                new_values.append(vals)
                new_probs.append(probs)
        etp_values, etp_probs = new_values, new_probs
    g = reduce(math.gcd, [c.period_ns for c in model.components] + [c.offset_ns for c in model.components])
    for vals in etp_values:
        g = math.gcd(g, _gcd_array(vals))
    return GridChain(
        model=model,
        unit_ns=g,
        periods=tuple(c.period_ns // g for c in model.components),
        offsets=tuple(c.offset_ns // g for c in model.components),
        etp_values=tuple((v // g).astype(np.int64) for v in etp_values),
        etp_probs=tuple(np.asarray(p, dtype=np.float64) for p in etp_probs),
        etp_rounded=rounded,
    )
