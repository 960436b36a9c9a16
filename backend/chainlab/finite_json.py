"""JSON that is JSON: Python's json writes NaN and Infinity bare by default, which no JSON parser reads (a client
waiting for such a reply waits forever). Every writer of a wire or a result file goes through `dumps`, which refuses
them naming the field; where a contract gives a number that may be undefined the type null, `finite_or_null` maps
them to null first, and null then means "undefined" (a statistic of an empty sample, say)."""

from __future__ import annotations

import json
import math
from collections.abc import Mapping
from typing import Any


class NonFiniteNumber(ValueError):
    """A number JSON cannot carry (NaN, Infinity), with the path of its field (`result.points[3].p99_ms`)."""

    def __init__(self, path: str, value: float) -> None:
        super().__init__(f"{path or 'the value'} is {_spelled(value)}, which JSON cannot carry")
        self.path = path
        self.value = value


def _spelled(value: float) -> str:
    return "NaN" if math.isnan(value) else ("Infinity" if value > 0 else "-Infinity")


def _step(path: str, key: Any) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    name = str(key)
    if not name.isidentifier():  # "99.9", "GPU@0;Wall@4": quoted
        return f"{path}[{json.dumps(name)}]"
    return f"{path}.{name}" if path else name


def non_finite_path(value: Any, path: str = "", _seen: frozenset[int] = frozenset()) -> tuple[str, float] | None:
    """The path and value of the first NaN or infinity in `value` (dicts, lists, tuples, floats); None without one."""
    if isinstance(value, float):
        return None if math.isfinite(value) else (path, value)
    if isinstance(value, Mapping):
        items: Any = value.items()
    elif isinstance(value, list | tuple):
        items = enumerate(value)
    else:
        return None
    if id(value) in _seen:  # a circular reference: json refuses it on its own
        return None
    for key, item in items:
        found = non_finite_path(item, _step(path, key), _seen | {id(value)})
        if found is not None:
            return found
    return None


def dumps(value: Any, **options: Any) -> str:
    """json.dumps that refuses NaN and Infinity.

    Parameters
    ----------
    value
        What to write.
    **options
        json.dumps's other options (indent, separators, sort_keys, ensure_ascii).

    Raises
    ------
    NonFiniteNumber
        A ValueError naming the field that holds NaN or an infinity: nothing is written.
    """
    try:
        return json.dumps(value, allow_nan=False, **options)
    except ValueError:
        found = non_finite_path(value)
        if found is None:
            raise  # another ValueError (a circular reference): as it is
        raise NonFiniteNumber(*found) from None


def finite_or_null(value: Any) -> Any:
    """`value` with every NaN and infinity (in dicts, lists and tuples) replaced by None: null, "undefined"."""
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, Mapping):
        return {k: finite_or_null(v) for k, v in value.items()}
    if isinstance(value, list | tuple):
        return [finite_or_null(v) for v in value]
    return value
