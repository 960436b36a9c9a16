"""Brute-force physical reference for small PTTS chains, in exact fractions.

For every root r of the hyper-period it enumerates *every* ETP outcome of *every* trigger in a
window around r (C0 at r and r + d0, and each later component's triggers that can carry their
data), runs the one-place-buffer physics (destructive write, non-destructive read, last write
wins, production before consumption at equal instants unless consumption-first), and records
the latency until the last component first outputs data of r or newer, and whether r's data is
ever read by the last component. Identical physical states are merged, nothing else is pruned.
Independent of the analysis code: it knows nothing about trees, phases or hops. With the default
window it is exact for in-order chains (ETP width <= own period), where older roots cannot
interfere; `before`/`after` widen the window for out-of-order chains.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from fractions import Fraction

from ptts_cases import chain, component, pmf

Etp = list[tuple[int, Fraction]]


def brute_force(
    periods: list[int],
    offsets: list[int],
    etps: list[Etp],
    production_first: bool = True,
    before: int = 0,
    after: int = 1,
):
    """(latency distribution {latency: P}, loss probability, {root: P(lost)}) averaged over one hyper-period.

    C0 triggers r - before*d0 .. r + after*d0 are enumerated; the defaults suffice for in-order
    chains; out-of-order chains need neighbours on both sides (older data can then overwrite).
    """
    n = len(periods)
    h = math.lcm(*periods)
    d0 = periods[0]
    R = h // d0
    lo = [0] * n
    hi = [0] * n
    for i in range(n - 1):
        emin = min(e for e, _ in etps[i])
        emax = max(e for e, _ in etps[i])
        lo[i + 1] = lo[i] + emin + (0 if production_first else 1)
        hi[i + 1] = hi[i] + emax + periods[i + 1] - (1 if production_first else 0)
    latency: dict[int, Fraction] = defaultdict(Fraction)
    loss = Fraction(0)
    per_root: dict[int, Fraction] = {}
    for k in range(R):
        r = offsets[0] + k * d0
        # stage 0: the two C0 triggers; a write is (production time, trigger time, data)
        states: dict[tuple, Fraction] = {(): Fraction(1)}
        for t in range(r - before * d0, r + (after + 1) * d0, d0):
            states = {(*s, (t + e, t, t)): p * q for s, p in states.items() for e, q in etps[0]}
        for i in range(1, n):
            d, o = periods[i], offsets[i]
            first = r + lo[i] - before * d0
            last = r + after * d0 + hi[i]
            t0 = o + -(-(first - o) // d) * d
            triggers = list(range(t0, last + 1, d))
            nxt: dict[tuple, Fraction] = defaultdict(Fraction)
            for state, p in states.items():
                reads = []
                for T in triggers:
                    cands = [w for w in state if (w[0] <= T if production_first else w[0] < T)]
                    if cands:
                        reads.append((T, max(cands, key=lambda w: (w[0], w[1]))[2]))
                partial: dict[tuple, Fraction] = {(): p}
                for T, data in reads:
                    partial = {(*s, (T + e, T, data)): q * pe for s, q in partial.items() for e, pe in etps[i]}
                for s, q in partial.items():
                    nxt[tuple(sorted(s))] += q
            states = nxt
        lost_r = Fraction(0)
        for state, p in states.items():
            newer = [w[0] for w in state if w[2] >= r]
            assert newer, "window too small"
            latency[min(newer) - r] += p / R
            if not any(w[2] == r for w in state):
                lost_r += p
        per_root[r] = lost_r
        loss += lost_r / R
    return dict(latency), loss, per_root


UNIT = 1000  # ns per brute-force time unit (exercises the grid derivation)


def random_chain(rng: random.Random, in_order: bool = True):
    n = rng.choice([2, 3, 3])
    while True:
        periods = [rng.randint(2, 7) for _ in range(n)]
        if math.lcm(*periods) // periods[0] <= 8:
            break
    offsets = [rng.randint(0, d - 1) for d in periods]
    etps = []
    for d in periods:
        lo = rng.randint(0, 4)
        vals = sorted({lo + rng.randint(0, d if in_order else 2 * d) for _ in range(rng.randint(1, 3))})
        weights = [rng.randint(1, 5) for _ in vals]
        etps.append([(v, Fraction(w, sum(weights))) for v, w in zip(vals, weights)])
    return periods, offsets, etps


def to_ir(periods, offsets, etps, production_first=True):
    comps = [
        component(f"C{i}", d * UNIT, o * UNIT, pmf([(e * UNIT, float(p)) for e, p in etp]))
        for i, (d, o, etp) in enumerate(zip(periods, offsets, etps))
    ]
    return chain("small", comps, order="production-first" if production_first else "consumption-first")
