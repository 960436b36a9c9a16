"""The Pareto front of two objectives, both minimised: the rows no other row beats in one without losing in the
other. Rows with equal values in both are all kept (neither dominates the other)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

T = TypeVar("T")


def pareto_front(rows: Sequence[T], first: Callable[[T], float], second: Callable[[T], float]) -> list[int]:
    """Indices of the non-dominated rows, in increasing `first` (then `second`, then index) order."""
    order = sorted(range(len(rows)), key=lambda i: (first(rows[i]), second(rows[i]), i))
    front: list[int] = []
    best: tuple[float, float] | None = None  # (first, second) of the last row kept
    for i in order:
        a, b = first(rows[i]), second(rows[i])
        if best is None or b < best[1] or (a, b) == best:
            front.append(i)
            best = (a, b)
    return front
