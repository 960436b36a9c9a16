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
from collections.abc import Mapping
from typing import Any

import numpy as np

from chainlab.ptts.api import Choice, Prepared, choose
from chainlab.ptts.cost import per_root_fits
from chainlab.ptts.etp import check_int
from chainlab.ptts.grid import GridChain, check_resolution, etp_in_units, grid_etps, grid_unit, on_grid
from chainlab.ptts.hop import Hop
from chainlab.ptts.model import PttsModel, parse_model

CACHED_TABLE_ENTRIES = 200_000  # hop tables larger than this are built per point: memory stays bounded
CACHED_ITEMS = 4096  # per cache; a full cache starts over (a sweep visits its period sets in order)


def _bounded_put(cache: dict[Any, Any], key: Any, value: Any) -> Any:
    if len(cache) >= CACHED_ITEMS:
        cache.clear()
    cache[key] = value
    return value


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
        """What `api.choose(p, per_root=False, ...)` gives: it depends on the periods, the grid unit and the hop
        tables (their phase classes), not on the offsets (except whether per-root times fit in int64)."""
        chain = p.chain
        fits = per_root_fits(chain)
        key = (chain.unit_ns, chain.periods, tuple(h.c0 for h in p.hops), fits, max_trees, max_operations)
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
