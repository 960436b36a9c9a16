"""Exact end-to-end latency distribution of a PTTS chain (thesis eqs. 5.6-5.12).

The forest of latency trees (one per C0 trigger in the hyper-period, eq. 5.11) is expanded
breadth-first for all roots at once as numpy rows (trigger time, age, probability): each hop
gathers the phase table of `hop.Hop` (eq. 5.7/5.8), so every tree node costs a few vectorised
integer operations. Flattening (eq. 5.12) is a weighted bincount of the age at the last
component's trigger; the last component's own ETP (function W, eq. 5.10) is convolved in once,
after aggregation, instead of once per leaf. Each root carries weight 1/R.

Exactness: every probability is a product of sums of ETP masses (float64), every time is an
integer on the analysis grid; nothing is sampled, binned or truncated.
"""

from __future__ import annotations

import itertools
import math
from dataclasses import dataclass

import numpy as np

from chainlab.ptts.dist import DENSE_LIMIT, Distribution, accumulate, convolve
from chainlab.ptts.grid import GridChain
from chainlab.ptts.hop import Hop

ROW_BUDGET = 6_000_000  # rows expanded at once (bounds memory to a few hundred MB)


@dataclass(frozen=True, eq=False)
class RootLatency:
    root_index: int
    root_ns: int
    values_ns: np.ndarray
    probs: np.ndarray


@dataclass(frozen=True, eq=False)
class ExactLatency:
    distribution: Distribution
    per_root: list[RootLatency] | None


def _expand(
    t: np.ndarray, age: np.ndarray, w: np.ndarray, idx: np.ndarray | None, hop: Hop
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    return grow(t, age, w, idx, *hop.lookup(t))


def grow(
    t: np.ndarray, age: np.ndarray, w: np.ndarray, idx: np.ndarray | None, off: np.ndarray, pr: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None]:
    """Every row (trigger time, age, probability, tag) times the columns of its hop look-up (off, pr), rows of
    probability 0 dropped: a row's children stay in the order of its columns, rows in their order."""
    K = off.shape[1]
    t2 = (t[:, None] + off).ravel()
    age2 = (age[:, None] + off).ravel()
    w2 = (w[:, None] * pr).ravel()
    idx2 = np.repeat(idx, K) if idx is not None else None
    keep = w2 > 0
    if not keep.all():
        t2, age2, w2 = t2[keep], age2[keep], w2[keep]
        if idx2 is not None:
            idx2 = idx2[keep]
    return t2, age2, w2, idx2


def _chunk_size(chain: GridChain, hops: list[Hop]) -> int:
    growth = 1
    for hop in hops:
        growth *= hop.K
    return max(1, ROW_BUDGET // max(1, growth))


def age_rows(
    chain: GridChain, hops: list[Hop], first: int, count: int, with_index: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """Rows (age at the last component's trigger, probability, root index) for roots first..first+count-1."""
    n = np.arange(first, first + count, dtype=np.int64)
    t = chain.offsets[0] + n * chain.periods[0]
    age = np.zeros(len(t), dtype=np.int64)
    w = np.ones(len(t))
    idx = n if with_index else None
    for hop in hops:
        t, age, w, idx = _expand(t, age, w, idx, hop)
    return age, w, idx


def age_rows_at(chain: GridChain, hops: list[Hop]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Rows (trigger time, age, probability) of every root after `hops` (the first hops of the chain)."""
    t = chain.offsets[0] + np.arange(chain.roots, dtype=np.int64) * chain.periods[0]
    age = np.zeros(len(t), dtype=np.int64)
    w = np.ones(len(t))
    for hop in hops:
        t, age, w, _ = _expand(t, age, w, None, hop)
    return t, age, w


def age_bins(chain: GridChain) -> tuple[int, int, int]:
    """(lo, step, size): the ages at the last component's trigger lie on lo + residue + step * [0, size), whatever
    the offsets (residue: of the first and last offsets, see exact_latency)."""
    last = chain.n - 1
    step = math.gcd(chain.periods[0], chain.periods[last])
    lo = sum(chain.hop_range(i)[0] for i in range(last))
    span = sum(chain.hop_range(i)[1] - chain.hop_range(i)[0] for i in range(last))
    lo -= step  # slack for the residue of offsets
    span += 2 * step
    return lo, step, span // step + 1


def _latency(chain: GridChain, age_v: np.ndarray, age_w: np.ndarray) -> Distribution:
    """The age distribution (summed over the roots) averaged over them, the last component's ETP convolved in."""
    return _averaged_latency(chain, age_v, age_w / chain.roots)


def _averaged_latency(chain: GridChain, age_v: np.ndarray, age_w: np.ndarray) -> Distribution:
    last = chain.n - 1
    lat_v, lat_w = convolve(age_v, age_w, chain.etp_values[last], chain.etp_probs[last])
    return Distribution(lat_v * chain.unit_ns, lat_w)


def dense_latency(chain: GridChain, dense: np.ndarray, base: int, step: int) -> Distribution:
    """`_latency` of ages summed into bins base + step * k."""
    nz = np.flatnonzero(dense)
    return _latency(chain, base + nz.astype(np.int64) * step, dense[nz])


def dense_latencies(chain: GridChain, dense: np.ndarray, bases: np.ndarray, step: int) -> list[Distribution]:
    """`dense_latency` of every row of `dense` (bins bases[row] + step * k), the element-wise steps for all rows
    at once: the same numbers, so the same bits."""
    rows, cols = np.nonzero(dense)
    age_v = bases[rows] + cols.astype(np.int64) * step
    age_w = dense[rows, cols] / chain.roots
    bounds = np.concatenate([[0], np.cumsum(np.bincount(rows, minlength=len(dense)))])
    last = chain.n - 1
    if len(chain.etp_values[last]) > 1:
        return [_averaged_latency(chain, age_v[s:e], age_w[s:e]) for s, e in itertools.pairwise(bounds.tolist())]
    lat_v, lat_w = convolve(age_v, age_w, chain.etp_values[last], chain.etp_probs[last])  # a shift: row by row
    lat_v = lat_v * chain.unit_ns
    return [Distribution(lat_v[s:e], lat_w[s:e]) for s, e in itertools.pairwise(bounds.tolist())]


def exact_latency(chain: GridChain, hops: list[Hop], per_root: bool = False) -> ExactLatency:
    R = chain.roots
    last = chain.n - 1
    lo, step, size = age_bins(chain)
    dense = np.zeros(size) if size <= DENSE_LIMIT else None
    sparse_v: list[np.ndarray] = []
    sparse_w: list[np.ndarray] = []
    root_parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]] = []
    residue = (chain.offsets[last] - chain.offsets[0] - lo) % step
    chunk = _chunk_size(chain, hops)
    for first in range(0, R, chunk):
        count = min(chunk, R - first)
        age, w, idx = age_rows(chain, hops, first, count, per_root)
        if dense is not None:
            dense += np.bincount((age - lo) // step, weights=w, minlength=size)
        else:
            a, b = accumulate(age, w, step)
            sparse_v.append(a)
            sparse_w.append(b)
        if per_root and idx is not None:
            root_parts.append((idx, age, w))
    if dense is not None:
        dist = dense_latency(chain, dense, lo + residue, step)
    else:
        age_v, age_w = accumulate(np.concatenate(sparse_v), np.concatenate(sparse_w), step)
        dist = _latency(chain, age_v, age_w)
    roots = None
    if per_root:
        roots = _per_root(chain, root_parts)
    return ExactLatency(dist, roots)


def _per_root(chain: GridChain, parts: list[tuple[np.ndarray, np.ndarray, np.ndarray]]) -> list[RootLatency]:
    idx = np.concatenate([p[0] for p in parts])
    age = np.concatenate([p[1] for p in parts])
    w = np.concatenate([p[2] for p in parts])
    order = np.lexsort((age, idx))
    idx, age, w = idx[order], age[order], w[order]
    # merge equal (root, age) rows
    new = np.ones(len(idx), dtype=bool)
    new[1:] = (idx[1:] != idx[:-1]) | (age[1:] != age[:-1])
    starts = np.flatnonzero(new)
    w = np.add.reduceat(w, starts)
    idx, age = idx[starts], age[starts]
    bounds = np.flatnonzero(np.r_[True, idx[1:] != idx[:-1], True])
    last = chain.n - 1
    out: list[RootLatency] = []
    for s, e in itertools.pairwise(bounds):
        v, p = convolve(age[s:e], w[s:e], chain.etp_values[last], chain.etp_probs[last])
        r = int(idx[s])
        out.append(RootLatency(r, (chain.offsets[0] + r * chain.periods[0]) * chain.unit_ns, v * chain.unit_ns, p))
    return out
