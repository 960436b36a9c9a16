"""Happens-before between sub-box executions of successive iterations, from the plan's structure.

What a plan guarantees regardless of execution times: sub-box u of iteration i finishes before
sub-box v of iteration j starts if a chain of program order (the threads' static orders, which
wrap into the next iteration), signals (sender's sub-box before receiver's, `initial_tokens`
iterations later) and barriers connects them. Memory reuse is only safe between buffers ordered
this way, and signal pruning removes the signals this relation already implies.

Events are (iteration, sub-box) in a window of `iterations` iterations unrolled; a barrier is an
extra event per iteration. Reachability sets are Python ints used as bitsets (C speed per OR).
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass

import networkx as nx

from chainlab.plan.model import Signal


@dataclass
class HbGraph:
    n: int  # events per iteration (sub-boxes, plus one barrier event if any)
    iterations: int
    succ: list[list[int]]  # over unrolled events (iteration * n + x)
    desc: list[int]  # bitset of events each event happens before (itself excluded)

    def event(self, x: int, iteration: int) -> int:
        return iteration * self.n + x

    def before(self, u: int, iu: int, v: int, iv: int) -> bool:
        return bool((self.desc[self.event(u, iu)] >> self.event(v, iv)) & 1)


def edges_per_iteration(
    orders: list[list[int]], signals: list[Signal], n_subs: int, barrier: bool, skip: set[int] | None = None
) -> list[tuple[int, int, int]]:
    """(u, v, d): event u of iteration i happens before event v of iteration i + d."""
    edges: list[tuple[int, int, int]] = []
    for order in orders:
        for a, b in itertools.pairwise(order):
            edges.append((a, b, 0))
        if order and not barrier:
            edges.append((order[-1], order[0], 1))
    for s in signals:
        if skip and s.id in skip:
            continue
        edges.append((s.src, s.dst, s.initial_tokens))
    if barrier:
        bar = n_subs
        for order in orders:
            if order:
                edges.append((order[-1], bar, 0))
                edges.append((bar, order[0], 1))
    return edges


def build_hb(
    orders: list[list[int]], signals: list[Signal], n_subs: int, barrier: bool, iterations: int = 2
) -> HbGraph:
    n = n_subs + (1 if barrier else 0)
    edges = edges_per_iteration(orders, signals, n_subs, barrier)
    max_d = max((d for _, _, d in edges), default=0)
    if max_d > 1:
        raise ValueError("signals with more than one initial token are not supported")
    total = n * iterations
    succ: list[list[int]] = [[] for _ in range(total)]
    for i in range(iterations):
        for u, v, d in edges:
            if i + d < iterations:
                succ[i * n + u].append((i + d) * n + v)
    # Topological order of one iteration's same-iteration edges; iterations only go forward.
    g = nx.DiGraph()
    g.add_nodes_from(range(n))
    g.add_edges_from((u, v) for u, v, d in edges if d == 0)
    try:
        local = list(nx.topological_sort(g))
    except nx.NetworkXUnfeasible as error:
        raise DeadlockError("the plan's program order and signals form a cycle within one iteration") from error
    desc = [0] * total
    for i in reversed(range(iterations)):
        base = i * n
        for x in reversed(local):
            e = base + x
            acc = 0
            for w in succ[e]:
                acc |= desc[w] | (1 << w)
            desc[e] = acc
    return HbGraph(n, iterations, succ, desc)


class DeadlockError(Exception):
    """Internal: the planner built a plan that cannot run (a bug, never the user's fault)."""


def redundant_signals(
    orders: list[list[int]], signals: list[Signal], n_subs: int, barrier: bool, candidates: set[int] | None = None
) -> set[int]:
    """Signals (among `candidates`, default all) whose ordering is already implied by other edges: the
    transitive reduction restricted to signals. Removing all of them at once keeps happens-before
    unchanged because the unrolled graph is acyclic."""
    hb = build_hb(orders, signals, n_subs, barrier, iterations=2)
    by_event: dict[int, list[Signal]] = {}
    for s in signals:
        if candidates is None or s.id in candidates:
            by_event.setdefault(hb.event(s.src, 0), []).append(s)
    out: set[int] = set()
    for u, sigs in by_event.items():
        succ = hb.succ[u]
        reach = [hb.desc[w] | (1 << w) for w in succ]
        # prefix[i] = OR of reach[:i], suffix[i] = OR of reach[i:]
        prefix = [0] * (len(reach) + 1)
        for i, r in enumerate(reach):
            prefix[i + 1] = prefix[i] | r
        suffix = [0] * (len(reach) + 1)
        for i in range(len(reach) - 1, -1, -1):
            suffix[i] = suffix[i + 1] | reach[i]
        position: dict[int, int] = {}
        for i, w in enumerate(succ):
            position.setdefault(w, i)
        for s in sigs:
            target = hb.event(s.dst, s.initial_tokens)
            i = position[target]
            others = prefix[i] | suffix[i + 1]
            if (others >> target) & 1:
                out.add(s.id)
    return out
