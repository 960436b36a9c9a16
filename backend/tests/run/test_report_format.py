"""The report files' words and numbers are the editor's: its one number format, its wording of requirements, its
series in its order with its colours."""

from __future__ import annotations

import math

import pytest

from chainlab.run.report import RunReport
from chainlab.run.report_format import (
    SERIES_COLOURS,
    format_number,
    format_probability,
    plot_series,
    requirement_margin,
    requirement_text,
    requirement_value,
)


@pytest.mark.parametrize(
    ("value", "text"),
    [
        (128.4, "128"),
        (200.0, "200"),
        (0.0451, "0.0451"),
        (1.0, "1"),
        (123456.0, "123000"),
        (-2.5, "-2.5"),
        (0.0, "0"),
        (8.567e-5, "8.57·10⁻⁵"),
        (1e-4, "10⁻⁴"),
        (math.nan, "–"),
        (None, "–"),
    ],
)
def test_one_number_format_as_the_editor_writes_it(value: float | None, text: str) -> None:
    assert format_number(value) == text


def test_rounding_noise_of_a_probability_reads_below_the_floor() -> None:
    assert format_probability(1e-15) == "< 10⁻¹²" and format_probability(0.01) == "0.01"


def test_requirements_are_worded_as_in_the_panel() -> None:
    p99 = {"kind": "percentile", "op": "<", "percentile": 99, "bound_ms": 25.0, "value_ms": 20.0, "passed": True}
    assert requirement_text(p99) == "latency p99 < 25 ms"
    assert requirement_value(p99) == "p99 = 20 ms"
    assert requirement_margin(p99) == "5 ms (20 %) below the bound"
    deadline = {
        "kind": "deadline",
        "op": "<=",
        "bound_ms": 30.0,
        "required_probability": 0.9999,
        "probability": 0.99,
        "value": 0.99,
    }
    assert requirement_text(deadline) == "latency ≤ 30 ms with probability ≥ 99.99 %"
    assert requirement_value(deadline) == "P(> 30 ms) = 0.01, allowed 10⁻⁴"
    assert requirement_margin(deadline) == "–"


def _report(points: list[tuple[int, float]]) -> RunReport:
    measured = {"samples": 10}
    scenarios = [
        {"scenario": "baseline", "measured": measured, "histogram_ms": [[1.0, 1.0]], "ks": 0.1234},
        {"scenario": "congested", "measured": {"samples": 0}},  # nothing measured: no curve
        {"scenario": "throttled", "measured": measured, "histogram_ms": [[2.0, 1.0]], "ks": None},
    ]
    return RunReport("ok", "C", "here", "local", "/tmp", predicted={"points": points, "stats": {}}, scenarios=scenarios)


def test_the_series_come_in_the_panels_order_and_colours() -> None:
    series = plot_series(_report([(1_000_000, 1.0)]))
    assert [s.name for s in series] == ["predicted", "measured baseline", "measured throttled"]
    assert [s.colour for s in series] == list(SERIES_COLOURS[:3])
    legends = ["predicted", "measured baseline — KS 0.123 vs predicted", "measured throttled"]
    assert [s.legend for s in series] == legends
    # without a prediction the first measurement takes the first colour, as in the panel
    assert [s.colour for s in plot_series(_report([]))] == list(SERIES_COLOURS[:2])
