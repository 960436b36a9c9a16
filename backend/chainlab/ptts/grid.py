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


def check_resolution(model: PttsModel) -> None:
    """An explicit resolution_ns must divide every period and offset (ModelError naming the component)."""
    res = model.resolution_ns
    if res is None:
        return
    for c in model.components:
        if c.period_ns % res or c.offset_ns % res:
            raise ModelError(
                f"resolution_ns ({res} ns) must divide every period and offset; "
                f"period {c.period_ns} ns / offset {c.offset_ns} ns are not multiples of it",
                c.loc,
                c.name,
            )


@dataclass(frozen=True, eq=False)
class GridEtps:
    """The ETPs in ns after rounding onto resolution_ns: what the grid needs of them whatever the offsets."""

    values: tuple[np.ndarray, ...]
    probs: tuple[np.ndarray, ...]
    rounded: bool
    gcd_ns: int  # of every ETP point (0 when all are 0)


def grid_etps(model: PttsModel) -> GridEtps:
    """ETP points rounded *up* onto resolution_ns where they are not on it (see the module doc)."""
    etp_values: list[np.ndarray] = [c.etp.values for c in model.components]
    etp_probs: list[np.ndarray] = [np.asarray(c.etp.probs, dtype=np.float64) for c in model.components]
    rounded = False
    res = model.resolution_ns
    if res is not None:
        new_values: list[np.ndarray] = []
        new_probs: list[np.ndarray] = []
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
    return GridEtps(tuple(etp_values), tuple(etp_probs), rounded, reduce(math.gcd, map(_gcd_array, etp_values), 0))


def grid_unit(model: PttsModel, etps: GridEtps) -> int:
    """The gcd of every period, offset and (rounded) ETP point, in ns."""
    g = reduce(math.gcd, [c.period_ns for c in model.components] + [c.offset_ns for c in model.components])
    return math.gcd(g, etps.gcd_ns)


def on_grid(
    model: PttsModel, etps: GridEtps, unit_ns: int, etp_values: tuple[np.ndarray, ...] | None = None
) -> GridChain:
    """The chain on the grid of `unit_ns` ns; etp_values: the ETPs already in grid units (shared between points)."""
    return GridChain(
        model=model,
        unit_ns=unit_ns,
        periods=tuple(c.period_ns // unit_ns for c in model.components),
        offsets=tuple(c.offset_ns // unit_ns for c in model.components),
        etp_values=etp_values if etp_values is not None else etp_in_units(etps, unit_ns),
        etp_probs=etps.probs,
        etp_rounded=etps.rounded,
    )


def etp_in_units(etps: GridEtps, unit_ns: int) -> tuple[np.ndarray, ...]:
    return tuple((v // unit_ns).astype(np.int64) for v in etps.values)


def compile_grid(model: PttsModel) -> GridChain:
    """The chain on its exact integer grid (see module doc for resolution_ns handling)."""
    check_resolution(model)
    etps = grid_etps(model)
    return on_grid(model, etps, grid_unit(model, etps))
