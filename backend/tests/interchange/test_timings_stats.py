"""Statistics and bins of one name's times: exact integers, nearest-rank percentiles, 1-2-5 bin widths."""

from __future__ import annotations

from array import array

import pytest

from chainlab.interchange.timings_stats import MAX_BINS, bin_width, decimal_in, summarize


def test_weighted_statistics_are_exact_and_nearest_rank() -> None:
    s = summarize("A", 2, "us", array("q", [3000, 1000, 2000, 1000]), array("q", [1, 97, 2, 0]))
    assert s is not None and s.samples == 100
    assert s.stats == {
        "mean_ns": 1040,  # (97·1000 + 2·2000 + 3000) / 100
        "median_ns": 1000,
        "p90_ns": 1000,
        "p99_ns": 2000,
        "min_ns": 1000,
        "max_ns": 3000,
    }
    assert s.bins == [("1", 97), ("2", 2), ("3", 1)] and s.bin_ns is None


def test_the_mean_rounds_half_to_even_and_survives_large_products() -> None:
    assert summarize("A", 1, "ns", array("q", [1, 2]), None).stats["mean_ns"] == 2  # 1.5 → 2
    assert summarize("A", 1, "ns", array("q", [2, 3]), None).stats["mean_ns"] == 2  # 2.5 → 2
    big = 2**53 - 1
    s = summarize("A", 1, "s", array("q", [big]), array("q", [10**11]))
    assert s is not None and s.stats["mean_ns"] == big


def test_all_counts_zero_is_none() -> None:
    assert summarize("A", 1, "ns", array("q", [5]), array("q", [0])) is None


@pytest.mark.parametrize(
    ("low", "high", "width"),
    [(0, 49, 1), (0, 50, 2), (1000, 1999, 50), (10**6, 10**6 + 49 * 10**5, 10**5), (0, 10**9, 5 * 10**7)],
)
def test_bin_width_is_the_smallest_1_2_5_step_that_fits(low: int, high: int, width: int) -> None:
    assert bin_width(low, high) == width
    assert -(-high // width) - -(-low // width) + 1 <= MAX_BINS


@pytest.mark.parametrize(
    ("ns", "unit", "text"), [(1500, "ms", "0.0015"), (2_000_000, "ms", "2"), (1, "s", "0.000000001"), (7, "ns", "7")]
)
def test_decimal_in_a_unit_is_exact(ns: int, unit: str, text: str) -> None:
    assert decimal_in(ns, unit) == text
