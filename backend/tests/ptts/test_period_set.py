"""Points prepared with shared per-period-set structure analyse to the same bits as each point's own IR."""

from __future__ import annotations

import itertools

import numpy as np
import pytest
from ptts_cases import MS, config, fig52, out_of_order

from chainlab.errors import ModelError
from chainlab.ptts.api import choose, compute, prepare
from chainlab.ptts.explore import _resolved_ir
from chainlab.ptts.explore_points import Point, Shared, analyse_point, point_ir
from chainlab.ptts.hop import Hop
from chainlab.ptts.period_set import PointPreparer


def own_ir_row(shared: Shared, point: Point) -> tuple[float, ...]:
    """The row's numbers from `compute` on the point's own IR, nothing shared."""
    r = compute(point_ir(shared.ir, point), max_trees=shared.max_trees)
    d = r.distribution
    assert shared.deadline_ns is not None
    return (d.mean_ns / 1e6, d.percentile_ns(0.5) / 1e6, d.percentile_ns(0.99) / 1e6, d.max_ns / 1e6,
            r.loss.probability, d.prob(shared.op, shared.deadline_ns))  # fmt: skip


def shared_row(shared: Shared, point: Point) -> tuple[float, ...]:
    row = analyse_point(shared, point)
    return tuple(row[f] for f in ("mean_ms", "p50_ms", "p99_ms", "max_ms", "loss", "p_deadline"))


def bits(row: tuple[float, ...]) -> list[str]:
    return [float(v).hex() for v in row]


CASES = {
    "config-e": (config("e"), {"C2": [16_600_000, 16_700_000]}, ["C1", "C2"], MS // 4),
    "fig52": (fig52(), {"C2": [56 * MS, 57 * MS]}, ["C1", "C2"], 7 * MS),
    "out-of-order": (out_of_order(), {"B": [4 * MS, 5 * MS]}, ["B", "C"], 500_000),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_shared_structure_gives_the_bits_of_each_points_own_analysis(case: str) -> None:
    ir, periods, vary, step = CASES[case]
    shared = Shared(_resolved_ir(ir, None), 160 * MS, "<=", 10**12)
    ((period_name, candidates),) = periods.items()
    points: list[Point] = []
    for period in candidates:
        offsets = itertools.product(range(0, 16 * MS, 3 * step + 1_000_000), range(0, period, 5 * step))
        points += [{"offsets_ns": dict(zip(vary, o)), "periods_ns": {period_name: period}} for o in offsets]
    points = points[::3][:60]
    assert len({p["periods_ns"][period_name] for p in points}) == 2
    for point in points + points[::-1]:  # again, now from the cache, and in another order
        assert bits(shared_row(shared, point)) == bits(own_ir_row(shared, point)), point


def test_a_bad_offset_is_the_error_of_the_single_analysis() -> None:
    points = PointPreparer(config("e"))
    with pytest.raises(ModelError, match="offset_ns must be at least 0"):
        points.prepare({"C1": -1}, {})
    with pytest.raises(ModelError, match="period_ns must be positive"):
        points.prepare({}, {"C2": 0})


def test_a_hop_moves_only_within_its_phase_class() -> None:
    hop = Hop(
        6, 1, 4, 0, np.array([1, 2, 3], dtype=np.int64), np.array([0.25, 0.5, 0.25]), True
    )  # gcd(6, 4) = 2: class (1 - 0) % 2 = 1
    moved = hop.at_offsets(3, 2)
    assert moved.O == 2 and moved.table_off is hop.table_off
    with pytest.raises(ValueError, match="phase class"):
        hop.at_offsets(2, 2)


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_choices_of_a_run_are_each_points_own(case: str) -> None:
    ir, periods, vary, step = CASES[case]
    points = PointPreparer(_resolved_ir(ir, None))
    ((period_name, candidates),) = periods.items()
    for (other, name), period, first in itertools.product([vary, vary[::-1]], candidates, range(0, 6 * step, 5 * step)):
        values = list(range(0, period, step))
        base = {other: first, name: 0}
        got = points.run_choices(base, {period_name: period}, name, values, max_trees=10**12, max_operations=10**8)
        for value, (unit, choice) in zip(values, got.choices):
            own = prepare(point_ir(ir, {"offsets_ns": {**base, name: value}, "periods_ns": {period_name: period}}))
            want = choose(own, per_root=False, max_trees=10**12, max_operations=10**8)
            assert (unit, choice.method, choice.cost, choice.refusal) == (
                own.chain.unit_ns,
                want.method,
                want.cost,
                want.refusal,
            ), (period, first, value)
