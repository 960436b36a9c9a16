"""Functions the sweep tests run on workers (imported there by name: this folder is on the workers' PYTHONPATH)."""

from __future__ import annotations

import math
import time
from typing import Any


def mix(shared: dict[str, Any], p: list[int]) -> dict[str, Any]:
    """Integers, floats from a long computation (any difference in evaluation shows), strings and nesting."""
    x, y = p
    acc = 0.0
    for k in range(1, 2000):
        acc += math.sin(x * shared["a"] / k) * math.exp(-y / (k + shared["b"]))
    return {"x": x, "y": y, "acc": acc, "n": x * 1_000_003 + y, "tag": f"p{x}-{y}", "nested": {"h": [x, y, 0.1 * x]}}


def mix_many(shared: dict[str, Any], points: list[list[int]]) -> list[dict[str, Any]]:
    """mix of every point, each row saying how many points the call had."""
    return [{**mix(shared, p), "together": len(points)} for p in points]


def slow(shared: dict[str, Any], p: int) -> dict[str, Any]:
    """Takes shared["sleep"] seconds, and logs each computed point to shared["log"] when given (one line each)."""
    time.sleep(shared["sleep"])
    if shared.get("log"):
        with open(shared["log"], "a") as f:
            f.write(f"{p}\n")
    return {"p": p, "square": p * p}


def mix_calls(shared: dict[str, Any], points: list[list[int]]) -> list[dict[str, Any]]:
    """mix of every point, each row naming the first point of its call."""
    return [{**mix(shared, p), "call": f"{points[0][0]},{points[0][1]}"} for p in points]
