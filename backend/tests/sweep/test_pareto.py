"""The Pareto front against a brute-force definition of dominance."""

from __future__ import annotations

import random

from chainlab.sweep.pareto import pareto_front


def dominated(p: tuple[int, int], q: tuple[int, int]) -> bool:
    return q[0] <= p[0] and q[1] <= p[1] and q != p


def test_front_is_exactly_the_non_dominated_rows() -> None:
    rng = random.Random(7)
    for _ in range(200):
        rows = [(rng.randrange(6), rng.randrange(6)) for _ in range(rng.randrange(1, 15))]
        front = pareto_front(rows, lambda r: r[0], lambda r: r[1])
        expected = [i for i, p in enumerate(rows) if not any(dominated(p, q) for q in rows)]
        assert sorted(front) == expected
        assert [rows[i][0] for i in front] == sorted(rows[i][0] for i in front)
