"""Exact container-loss probability of a PTTS chain (thesis section 5.5, done completely).

Definition (physical). Every trigger of C0 at time r starts a container carrying "the data of
root r". A trigger of C_i (i >= 1) reads whatever was written last into its one-place input
buffer (non-destructive read), and writes its output, carrying the same data, ETP later
(destructive write; at equal instants the write of the later trigger is the last one). The data
of root r is *lost* when no trigger of the last component ever reads a container carrying it.
`loss_probability` is that probability averaged over the R roots of one hyper-period (each
weighted 1/R); the Monte Carlo simulator (`simulate.py`) measures exactly this event.

How it is computed. Follow the latency-tree path of root r (each container goes to the first
consumer trigger at or after its production, eq. 5.7) and the path of another root r'. While the
two paths are at different triggers they use different ETP draws, so they are independent; the
first time they reach the *same* consumer trigger, that trigger reads only the container written
last, and the other root's data is gone at that stage (it can never reappear, because from then
on both paths are the same triggers). So

    loss(r) = P(some other root r' reaches a common consumer trigger first-meeting r's path
               and its container is the one written last there).

A pair DP over (position of r, position of r') per hop gives this exactly: merges where r' wins
are lost mass; pairs that can no longer meet (their gap exceeds the remaining reach) are dropped.

*In-order chains* (every ETP width <= its own period, the normal case): productions keep trigger
order at every stage, so paths are monotone in the root and a root can only be overwritten by a
*later* root; if any later root overwrites r then r+d0 does too. Hence loss(r) is exactly the
probability that the paths of r and r+d0 meet, which is the physical loss above (stale re-reads
only duplicate data; they cannot rescue an overwritten container, because every copy of r at that
stage is older than the overwriting one). This is what the thesis computes for the pair (0, 200)
only; here every root of the hyper-period (including the wrap-around pair) contributes.

*Out-of-order chains* (some ETP wider than its period, so a later trigger can produce first):
a later root can be overwritten by an earlier one ("overtaking"), and several roots can compete.
The pair events are computed exactly for every pair within reach in both directions (the winner
at a meeting is the container written last, by production time) and summed over the partners.
That sum bounds the tree-model loss from above, but the tree model is itself not physical there
(stale re-reads of older data can be produced after newer data and overwrite it), so the value is
an estimate, reported with `exact = False`; the simulator measures the physical loss.

Two drivers share the pair step: per root (for the listing of the pairs that contribute most) and
per phase class (`quotient.py` reasoning: totals without enumerating roots).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np

from chainlab.ptts.grid import GridChain
from chainlab.ptts.hop import Hop
from chainlab.ptts.quotient import moduli

PAIR_ROW_BUDGET = 3_000_000


@dataclass
class LossResult:
    probability: float
    exact: bool
    by_stage: list[float]  # index i: lost at the input buffer of C_i (index 0 unused)
    shifts: list[int]  # partner roots considered, in units of d0 (r' = r + k d0)
    per_root: dict[int, np.ndarray] | None = None  # k -> P(root r lost to root r + k d0)
    pairs: list[dict] = field(default_factory=list)


def slack(chain: GridChain) -> list[int]:
    """slack[j]: the largest gap between two paths at stage j that can still close by the end."""
    n = chain.n
    s = [0] * n
    for j in range(n - 2, -1, -1):
        lo, hi = chain.hop_range(j)
        s[j] = s[j + 1] + (hi - lo)
    return s


def partner_shifts(chain: GridChain) -> list[int]:
    if chain.n < 2:
        return []
    kmax = slack(chain)[0] // chain.periods[0]
    if kmax < 1:
        return []
    if chain.all_in_order:
        return [1]
    return [k for k in range(-kmax, kmax + 1) if k != 0]


def _pair_hop(
    hop: Hop, in_order: bool, t: np.ndarray, t2: np.ndarray, w: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """One hop for pairs (t: path of r, t2: path of r'): lost mass of r per row and continuing pairs."""
    off1, pr1 = hop.lookup(t)
    off2, pr2 = hop.lookup(t2)
    v = t[:, None, None] + off1[:, :, None]
    v2 = t2[:, None, None] + off2[:, None, :]
    p = w[:, None, None] * pr1[:, :, None] * pr2[:, None, :]
    same = v == v2
    rows, c1, c2 = np.nonzero(same & (p > 0))
    if in_order:
        lost_e = np.where(t2[rows] > t[rows], p[rows, c1, c2], 0.0)
    else:
        lost_e = w[rows] * hop.overtake_mass(off1[rows, c1], (t - t2)[rows], t2[rows] > t[rows])
    lost = np.bincount(rows, weights=lost_e, minlength=len(t))
    cont = ~same & (p > 0)
    r2, k1, k2 = np.nonzero(cont)
    return lost, r2, v[r2, k1, 0], v2[r2, 0, k2], p[r2, k1, k2]


def _first_hop_table(
    chain: GridChain, hop: Hop, k: int, sl1: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The pair step of hop 0 for one representative root per phase class (memoised per phase).

    Returns lost mass per class and the surviving (class, b, b2, p) entries, sorted by class.
    """
    P = hop.phases
    phase = hop.c0 + hop.G * np.arange(P, dtype=np.int64)
    t = hop.O + phase  # a time with that phase
    lost, row, v, v2, p = _pair_hop(hop, chain.in_order(0), t, t + k * chain.periods[0], np.ones(P))
    keep = np.abs(v2 - v) <= sl1
    row, b, b2, p = row[keep], (v - t[row])[keep], (v2 - t[row])[keep], p[keep]
    order = np.argsort(row, kind="stable")
    row, b, b2, p = row[order], b[order], b2[order], p[order]
    counts = np.bincount(row, minlength=P)
    return lost, counts, b, b2, p


def per_root_loss(chain: GridChain, hops: list[Hop], shifts: list[int]) -> LossResult:
    R = chain.roots
    d0, o0 = chain.periods[0], chain.offsets[0]
    sl = slack(chain)
    by_stage = [0.0] * chain.n
    per_root: dict[int, np.ndarray] = {}
    chunk = PAIR_ROW_BUDGET
    hop0 = hops[0]
    for k in shifts:
        acc = np.zeros(R)
        table = None
        if hop0.table_off is not None:
            table = _first_hop_table(chain, hop0, k, sl[1])
            starts = np.concatenate([[0], np.cumsum(table[1])[:-1]])
        for first in range(0, R, chunk):
            idx = np.arange(first, min(R, first + chunk), dtype=np.int64)
            t = o0 + idx * d0
            if table is not None:
                lost_c, counts, tb, tb2, tp = table
                cls = ((t - hop0.O) % hop0.D) // hop0.G
                lost = lost_c[cls]
                acc[idx] += lost
                by_stage[1] += float(lost.sum())
                cnt = counts[cls]
                rows = np.repeat(np.arange(len(idx)), cnt)
                ent = np.repeat(starts[cls] - np.concatenate([[0], np.cumsum(cnt)[:-1]]), cnt) + np.arange(
                    int(cnt.sum())
                )
                t, t2, w, idx = t[rows] + tb[ent], t[rows] + tb2[ent], tp[ent], idx[rows]
                rest = list(enumerate(hops))[1:]
            else:
                t2 = t + k * d0
                w = np.ones(len(t))
                rest = list(enumerate(hops))
            for i, hop in rest:
                if len(t) == 0:
                    break
                lost, row, v, v2, p = _pair_hop(hop, chain.in_order(i), t, t2, w)
                if lost.any():
                    acc += np.bincount(idx, weights=lost, minlength=R)
                    by_stage[i + 1] += float(lost.sum())
                keep = np.abs(v2 - v) <= sl[i + 1]
                t, t2, w, idx = v[keep], v2[keep], p[keep], idx[row[keep]]
        per_root[k] = acc
    total = sum(per_root.values()) if per_root else np.zeros(R)
    if not chain.all_in_order and per_root:
        total = np.minimum(total, 1.0)
    prob = float(np.sum(total) / R) if R else 0.0
    result = LossResult(prob, chain.all_in_order or not shifts, [x / R for x in by_stage], shifts, per_root)
    result.pairs = top_pairs(chain, per_root)
    return result


def quotient_loss(chain: GridChain, hops: list[Hop], shifts: list[int]) -> LossResult:
    """The same totals, with roots replaced by phase classes (no per-root listing)."""
    _, H = moduli(chain)
    sl = slack(chain)
    d0 = chain.periods[0]
    by_stage = [0.0] * chain.n
    total = 0.0
    # all partners at once: pair states with equal (class, gap) have equal futures, so merging them is exact
    cls = np.full(len(shifts), chain.offsets[0] % H[0], dtype=np.int64)
    delta = np.asarray(shifts, dtype=np.int64) * d0
    w = np.ones(len(shifts))
    if len(shifts):
        for i, hop in enumerate(hops):
            d, h, h_next = chain.periods[i + 1], H[i], H[i + 1]
            g = math.gcd(h, d)
            m = d // g
            n_y = m
            span = h * m
            inv = pow((h // g) % m, -1, m) if m > 1 else 0
            ys = (cls % g)[:, None] + g * np.arange(n_y, dtype=np.int64)[None, :]
            kk = (((ys - cls[:, None]) // g) % max(m, 1)) * inv % max(m, 1)
            z = ((cls[:, None] + h * kk) % span).ravel()
            dl = np.repeat(delta, n_y)
            ww = np.repeat(w, n_y) / n_y
            lost, _row, v, v2, p = _pair_hop(hop, chain.in_order(i), z, z + dl, ww)
            s = float(lost.sum())
            total += s
            by_stage[i + 1] += s
            keep = np.abs(v2 - v) <= sl[i + 1]
            if not keep.any():
                break
            c_new = v[keep] % h_next
            d_new = (v2 - v)[keep]
            p_new = p[keep]
            order = np.lexsort((d_new, c_new))
            c_new, d_new, p_new = c_new[order], d_new[order], p_new[order]
            start = np.flatnonzero(np.r_[True, (c_new[1:] != c_new[:-1]) | (d_new[1:] != d_new[:-1])])
            cls, delta, w = c_new[start], d_new[start], np.add.reduceat(p_new, start)
    return LossResult(min(1.0, total), chain.all_in_order or not shifts, by_stage, shifts, None)


def top_pairs(chain: GridChain, per_root: dict[int, np.ndarray], limit: int = 10) -> list[dict]:
    R = chain.roots
    d0, o0, u = chain.periods[0], chain.offsets[0], chain.unit_ns
    cands: list[tuple[float, int, int]] = []
    for k, arr in per_root.items():
        nz = np.flatnonzero(arr)
        if len(nz) > limit:
            nz = nz[np.argpartition(-arr[nz], limit)[:limit]]
        cands.extend((float(arr[r]), int(r), k) for r in nz)
    cands.sort(key=lambda c: (-c[0], c[1], c[2]))
    out = []
    for p, r, k in cands[:limit]:
        t = o0 + r * d0
        out.append(
            {
                "root_ms": t * u / 1e6,
                "overwritten_by_ms": (t + k * d0) * u / 1e6,
                "probability": p,
                "contribution": p / R,
            }
        )
    return out
