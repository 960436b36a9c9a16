"""chainlab.finite_json: NaN and Infinity are refused naming the field, or mapped to null where null means
"undefined". The wire's use of it, through the real backend process: tests/rpc/test_framing.py."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

from chainlab.finite_json import NonFiniteNumber, dumps, finite_or_null, non_finite_path


@pytest.mark.parametrize(
    ("value", "message"),
    [
        (math.nan, "the value is NaN"),
        ({"a": [1.0, {"b": math.inf}]}, "a[1].b is Infinity"),
        ({"99.9": -math.inf}, '["99.9"] is -Infinity'),
        ({"q": {"GPU@0;Wall@4": (0.5, math.nan)}}, 'q["GPU@0;Wall@4"][1] is NaN'),
    ],
)
def test_dumps_refuses_non_finite_numbers_naming_the_field(value: Any, message: str) -> None:
    with pytest.raises(NonFiniteNumber) as refused:
        dumps(value)
    assert str(refused.value) == f"{message}, which JSON cannot carry"
    assert isinstance(refused.value, ValueError)  # callers that catch ValueError still catch it


def test_dumps_writes_finite_values_as_json_does_and_passes_other_errors_on() -> None:
    value = {"a": [1, 2.5, 5e-324, None, "NaN"], "b": {"c": True}}
    assert dumps(value, indent=1, sort_keys=True) == json.dumps(value, indent=1, sort_keys=True)
    circular: list[Any] = []
    circular.append(circular)
    with pytest.raises(ValueError, match="Circular reference"):
        dumps(circular)
    assert non_finite_path({"a": [1.0, "x", None]}) is None


def test_finite_or_null_maps_only_non_finite_numbers() -> None:
    value = {"ks": math.nan, "q": (1.5, math.inf), "n": 3, "s": "NaN", "deep": [{"x": -math.inf}]}
    assert finite_or_null(value) == {"ks": None, "q": [1.5, None], "n": 3, "s": "NaN", "deep": [{"x": None}]}
    assert dumps(finite_or_null(value))
