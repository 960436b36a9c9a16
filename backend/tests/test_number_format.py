"""The backend's number format against the vectors the editor's (contract/src/number-format.ts) is held to."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chainlab.number_format import format_duration, format_ms, format_number, format_probability

VECTORS: dict[str, Any] = json.loads(
    (Path(__file__).resolve().parents[2] / "tests" / "number-format-vectors" / "number-format.json").read_text("utf-8")
)


@pytest.mark.parametrize(("value", "text"), VECTORS["number"])
def test_number(value: float | None, text: str) -> None:
    assert format_number(value) == text


@pytest.mark.parametrize(("value", "text"), VECTORS["probability"])
def test_probability(value: float | None, text: str) -> None:
    assert format_probability(value) == text


@pytest.mark.parametrize(("ns", "unit", "text"), VECTORS["duration"])
def test_duration(ns: float, unit: str | None, text: str) -> None:
    assert format_duration(ns, unit) == text


@pytest.mark.parametrize(("value", "text"), VECTORS["ms"])
def test_ms(value: float, text: str) -> None:
    assert format_ms(value) == text


def test_no_number_reads_as_a_dash() -> None:
    for value in (float("nan"), float("inf"), None):
        assert format_number(value) == "–"
        assert format_duration(value) == "–"
