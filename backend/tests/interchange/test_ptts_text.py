"""Printing PTTS chains as .chain text: exact durations, probabilities summing to exactly 1, safe names."""

from __future__ import annotations

from decimal import Decimal
from fractions import Fraction

import pytest

from chainlab.interchange.ptts_text import (
    LatencyBound,
    PmfEtp,
    PointEtp,
    PttsChain,
    PttsComponent,
    UniformEtp,
    chain_name,
    comment_lines,
    duration,
    etp_text,
    exact_probabilities,
    ptts_text,
)


@pytest.mark.parametrize(
    ("ns", "text"),
    [
        (0, "0 ms"),
        (7, "7 ns"),
        (2_500, "2.5 us"),
        (66_600_000, "66.6 ms"),
        (16_670_000, "16.67 ms"),
        (1_000_000_000, "1 s"),
        (123_456_789, "123456.789 us"),
        (1_000_000_001, "1000000.001 us"),
    ],
)
def test_durations_are_exact_in_the_largest_readable_unit(ns: int, text: str) -> None:
    assert duration(ns) == text


def test_a_negative_duration_is_a_bug() -> None:
    with pytest.raises(ValueError):
        duration(-1)


def test_probabilities_are_decimals_that_sum_to_exactly_one() -> None:
    thirds = exact_probabilities([Fraction(1, 3)] * 3)
    assert thirds == ["0.333333333334", "0.333333333333", "0.333333333333"]
    assert sum(Decimal(p) for p in thirds) == 1
    tiny = exact_probabilities([Fraction(1), Fraction(1, 10**14)])
    assert Decimal(tiny[1]) > 0 and sum(Decimal(p) for p in tiny) == 1


def test_etps() -> None:
    assert etp_text(PointEtp(5_000_000)) == "point 5 ms"
    assert etp_text(UniformEtp(1_000_000, 2_000_000, 10_000)) == "uniform 1 ms .. 2 ms step 10 us"
    assert (
        etp_text(PmfEtp({11_000_000: Fraction(9, 10), 12_000_000: Fraction(1, 10)})) == "pmf { 11 ms: 0.9, 12 ms: 0.1 }"
    )
    long = etp_text(PmfEtp({t: Fraction(1, 6) for t in range(1, 7)}))
    assert long.startswith("pmf {\n        1 ns: 0.166666666665, 2 ns: 0.166666666667, ") and long.endswith("\n    }")


def test_names_the_grammar_accepts_and_unique() -> None:
    taken: set[str] = set()
    assert [chain_name(n, taken) for n in ("Xray-to-Wall", "3D view", "period", "A", "A", "")] == [
        "Xray_to_Wall",
        "_3D_view",
        "period_",
        "A",
        "A_2",
        "_",
    ]


def test_comments() -> None:
    assert comment_lines(["one", "two\nthree"]) == "// one\n// two\n// three\n"
    assert comment_lines([]) == ""


def test_a_whole_ptts_block() -> None:
    chain = PttsChain(
        "Video",
        [
            PttsComponent("Cam", 40_000_000, 0, PointEtp(5_000_000)),
            PttsComponent("Out", 16_700_000, 1_000, PointEtp(3)),
        ],
        resolution_ns=100_000,
        requirements=[LatencyBound(100_000_000)],
        comments=["from a test"],
    )
    assert ptts_text(chain) == (
        "// from a test\n"
        "ptts Video {\n"
        "    resolution 100 us\n"
        "    component Cam  period 40 ms  offset 0 ms  etp point 5 ms\n"
        "    component Out  period 16.7 ms  offset 1 us  etp point 3 ns\n"
        "    require latency <= 100 ms with probability >= 100 %\n"
        "}\n"
    )
