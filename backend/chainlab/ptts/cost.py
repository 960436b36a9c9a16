"""Cost before work: tree counts (Table 5.2), the eq. 5.15 estimate, and period proposals (5.7).

`proposals` searches nearby periods that shrink the hyper-period: every period rounded to a
coarser quantum (1, 2, 5 x 10^k ns) and periods snapped to a small ratio of another component's
period ("same clock"), within a maximum relative change; Pareto-optimal candidates (smallest
change for a given tree count) are returned.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from typing import Any

from chainlab.ptts.grid import GridChain
from chainlab.ptts.hop import Hop
from chainlab.ptts.quotient import INFEASIBLE, INT64_SAFE, quotient_cost

MAX_COMBINATIONS = 60_000
MAX_TREES = 10**12  # latency trees above which the exact analysis is refused (the editor warns at the same count)


def over_tree_limit(roots: int, max_trees: int = MAX_TREES) -> bool:
    """The first refusal rule of the exact analysis; the language evaluates it too (tests/ptts-cost-vectors)."""
    return roots > max_trees


def eq_5_15(chain: GridChain) -> tuple[int, list[int]]:
    """(1/d0) lcm(d) prod ceil((tau_hat - tau_check + 1) / d_{i+1}), with +1 = one grid unit."""
    branching = [-(-(chain.emax(i) - chain.emin(i) + 1) // chain.periods[i + 1]) for i in range(chain.n - 1)]
    return chain.roots * math.prod(branching), branching


def per_root_fits(chain: GridChain) -> bool:
    """Whether the per-root method's trigger times stay far from int64 overflow."""
    return reach_fits(time_reach(chain.periods, [chain.emax(i) for i in range(chain.n)]), max(chain.offsets))


def time_reach(periods: Sequence[int], emax: Sequence[int]) -> int:
    """The latest time the per-root method reaches, less the largest offset (grid units)."""
    return math.lcm(*periods) + sum(e + d for e, d in zip(emax, periods))


def reach_fits(reach: int, max_offset: int) -> bool:
    """`per_root_fits` of a chain of this `time_reach` and largest offset."""
    return reach + max_offset < INT64_SAFE


def cost_summary(chain: GridChain, hops: list[Hop] | None = None) -> dict[str, Any]:
    ops, branching = eq_5_15(chain)
    out: dict[str, Any] = {
        "roots": chain.roots,
        "hyperperiod_ns": chain.hyperperiod * chain.unit_ns,
        "hyperperiod_ms": chain.hyperperiod * chain.unit_ns / 1e6,
        "grid_ns": chain.unit_ns,
        "branching": branching,
        "eq_5_15": ops,
    }
    if hops is not None:
        out["per_root_rows"] = chain.roots * math.prod(h.K for h in hops) if per_root_fits(chain) else INFEASIBLE
        out["quotient_entries"] = quotient_cost(chain, hops)
    return out


def _quanta(max_period: int) -> list[int]:
    out = []
    e = 0
    while 10**e <= max_period:
        for m in (1, 2, 5):
            out.append(m * 10**e)
        e += 1
    return out


def _candidates(periods: list[int], i: int, max_rel: float) -> list[tuple[float, int]]:
    d = periods[i]
    cands = {d: 0.0}
    for q in _quanta(max(periods)):
        v = round(d / q) * q
        if v > 0:
            rel = abs(v - d) / d
            if rel <= max_rel:
                cands.setdefault(v, rel)
    for j, dj in enumerate(periods):
        if j == i:
            continue
        for a in range(1, 6):
            for b in range(1, 6):
                if (dj * a) % b == 0:
                    v = dj * a // b
                    rel = abs(v - d) / d
                    if 0 < rel <= max_rel:
                        cands.setdefault(v, rel)
    return sorted(((rel, v) for v, rel in cands.items()), key=lambda x: (x[0], x[1]))


def propose(
    periods_ns: list[int], names: list[str], max_trees: int, max_rel: float = 0.02, limit: int = 8
) -> list[dict[str, Any]]:
    """Nearby period sets whose tree count (lcm/d0) is at most max_trees, Pareto-optimal."""
    n = len(periods_ns)
    lists = [_candidates(periods_ns, i, max_rel) for i in range(n)]
    per = max(1, int(MAX_COMBINATIONS ** (1.0 / n)))
    lists = [lst[:per] for lst in lists]
    found: list[tuple[float, int, tuple[int, ...]]] = []
    for combo in itertools.product(*lists):
        ds = tuple(v for _, v in combo)
        if ds == tuple(periods_ns):
            continue
        roots = math.lcm(*ds) // ds[0]
        if roots <= max_trees:
            found.append((max(rel for rel, _ in combo), roots, ds))
    found.sort(key=lambda f: (f[0], f[1]))
    chosen: dict[tuple[int, ...], tuple[float, int, str]] = {}
    best = None
    for rel, roots, ds in found:  # Pareto: the smallest change for each smaller tree count
        if best is None or roots < best:
            chosen[ds] = (rel, roots, "nearby periods")
            best = roots
    rounded = 0
    for q in _quanta(max(periods_ns)):  # the thesis' section 5.7 move: every period on a coarser grid
        if rounded >= 3:
            break
        ds = tuple(max(q, round(d / q) * q) for d in periods_ns)
        if ds == tuple(periods_ns) or ds in chosen:
            continue
        rel = max(abs(a - b) / b for a, b in zip(ds, periods_ns))
        roots = math.lcm(*ds) // ds[0]
        if rel <= max_rel and roots <= max_trees:
            chosen[ds] = (rel, roots, f"all periods rounded to {q / 1e6:g} ms")
            rounded += 1
    ranked = sorted(chosen.items(), key=lambda kv: (kv[1][0], kv[1][1]))[:limit]
    out = []
    for ds, (rel, roots, kind) in ranked:
        out.append(
            {
                "kind": kind,
                "periods_ns": {name: d for name, d in zip(names, ds)},
                "periods_ms": {name: d / 1e6 for name, d in zip(names, ds)},
                "max_relative_change": rel,
                "roots": roots,
                "hyperperiod_ms": math.lcm(*ds) / 1e6,
            }
        )
    return out
