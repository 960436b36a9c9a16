"""Step c of the tool flow (thesis §3.4.3): where every buffer lives in one arena.

- simple: a separate range per buffer, one after the other (Appendix A: m0, m2, m4 at 0, 262144,
  524288; 786432 B).
- reuse: an interference graph says which buffers may be live at the same time; then first fit
  places each buffer at the lowest offset that overlaps no interfering buffer already placed. Two
  placement orders are tried, largest first (TFLite Micro's greedy-by-size planner) and schedule
  order (the thesis' "first region of the free list"), and the smaller arena wins.

Two notions of "may be live at the same time" meet here:
- happens-before (`hb.py`, `interference`): buffers A and B are ordered whatever the execution
  times if every access of A in an iteration happens before every write of B in that iteration
  AND every access of B happens before A is written again in the next iteration (or the same with
  A and B swapped). The second half covers lifetimes that wrap into the next iteration.
- the schedule (`time_interference`): in the nominal steady-state timeline A's lifetime ends before
  B's starts and B's ends before A's next one (with a margin of one signal latency).
Reuse allocates against pairs that interfere in BOTH senses: pairs ordered only by the schedule
may share memory, and `sync.enforce_sharing` then adds the "reuse" signals that make the
schedule's order binding (so sharing stays safe whatever the execution times). With
`reuse_sync=False` only happens-before-ordered buffers share and no signal is added.

The lower bound is the weight of a clique of the interference graph: buffers that pairwise
interfere must occupy disjoint ranges in any allocation, so no arena is smaller. It is exact
(maximum-weight clique, networkx) for up to `EXACT_CLIQUE_LIMIT` buffers; above, the best of
the buffers live together at the peak of the nominal timeline (which pairwise interfere, as any
valid execution shows) and greedy clique extensions, which is still a valid lower bound.
"""

from __future__ import annotations

import networkx as nx
import numpy as np

from chainlab.plan.hb import HbGraph
from chainlab.plan.model import Allocation, Instantiation
from chainlab.plan.options import CACHE_LINE

HUGE_PAGE = 2 * 1024 * 1024
EXACT_CLIQUE_LIMIT = 48


def align_up(value: int, alignment: int) -> int:
    return -(-value // alignment) * alignment


def allocate_simple(sizes: list[int]) -> list[int]:
    offsets, at = [], 0
    for size in sizes:
        offsets.append(at)
        at += size
    return offsets


def first_fit(
    sizes: list[int], neighbours: list[list[int]] | np.ndarray, order: list[int], alignment: int = 1
) -> list[int]:
    """Place buffers in `order` at the lowest aligned offset free of every placed neighbour."""
    n = len(sizes)
    if not isinstance(neighbours, np.ndarray):
        matrix = np.zeros((n, n), dtype=bool)
        for b, ns in enumerate(neighbours):
            matrix[b, list(ns)] = True
        neighbours = matrix | matrix.T
    size = np.asarray(sizes, dtype=np.int64)
    offset = np.full(n, -1, dtype=np.int64)
    placed = np.zeros(n, dtype=bool)
    for b in order:
        mask = placed & neighbours[b]
        lo = offset[mask]
        if len(lo) == 0:
            at = 0
        else:
            hi = lo + size[mask]
            idx = np.argsort(lo, kind="stable")
            lo, hi = lo[idx], hi[idx]
            reach = np.maximum.accumulate(hi)
            cand = np.concatenate(([0], -(-reach // alignment) * alignment))
            nxt = np.concatenate((lo, [np.iinfo(np.int64).max]))
            fits = np.nonzero(cand + size[b] <= nxt)[0]
            at = int(cand[fits[0]])
        offset[b] = at
        placed[b] = True
    return [int(o) for o in offset]


def greedy_by_size(buffers: list[tuple[int, int, int]]) -> tuple[list[int], int]:
    """TFLite Micro's GreedyMemoryPlanner semantics: buffers (size, first, last) with inclusive lifetimes,
    largest first, first fit. Returns (offsets, peak)."""
    n = len(buffers)
    neighbours = np.array(
        [
            [a != b and buffers[a][1] <= buffers[b][2] and buffers[b][1] <= buffers[a][2] for a in range(n)]
            for b in range(n)
        ],
        dtype=bool,
    ).reshape(n, n)
    order = sorted(range(n), key=lambda b: (-buffers[b][0], b))
    sizes = [size for size, _, _ in buffers]
    offsets = first_fit(sizes, neighbours, order)
    return offsets, max((o + s for o, s in zip(offsets, sizes)), default=0)


def interference(inst: Instantiation, hb: HbGraph) -> np.ndarray:
    """Symmetric boolean matrix: True where two buffers may be live at the same time."""
    nb = len(inst.writers)
    if nb == 0:
        return np.zeros((0, 0), dtype=bool)
    n_events = hb.n * hb.iterations
    width = (n_events + 7) // 8
    access = [sorted(set(inst.writers[b]) | set(inst.readers[b])) for b in range(nb)]
    rows = np.zeros((nb, width * 8 + 1), dtype=bool)
    full = (1 << n_events) - 1
    for b in range(nb):
        d = full
        for a in access[b]:
            d &= hb.desc[hb.event(a, 0)]
        rows[b, : width * 8] = np.unpackbits(
            np.frombuffer(d.to_bytes(width, "little"), dtype=np.uint8), bitorder="little"
        )
    rows[:, -1] = True  # padding column
    pad = width * 8
    wmax = max(len(w) for w in inst.writers)
    w0 = np.full((nb, wmax), pad, dtype=np.int64)
    w1 = np.full((nb, wmax), pad, dtype=np.int64)
    for b, ws in enumerate(inst.writers):
        w0[b, : len(ws)] = [hb.event(w, 0) for w in ws]
        w1[b, : len(ws)] = [hb.event(w, 1) for w in ws]
    # before[a, b]: accesses of a (iteration i) happen before the writes of b (iteration i)
    before = np.empty((nb, nb), dtype=bool)
    wrap = np.empty((nb, nb), dtype=bool)
    for b in range(nb):
        before[:, b] = rows[:, w0[b]].all(axis=1)
        wrap[:, b] = rows[:, w1[b]].all(axis=1)
    ordered = (before & wrap.T) | (before.T & wrap)
    inter = ~ordered
    np.fill_diagonal(inter, False)
    return inter


def clique_lower_bound(
    weights: list[int], inter: np.ndarray, seeds: list[list[int]], exact_limit: int = EXACT_CLIQUE_LIMIT
) -> tuple[int, list[int], bool]:
    """(weight, members, exact) of a heavy clique of the interference graph."""
    n = len(weights)
    if n == 0:
        return 0, [], True
    w = np.asarray(weights, dtype=np.int64)
    if n <= exact_limit:
        g = nx.Graph()
        for b in range(n):
            g.add_node(b, weight=int(w[b]))
        rows, cols = np.nonzero(np.triu(inter, 1))
        g.add_edges_from(zip(rows.tolist(), cols.tolist()))
        members, weight = nx.max_weight_clique(g, weight="weight")
        return int(weight), sorted(members), True
    best: tuple[int, list[int]] = (0, [])

    def extend(clique: list[int]) -> list[int]:
        clique = list(clique)
        cand = np.ones(n, dtype=bool)
        for c in clique:
            cand &= inter[c]
        while cand.any():
            pick = int(np.argmax(np.where(cand, w, -1)))
            clique.append(pick)
            cand &= inter[pick]
        return clique

    starts: list[list[int]] = []
    for seed in seeds:
        clique: list[int] = []
        for b in sorted(seed, key=lambda b: -w[b]):
            if all(inter[b, c] for c in clique):
                clique.append(b)
        starts.append(clique)
    starts.extend([[int(b)] for b in np.argsort(-w, kind="stable")[:32]])
    for start in starts:
        clique = extend(start)
        weight = int(w[clique].sum())
        if weight > best[0]:
            best = (weight, sorted(clique))
    return best[0], best[1], False


def allocate(
    inst: Instantiation,
    buffer_bytes: list[int],
    kind: str,
    *,
    inter: np.ndarray,
    alignment: int = CACHE_LINE,
    huge_pages: bool = False,
    schedule_order: list[int] | None = None,
    seeds: list[list[int]] | None = None,
) -> Allocation:
    sizes = [align_up(b, alignment) for b in buffer_bytes]
    total = sum(sizes)
    lb, _, exact = clique_lower_bound(sizes, inter, seeds or [])
    edges = int(np.triu(inter, 1).sum())
    if kind == "simple":
        offsets, order_name = allocate_simple(sizes), "declaration"
    else:
        neighbours = inter
        by_size = sorted(range(len(sizes)), key=lambda b: (-sizes[b], b))
        candidates = [("size", first_fit(sizes, neighbours, by_size, alignment))]
        if schedule_order is not None:
            candidates.append(("schedule", first_fit(sizes, neighbours, schedule_order, alignment)))
        order_name, offsets = min(candidates, key=lambda c: max((o + s for o, s in zip(c[1], sizes)), default=0))
    arena = max((o + s for o, s in zip(offsets, sizes)), default=0)
    if huge_pages:
        arena = align_up(arena, HUGE_PAGE)
    return Allocation(kind, offsets, sizes, arena, lb, exact, total, alignment, huge_pages, order_name, edges)


def lifetimes(
    inst: Instantiation, start: np.ndarray, finish: np.ndarray, k: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(first write start in iteration k, last access end in iteration k, first write start in k + 1) per buffer,
    from a nominal timeline (start/finish: (iterations, n_subs))."""
    nb = len(inst.writers)
    s = np.empty(nb)
    e = np.empty(nb)
    s_next = np.empty(nb)
    for b, (ws, rs) in enumerate(zip(inst.writers, inst.readers)):
        acc = list(set(ws) | set(rs))
        s[b] = start[k, ws].min()
        e[b] = finish[k, acc].max()
        s_next[b] = start[k + 1, ws].min()
    return s, e, s_next


def time_interference(s: np.ndarray, e: np.ndarray, s_next: np.ndarray, margin: float) -> tuple[np.ndarray, np.ndarray]:
    """(interferes, a_first): buffers a and b do NOT interfere in the nominal timeline when, in steady state,
    a's lifetime ends (plus `margin`) before b's starts and b's ends before a's next one starts, or the
    other way round; a_first[a, b] says a comes first."""
    a_first = ((e[:, None] + margin) <= s[None, :]) & ((e[None, :] + margin) <= s_next[:, None])
    ordered = a_first | a_first.T
    inter = ~ordered
    np.fill_diagonal(inter, False)
    return inter, a_first
