"""Tick distributions: exact sums (convolutions) and the conversion to ns at a core's frequency."""

from __future__ import annotations

from fractions import Fraction

import pytest

from chainlab.interchange import amalthea_ticks
from chainlab.interchange.amalthea_ticks import Ticks, TooLarge, add, to_ns
from chainlab.interchange.ptts_text import PmfEtp, PointEtp, UniformEtp

GHZ = Fraction(10**9)


def test_a_point_shifts_a_uniform_and_keeps_it_a_uniform() -> None:
    assert add(Ticks.point(5), Ticks(10, 20)) == Ticks(15, 25)
    assert add(Ticks(10, 20), Ticks.point(0)) == Ticks(10, 20)


def test_two_uniforms_sum_to_their_exact_convolution() -> None:
    total = add(Ticks(0, 1), Ticks(0, 2))
    assert total.pmf == {0: Fraction(1, 6), 1: Fraction(1, 3), 2: Fraction(1, 3), 3: Fraction(1, 6)}


def test_pmfs_sum_exactly() -> None:
    a = Ticks.of_pmf({1: Fraction(1, 2), 2: Fraction(1, 2)})
    b = Ticks.of_pmf({10: Fraction(1, 3), 20: Fraction(2, 3)})
    assert add(a, b).pmf == {11: Fraction(1, 6), 12: Fraction(1, 6), 21: Fraction(1, 3), 22: Fraction(1, 3)}


def test_too_many_points_is_refused() -> None:
    with pytest.raises(TooLarge):
        add(Ticks(0, 3_000), Ticks(0, 3_000))


def test_whole_ns_ticks_keep_a_uniform() -> None:
    converted = to_ns(Ticks(100, 200), Fraction(500 * 10**6))  # 2 ns per tick
    assert converted.etp == UniformEtp(200, 400, 2) and converted.rounded_up == 0


def test_ticks_off_the_ns_grid_are_rounded_up_exactly() -> None:
    converted = to_ns(Ticks.point(1_000), Fraction(3 * 10**9))  # 333.33 ns
    assert converted.etp == PointEtp(334) and converted.rounded_up == Fraction(2, 3)
    uniform = to_ns(Ticks(0, 2), Fraction(3 * 10**9))  # 0, 1/3, 2/3 ns -> 0, 1, 1
    assert uniform.etp == PmfEtp({0: Fraction(1, 3), 1: Fraction(2, 3)})


def test_a_very_wide_uniform_gets_a_coarser_step_and_says_so(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(amalthea_ticks, "MAX_UNIFORM", 11)
    converted = to_ns(Ticks(0, 95), GHZ)
    assert converted.etp == UniformEtp(0, 100, 10)
    assert "a uniform of 96 ticks is written on a 10 ns step" in converted.approximated
