"""The exact latency distribution of one chain at many offsets of one component, in one pass over the offsets.

Neighbouring points of a sweep differ in one component's offset only. The hops that do not touch that component
(`j`) are the same for all of them, so the per-root expansion runs them once and carries the offsets as an extra
axis of its rows from hop j-1 on (the quotient method, from its last hop on, for j the last component). The hops
that touch component j differ in their phase class between offsets, so they are looked up in tables over every
phase (`phase_hop`): a phase's row holds the same non-zero entries, in the same order, as the row of its class's
table, so every offset gets the same rows, in the same order, as its own analysis, and the same sums of the same
numbers in the same order: the distributions are the same bit for bit (tests/ptts/test_offset_vector.py).
Everything the offsets share (the grid unit, the method) is the caller's to group by (ptts/offset_runs.py).
"""

from __future__ import annotations

import math

import numpy as np

from chainlab.ptts.dist import DENSE_LIMIT, Distribution
from chainlab.ptts.exact import ROW_BUDGET, age_bins, age_rows_at, dense_latencies, grow
from chainlab.ptts.grid import GridChain
from chainlab.ptts.hop import Hop
from chainlab.ptts.quotient import Sparse, class_kernels, class_latency, class_times, conv, first_classes, merged

KERNEL_BINS = 4_000_000  # offsets x kernel bins summed at once (32 MB of float64)


def phase_hop(chain: GridChain, i: int) -> Hop:
    """Hop i for producer triggers of every phase (one class): look it up at t - consumer offset."""
    return Hop(1, 0, chain.periods[i + 1], 0, chain.etp_values[i], chain.etp_probs[i], chain.production_first)


def per_root_over_offsets(
    chain: GridChain, hops: list[Hop], j: int, offsets: np.ndarray, phase_hops: dict[int, Hop]
) -> list[Distribution] | None:
    """`exact.exact_latency(...).distribution` of the chain with each of `offsets` (grid units) for component j.

    chain, hops: the chain at any one of the offsets (hops j-1 and j are not used); phase_hops: `phase_hop` of
    hops j-1 and j. None where an offset's own analysis would not sum its ages in one dense pass (its roots
    expanded in several chunks, or too many age bins): the caller analyses those points one by one.
    """
    lo, step, size = age_bins(chain)
    widest = math.prod(phase_hops.get(i, h).K for i, h in enumerate(hops))
    rows = chain.roots * widest  # an upper bound of each offset's rows (the phase tables are the widest)
    if rows > ROW_BUDGET or size > DENSE_LIMIT:
        return None
    per = max(1, min(ROW_BUDGET // rows, DENSE_LIMIT // size))
    out: list[Distribution] = []
    for first in range(0, len(offsets), per):
        out += _per_root_part(chain, hops, j, offsets[first : first + per], phase_hops, (lo, step, size))
    return out


def _per_root_part(
    chain: GridChain,
    hops: list[Hop],
    j: int,
    offsets: np.ndarray,
    phase_hops: dict[int, Hop],
    bins: tuple[int, int, int],
) -> list[Distribution]:
    m = len(offsets)
    if j == 0:
        n = np.arange(chain.roots, dtype=np.int64)
        t = (offsets[:, None] + n[None, :] * chain.periods[0]).ravel()
        age, w = np.zeros(len(t), dtype=np.int64), np.ones(len(t))
        tag = np.repeat(np.arange(m), chain.roots)
    else:  # the hops before component j are the same for every offset: once, then one copy per offset
        t, age, w = age_rows_at(chain, hops[: j - 1])
        tag = np.repeat(np.arange(m), len(t))
        t, age, w = np.tile(t, m), np.tile(age, m), np.tile(w, m)
    for i in range(max(j - 1, 0), chain.n - 1):
        if i == j - 1:  # consumer offset of each row's own point
            off, pr = phase_hops[i].lookup(t - offsets[tag])
        elif i == j:
            off, pr = phase_hops[i].lookup(t - chain.offsets[i + 1])
        else:
            off, pr = hops[i].lookup(t)
        t, age, w, tagged = grow(t, age, w, tag, off, pr)
        assert tagged is not None
        tag = tagged
    lo, step, size = bins
    firsts = offsets if j == 0 else np.full(m, chain.offsets[0])
    lasts = offsets if j == chain.n - 1 else np.full(m, chain.offsets[-1])
    residue = (lasts - firsts - lo) % step
    dense = np.bincount(tag * size + (age - lo) // step, weights=w, minlength=m * size).reshape(m, size)
    return dense_latencies(chain, dense, lo + residue, step)


def quotient_over_last_offsets(
    chain: GridChain, hops: list[Hop], offsets: np.ndarray, last_hop: Hop
) -> list[Distribution]:
    """`quotient.quotient_latency` of the chain with each of `offsets` (grid units) for its last component.

    chain, hops: the chain at any one of the offsets (the last hop is not used); last_hop: `phase_hop` of it.
    The stages before the last hop are computed once; the last hop's kernels of all offsets in one sum.
    """
    i = chain.n - 2
    H, classes = first_classes(chain, hops, i)
    d, h = chain.periods[i + 1], H[i]
    n_y = d // math.gcd(h, d)
    sources: list[Sparse] = []
    kernels: list[list[Sparse]] = [[] for _ in offsets]
    for c, dist in classes.items():
        for z in class_times(c, h, d):
            sources.append(dist)
            for v, kernel in enumerate(_last_kernels(z, offsets, last_hop, n_y)):
                kernels[v].append(kernel)
    # Offsets whose kernels are the same bits share the rest (each kernel bin holds one phase's entry, so offsets
    # that cover the same phases, e.g. those a multiple of gcd(H, d) apart, have the same kernels)
    done: dict[tuple[bytes, ...], Distribution] = {}
    out = []
    for ks in kernels:
        key = tuple(b for k in ks for b in (k[0].tobytes(), k[1].tobytes()))
        found = done.get(key)
        if found is None:
            parts = [conv(dist, k) for dist, k in zip(sources, ks)]
            found = done[key] = class_latency(chain, {0: merged(parts)})  # the last stage has one class (H = 1)
        out.append(found)
    return out


def _last_kernels(z: np.ndarray, offsets: np.ndarray, hop: Hop, n_y: int) -> list[Sparse]:
    """`quotient.class_kernels` of the last hop (one target class) for each offset, summed in one bincount."""
    per = max(1, KERNEL_BINS // max(1, len(z) * hop.K))
    if len(offsets) > per:
        return [k for s in range(0, len(offsets), per) for k in _last_kernels(z, offsets[s : s + per], hop, n_y)]
    m = len(offsets)
    off, prob = hop.lookup((z[None, :] - offsets[:, None]).ravel())
    b = off.reshape(m, -1)
    w = prob.reshape(m, -1) / n_y
    keep = w > 0
    tag = np.repeat(np.arange(m), keep.sum(axis=1))
    b, w = b[keep], w[keep]
    if len(b) == 0 or m * (int(b.max()) - int(b.min()) + 1) > KERNEL_BINS:
        return [next(class_kernels(z, *hop.lookup(z - o), n_y, 1))[1] for o in offsets.tolist()]
    lo = int(b.min())
    bins = int(b.max()) - lo + 1
    sums = np.bincount(tag * bins + (b - lo), weights=w, minlength=m * bins).reshape(m, bins)
    out = []
    for v in range(m):
        nz = np.flatnonzero(sums[v])
        out.append((lo + nz.astype(np.int64), sums[v, nz]))
    return out
