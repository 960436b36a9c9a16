"""Rows of runs of one varying offset, analysed in one pass each, are the bits of each point's own analysis."""

from __future__ import annotations

import itertools
import random
from typing import Any

import pytest
from ptts_brute import UNIT, brute_force, random_chain, to_ir
from ptts_cases import MS, config, fig52, out_of_order

from chainlab.errors import ModelError, TooExpensiveError
from chainlab.ptts import offset_runs as offset_runs_module
from chainlab.ptts.explore import _resolved_ir
from chainlab.ptts.explore_points import Point, Shared, analyse_point
from chainlab.ptts.offset_runs import analyse_points, offset_runs, run_label


@pytest.fixture
def passes(monkeypatch: pytest.MonkeyPatch) -> dict[str, int]:
    """Offsets analysed in one pass, by method (so a test sees the pass ran, not only the single analyses)."""
    counted = {"per-root": 0, "quotient": 0}
    for method, name in (("per-root", "per_root_over_offsets"), ("quotient", "quotient_over_last_offsets")):
        original = getattr(offset_runs_module, name)

        def counting(*args: Any, _original: Any = original, _method: str = method) -> Any:
            got = _original(*args)
            counted[_method] += len(got) if got is not None else 0
            return got

        monkeypatch.setattr(offset_runs_module, name, counting)
    return counted


def shared_of(ir: dict, max_trees: int = 10**12) -> Shared:
    return Shared(_resolved_ir(ir, None), 160 * MS, "<=", max_trees)


def grid(vary: list[str], axes: list[range], periods: dict[str, int]) -> list[Point]:
    return [{"offsets_ns": dict(zip(vary, o)), "periods_ns": periods} for o in itertools.product(*axes)]


def bits(rows: list[dict]) -> list[list[str]]:
    return [[float(v).hex() if isinstance(v, float) else repr(v) for v in r.values()] for r in rows]


def assert_rows_of_single_points(ir: dict, points: list[Point]) -> None:
    """analyse_points on a fresh Shared (nothing cached from the single analyses) against analyse_point."""
    want = [analyse_point(shared_of(ir), p) for p in points]
    rows = analyse_points(shared_of(ir), points)
    assert [list(r) for r in rows] == [list(r) for r in want]  # the same columns in the same order
    assert bits(rows) == bits(want)


@pytest.mark.parametrize("vary", [["C1", "C2"], ["C2", "C1"], ["C2", "C0"]])
def test_the_case_study_grid_at_both_periods_in_either_order_of_the_axes(
    vary: list[str], passes: dict[str, int]
) -> None:
    points: list[Point] = []
    for period in (16_600_000, 16_700_000):  # per-root and quotient
        span = {"C0": 66_600_000, "C1": 16_600_000, "C2": period}
        axes = [range(0, span[n], (1_250_000 if k == 0 else 250_000) * (4 if n == "C0" else 1)) for k, n in
                enumerate(vary)]  # fmt: skip
        points += grid(vary, axes, {"C2": period})
    assert_rows_of_single_points(config("e"), points)
    assert passes["per-root"] > len(points) // 4  # most per-root points went through a pass
    assert (passes["quotient"] > len(points) // 4) == (vary[-1] == "C2")  # the quotient's pass: the last component


def test_the_thesis_example_and_an_out_of_order_chain_with_loss_on_its_own_resolution(passes: dict[str, int]) -> None:
    assert_rows_of_single_points(fig52(), grid(["C2"], [range(0, 56 * MS, MS)], {"C2": 56 * MS}))
    points = grid(["B", "C"], [range(0, 4 * MS, 500_000), range(0, 6 * MS, 500_000)], {"B": 4 * MS})
    points += grid(["C", "B"], [range(0, 6 * MS, 1_500_000), range(0, 5 * MS, 500_000)], {"B": 5 * MS})
    assert_rows_of_single_points(out_of_order(), points)
    assert passes["per-root"] + passes["quotient"] > 56 + len(points) // 2


@pytest.mark.parametrize("seed", range(16))
def test_runs_of_small_chains_equal_the_brute_force_physics(seed: int) -> None:
    rng = random.Random(100 + seed)
    periods, offsets, etps = random_chain(rng)
    ir = to_ir(periods, offsets, etps, seed % 2 == 0)
    names = [c["name"] for c in ir["components"]]
    j = seed % len(periods)
    points = grid([names[j]], [range(0, 2 * periods[j] * UNIT, UNIT)], {})
    rows = analyse_points(shared_of(ir), points)
    assert bits(rows) == bits([analyse_point(shared_of(ir), p) for p in points])
    for p, row in zip(points, rows):
        moved = list(offsets)
        moved[j] = p["offsets_ns"][names[j]] // UNIT
        latency, loss, _ = brute_force(periods, moved, etps, seed % 2 == 0)
        mean = sum(t * float(q) for t, q in latency.items()) * UNIT / 1e6
        assert row["mean_ms"] == pytest.approx(mean, abs=1e-12) and row["loss"] == pytest.approx(float(loss), abs=1e-12)
        assert row["max_ms"] == max(t for t, q in latency.items() if q > 0) * UNIT / 1e6


def test_runs_are_consecutive_points_that_differ_in_one_offset() -> None:
    a = {"offsets_ns": {"X": 0, "Y": 0}, "periods_ns": {"Y": 5}}
    b = {"offsets_ns": {"X": 0, "Y": 1}, "periods_ns": {"Y": 5}}
    c = {"offsets_ns": {"X": 0, "Y": 2}, "periods_ns": {"Y": 5}}
    d = {"offsets_ns": {"X": 1, "Y": 2}, "periods_ns": {"Y": 5}}
    e = {"offsets_ns": {"X": 1, "Y": 2}, "periods_ns": {"Y": 6}}
    assert offset_runs([a, b, c, d, e, e]) == [("Y", [a, b, c]), (None, [d]), (None, [e]), (None, [e])]
    assert offset_runs([d, c, b]) == [("X", [d, c]), (None, [b])]  # b differs from d in both offsets
    assert offset_runs([]) == []


def test_a_bad_offset_in_a_run_is_the_error_of_the_single_analysis() -> None:
    points = grid(["C2"], [range(0, 4 * MS, MS)], {})
    points[2] = {"offsets_ns": {"C2": -1}, "periods_ns": {}}
    with pytest.raises(ModelError, match="offset_ns must be at least 0"):
        analyse_points(shared_of(config("e")), points)
    with pytest.raises(ModelError, match="resolution_ns"):
        analyse_points(shared_of(out_of_order()), grid(["C"], [range(0, 2 * MS, 250_000)], {}))


def test_a_refused_period_in_a_run_is_the_refusal_of_the_single_analysis() -> None:
    points = grid(["C2"], [range(0, 4 * MS, MS)], {"C2": 16_670_000})
    with pytest.raises(TooExpensiveError) as alone:
        analyse_point(shared_of(config("e"), max_trees=1000), points[0])
    with pytest.raises(TooExpensiveError) as together:
        analyse_points(shared_of(config("e"), max_trees=1000), points)
    assert str(together.value) == str(alone.value)


def test_the_points_of_one_run_share_their_label_and_no_others() -> None:
    points = grid(["C1", "C2"], [range(0, 3 * MS, MS), range(0, 4 * MS, MS)], {"C2": 16 * MS})
    points += grid(["C1", "C2"], [range(0, MS, MS), range(0, 2 * MS, MS)], {"C2": 17 * MS})
    labels = [run_label(p) for p in points]
    runs = [run for name, run in offset_runs(points)]
    assert [len(r) for r in runs] == [4, 4, 4, 2]
    assert [len(set(map(run_label, r))) for r in runs] == [1, 1, 1, 1]
    assert len(set(labels)) == len(runs)
