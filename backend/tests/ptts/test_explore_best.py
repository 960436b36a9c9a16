"""The best point of a sweep and what the objective depends on: resolution, flat axes, ties kept at the current
settings (chainlab.ptts.explore_best), on hand-made points whose answer is known."""

from __future__ import annotations

import itertools
from typing import Any

import pytest

from chainlab.ptts.explore_best import (
    Current,
    choose_best,
    depends,
    objective_resolution,
    objective_value,
    offset_axis,
)

MS = 1_000_000


def point(offsets_ms: dict[str, int], p99: float, mean: float = 50.0, loss: float = 0.0, **periods_ms: int) -> Any:
    return {
        "offsets_ns": {n: v * MS for n, v in offsets_ms.items()},
        "periods_ns": {n: v * MS for n, v in periods_ms.items()},
        "p99_ms": p99,
        "p50_ms": p99 - 10,
        "mean_ms": mean,
        "max_ms": p99 + 10,
        "loss": loss,
    }


def now(**offsets_ms: int) -> Current:
    return Current({n: v * MS for n, v in offsets_ms.items()}, {}, {n: 58 * MS for n in offsets_ms})


def test_resolution_is_the_grid_for_percentiles_and_relative_for_the_mean_and_probabilities():
    assert objective_resolution("p99", [285.0, 279.0], MS) == 1.0
    assert objective_resolution("p50", [1.0], 10_000) == 0.01
    assert objective_resolution("mean", [199.9999, 200.0], MS) == pytest.approx(2e-7)
    assert objective_resolution("loss", [0.25, 0.5], MS) == pytest.approx(5e-10)
    assert objective_resolution("loss", [8.5e-5], MS) == 1e-12
    assert objective_resolution("loss", [0.0, 0.0], MS) == 1e-12  # nothing below the probability floor
    assert objective_resolution("deadline", [2.2e-16], MS) == 1e-12  # 1 - 0.9999999999999998: noise


def test_a_flat_mean_does_not_depend_on_the_offset_and_the_best_keeps_the_current_one():
    # what the exact analysis gives for Fig52's mean over C1's offset: 200 ms with noise in the 14th digit
    noise = [199.999908045977, 199.99990804597698, 199.99990804597692, 199.9999080459769]
    points = [point({"C1": o}, 285, mean=noise[o % 4]) for o in range(58)]
    picked = choose_best(points, "mean", now(C1=30), MS)
    assert picked.depends == {("offsets_ns", "C1"): False}
    assert picked.best["offsets_ns"] == {"C1": 30 * MS}


def test_p99_over_two_offsets_that_depends_on_one_keeps_the_other_at_its_current_offset():
    def p99(c2: int) -> float:
        return 279.0 if c2 in (10, 18) else 285.0

    points = [
        point({"C1": c1, "C2": c2}, p99(c2), mean=200 + c1 / 1000)
        for c1, c2 in itertools.product(range(0, 58, 3), range(0, 56, 2))
    ]
    picked = choose_best(points, "p99", now(C1=30, C2=8), MS)
    assert picked.depends == {("offsets_ns", "C1"): False, ("offsets_ns", "C2"): True}
    # C1 stays (the mean would prefer 0 ms: not the objective); of the two tied C2 the nearer to 8 ms
    assert picked.best["offsets_ns"] == {"C1": 30 * MS, "C2": 10 * MS}


def test_ties_go_to_the_nearest_offset_around_the_period():
    # 56 ms is 2 ms from 0 ms around a 58 ms period, 20 ms is 20 ms away: both give the lowest p99
    points = [point({"C1": o}, 100 if o in (20, 56) else 110) for o in range(0, 58, 4)]
    assert choose_best(points, "p99", now(C1=0), MS).best["offsets_ns"] == {"C1": 56 * MS}
    # a difference below the resolution is a tie, one above it is not
    points = [point({"C1": 0}, 100.0000001), point({"C1": 20}, 100.0)]
    assert choose_best(points, "p99", now(C1=0), MS).best["offsets_ns"] == {"C1": 0}
    assert choose_best(points, "p99", now(C1=0), 1000).best["offsets_ns"] == {"C1": 0}
    points = [point({"C1": 0}, 101.0), point({"C1": 20}, 100.0)]
    picked = choose_best(points, "p99", now(C1=0), MS)
    assert picked.best["offsets_ns"] == {"C1": 20 * MS} and picked.depends[("offsets_ns", "C1")]


def test_loss_noise_is_a_tie_a_real_loss_difference_is_not():
    points = [point({"C1": o}, 285, loss=8.434811165845654e-05 + (o % 3) * 1e-18) for o in range(10)]
    assert not choose_best(points, "loss", now(C1=7), MS).depends[("offsets_ns", "C1")]
    assert choose_best(points, "loss", now(C1=7), MS).best["offsets_ns"] == {"C1": 7 * MS}
    points = [point({"C1": o}, 285, loss=8.57e-5 if o % 2 else 8.43e-5) for o in range(10)]
    picked = choose_best(points, "loss", now(C1=7), MS)
    assert picked.depends[("offsets_ns", "C1")] and picked.best["offsets_ns"] == {"C1": 6 * MS}


def test_candidate_periods_are_an_axis_the_current_period_is_kept_where_it_makes_no_difference():
    current = Current({"C1": 0}, {"C2": 16_600_000}, {"C1": 58 * MS})
    points = []
    for period, c1 in itertools.product([16_600_000, 16_700_000], range(0, 58, 10)):
        p = point({"C1": c1}, 100 if c1 == 20 else 110)
        p["periods_ns"] = {"C2": period}
        points.append(p)
    picked = choose_best(points[::-1], "p99", current, MS)  # the last point first: the order decides nothing
    assert picked.depends == {("offsets_ns", "C1"): True, ("periods_ns", "C2"): False}
    assert picked.best["periods_ns"] == {"C2": 16_600_000} and picked.best["offsets_ns"] == {"C1": 20 * MS}


def test_depends_looks_along_each_axis_with_the_others_fixed():
    value = objective_value("p99")
    points = [point({"A": a, "B": b}, 100 + (a if b == 4 else 0)) for a, b in itertools.product(range(4), range(5))]
    axes = [("offsets_ns", "A"), ("offsets_ns", "B")]
    assert depends(points, axes, value, 1.0) == {("offsets_ns", "A"): True, ("offsets_ns", "B"): True}
    flat = [point({"A": a, "B": b}, 100) for a, b in itertools.product(range(4), range(5))]
    assert depends(flat, axes, value, 1.0) == {("offsets_ns", "A"): False, ("offsets_ns", "B"): False}
    assert depends([point({"A": 0}, 100)], axes[:1], value, 1.0) == {("offsets_ns", "A"): False}


def test_the_offset_axis_holds_the_current_offset_where_the_step_misses_it():
    assert offset_axis(20 * MS, 5 * MS, 10 * MS) == [0, 5 * MS, 10 * MS, 15 * MS]
    assert offset_axis(20 * MS, 5 * MS, 8 * MS) == [0, 5 * MS, 8 * MS, 10 * MS, 15 * MS]
    assert offset_axis(16 * MS, 5 * MS, 18 * MS) == [0, 5 * MS, 10 * MS, 15 * MS]  # beyond a candidate period
