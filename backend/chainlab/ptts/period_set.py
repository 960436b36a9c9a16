"""Prepared chains of one model for many offsets and periods (the points of a design-space sweep).

A sweep analyses one model at thousands of offsets and a few candidate period sets. Most of what `api.prepare` and
`api.choose` build does not depend on the offsets: the parsed model, the ETPs in grid units, the hop phase tables
(which depend on the periods, the grid unit and the producer's phase class c0 only, see `hop.Hop`) and the method
choice (periods, unit and table sizes). `PointPreparer` builds each of those once per key and gives every point the
same objects `prepare` and `choose` would build, so a point's analysis runs the same arithmetic on the same inputs:
its result is the same bit for bit as `compute` on the point's own IR (tests/ptts/test_period_set.py).
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from chainlab.ptts.api import Choice, Prepared, choose
from chainlab.ptts.cost import per_root_fits, reach_fits, time_reach
from chainlab.ptts.etp import check_int
from chainlab.ptts.grid import GridChain, check_resolution, etp_in_units, grid_etps, grid_unit, on_grid
from chainlab.ptts.hop import Hop
from chainlab.ptts.model import PttsModel, parse_model
from chainlab.ptts.offset_vector import phase_hop

CACHED_TABLE_ENTRIES = 200_000  # hop tables larger than this are built per point: memory stays bounded
CACHED_ITEMS = 4096  # per cache; a full cache starts over (a sweep visits its period sets in order)


def _bounded_put(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= CACHED_ITEMS:
        cache.clear()
    cache[key] = value
    return value


@dataclasses.dataclass(frozen=True, eq=False)
class _RunShape:
    """A chain on one grid unit at any offset of its component j: the key of `PointPreparer.choose` from j's offset
    (grid units), with the widths of the hops that touch j by their phase class (indexed by c0)."""

    unit_ns: int
    periods: tuple[int, ...]
    offsets: tuple[int, ...]
    j: int
    widths: list[int | np.ndarray]
    reach: int  # `cost.time_reach`
    max_other_offset: int

    def key(self, offset: int) -> tuple[Any, ...]:
        o = [offset if i == self.j else x for i, x in enumerate(self.offsets)]
        widths = tuple(
            w if isinstance(w, int) else int(w[(o[i] - o[i + 1]) % len(w)]) for i, w in enumerate(self.widths)
        )
        fits = reach_fits(self.reach, max(self.max_other_offset, offset))
        return (self.unit_ns, self.periods, widths, fits)


@dataclasses.dataclass(frozen=True)
class RunChoices:
    """`PointPreparer.run_choices`: (grid unit, Choice) of each point, and one of the points prepared for each unit
    (its chain and hops are those of every point of the unit, but for the hops that touch the varied component)."""

    choices: list[tuple[int, Choice]]
    prepared: dict[int, Prepared]


class PointPreparer:
    """`prepare` and `choose` for points (offsets and periods by component name) of one model IR.

    Parameters
    ----------
    ir : dict
        The PTTS chain IR with box-chain ETPs already resolved (a sweep's shared IR).
    """

    def __init__(self, ir: Mapping[str, Any]) -> None:
        self.model = parse_model(ir)
        self.etps = grid_etps(self.model)
        self._index = {c.name: i for i, c in enumerate(self.model.components)}
        self._etp_units: dict[int, tuple[np.ndarray, ...]] = {}
        self._hops: dict[tuple[int, ...], Hop] = {}
        self._choices: dict[tuple[Any, ...], Choice] = {}
        self._phase_hops: dict[tuple[int, ...], Hop] = {}

    def model_at(self, offsets_ns: Mapping[str, int], periods_ns: Mapping[str, int]) -> PttsModel:
        """The model with these offsets and periods (names the model lacks are ignored, as in the IR)."""
        components = list(self.model.components)
        for field, values, minimum in (("offset_ns", offsets_ns, 0), ("period_ns", periods_ns, 1)):
            for name, value in values.items():
                i = self._index.get(name)
                if i is not None:
                    c = components[i]
                    change: dict[str, Any] = {field: check_int(value, field, c.loc, c.name, minimum=minimum)}
                    components[i] = dataclasses.replace(c, **change)
        return dataclasses.replace(self.model, components=tuple(components))

    def prepare(self, offsets_ns: Mapping[str, int], periods_ns: Mapping[str, int]) -> Prepared:
        """What `api.prepare` gives for the IR with these offsets and periods, sharing what they allow."""
        model = self.model_at(offsets_ns, periods_ns)
        check_resolution(model)
        unit = grid_unit(model, self.etps)
        values = self._etp_units.get(unit)
        if values is None:
            values = _bounded_put(self._etp_units, unit, etp_in_units(self.etps, unit))
        chain = on_grid(model, self.etps, unit, values)
        return Prepared(model, chain, [self._hop(chain, i) for i in range(chain.n - 1)])

    def choose(self, p: Prepared, *, max_trees: int, max_operations: int) -> Choice:
        """What `api.choose(p, per_root=False, ...)` gives: it depends on the periods, the grid unit and the widths
        of the hop tables (K: the work both methods estimate), not on the offsets (except whether per-root times fit
        in int64)."""
        chain = p.chain
        widths = tuple(h.K for h in p.hops)
        key = (chain.unit_ns, chain.periods, widths, per_root_fits(chain), max_trees, max_operations)
        return self._choice(key, p, max_trees, max_operations)

    def run_choices(
        self,
        offsets_ns: Mapping[str, int],
        periods_ns: Mapping[str, int],
        name: str,
        values: Sequence[int],
        *,
        max_trees: int,
        max_operations: int,
    ) -> RunChoices:
        """(grid unit, `choose`) of each point that differs from (offsets_ns, periods_ns) in the offset of `name`
        only (`values`, ns, each valid for `prepare`): the key of `choose` from integers (`_RunShape`), a point
        prepared only for a grid unit or a key not seen before."""
        base = self.model_at(offsets_ns, periods_ns)
        j = self._index[name]
        periods = [c.period_ns for c in base.components]
        offsets = [c.offset_ns for c in base.components]
        rest = math.gcd(*periods, *(o for i, o in enumerate(offsets) if i != j), self.etps.gcd_ns)
        shapes: dict[int, _RunShape | None] = {}
        out = RunChoices([], {})
        for value in values:
            unit = math.gcd(rest, value)
            if unit not in shapes:
                out.prepared[unit] = self.prepare({**offsets_ns, name: value}, periods_ns)
                shapes[unit] = self._run_shape(out.prepared[unit], j)
            shape = shapes[unit]
            found = None
            if shape is not None:
                found = self._choices.get((*shape.key(value // unit), max_trees, max_operations))
            if found is None:
                found = self.choose(
                    self.prepare({**offsets_ns, name: value}, periods_ns),
                    max_trees=max_trees,
                    max_operations=max_operations,
                )
            out.choices.append((unit, found))
        return out

    def _run_shape(self, p: Prepared, j: int) -> _RunShape | None:
        """The key of `choose` for the chain of `p` at any offset of component j (None: a phase table too large)."""
        chain = p.chain
        widths: list[int | np.ndarray] = []
        for i, hop in enumerate(p.hops):
            if i not in (j - 1, j):
                widths.append(hop.K)
                continue
            table = self.phase_hop(chain, i)
            if table is None or table.table_prob is None:
                return None
            per_phase = (table.table_prob > 0).sum(axis=1)  # a class's table is as wide as its widest phase
            widths.append(np.maximum(1, per_phase.reshape(-1, hop.G).max(axis=0)))
        reach = time_reach(chain.periods, [chain.emax(i) for i in range(chain.n)])
        others = max((o for i, o in enumerate(chain.offsets) if i != j), default=0)
        return _RunShape(chain.unit_ns, chain.periods, chain.offsets, j, widths, reach, others)

    def phase_hop(self, chain: GridChain, i: int) -> Hop | None:
        """`offset_vector.phase_hop` of hop i (one table for every phase), shared by the chains of one grid unit;
        None where that table would have more than CACHED_TABLE_ENTRIES entries."""
        d = chain.periods[i + 1]
        if d * ((chain.emax(i) - chain.emin(i)) // d + 2) > CACHED_TABLE_ENTRIES:
            return None
        key = (i, chain.unit_ns, d)
        found = self._phase_hops.get(key)
        if found is None:
            found = _bounded_put(self._phase_hops, key, phase_hop(chain, i))
        return found

    def _choice(self, key: tuple[Any, ...], p: Prepared, max_trees: int, max_operations: int) -> Choice:
        found = self._choices.get(key)
        if found is None:
            found = _bounded_put(
                self._choices, key, choose(p, per_root=False, max_trees=max_trees, max_operations=max_operations)
            )
        return found

    def _hop(self, chain: GridChain, i: int) -> Hop:
        prod_period, cons_period = chain.periods[i], chain.periods[i + 1]
        prod_offset, cons_offset = chain.offsets[i], chain.offsets[i + 1]
        c0 = (prod_offset - cons_offset) % math.gcd(prod_period, cons_period)  # the table depends on this only
        key = (i, chain.unit_ns, prod_period, cons_period, c0)
        found = self._hops.get(key)
        if found is not None:
            return found.at_offsets(prod_offset, cons_offset)
        hop = Hop(
            prod_period,
            prod_offset,
            cons_period,
            cons_offset,
            chain.etp_values[i],
            chain.etp_probs[i],
            chain.production_first,
        )
        if hop.phases * hop.K <= CACHED_TABLE_ENTRIES:
            _bounded_put(self._hops, key, hop)
        return hop
