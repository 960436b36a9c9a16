"""The aggregated exact latency distribution without enumerating the roots one by one.

The forest of eq. 5.11 averages the flattened trees of all R = h/d0 roots with equal weight.
A subtree hanging below a trigger of C_i depends only on its time modulo
M_i = lcm(d_{i+1}, ..., d_{N-1}), and the roots' times modulo M_0 are *uniform* on the coset
o_0 + gcd(d0, M_0) Z (mod M_0). This uniformity survives each hop in a precise sense:

    if T_i mod M_i is uniform on a coset c + H_i Z, then y = T_i mod d_{i+1} is uniform on
    n_y = d_{i+1} / gcd(H_i, d_{i+1}) values; given y, T_i is uniform on a coset of
    lcm(H_i, d_{i+1}) Z; so given y and the consumer offset b, T_{i+1} = T_i + b is uniform
    modulo M_{i+1} on a coset of H_{i+1} Z with H_{i+1} = gcd(lcm(H_i, d_{i+1}), M_{i+1}).

So the state after each hop is a *class* c in Z_{H_i} (not a trigger time), carrying the
distribution of the age accumulated so far; hops are small convolutions of those age
distributions with per-class kernels built from the `hop.Hop` phase tables (eq. 5.7). This
is an exact regrouping of the sum over all trees (no sampling, no approximation); for co-prime
periods (e.g. Table 5.1 c: 1,388,611 trees) it collapses to a single class per stage.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterator

import numpy as np

from chainlab.ptts.dist import Distribution, accumulate, convolve
from chainlab.ptts.grid import GridChain
from chainlab.ptts.hop import Hop

Sparse = tuple[np.ndarray, np.ndarray]
INT64_SAFE = 2**62  # time arithmetic stays far from int64 overflow
INFEASIBLE = 10**30
Y_CHUNK = 1 << 20


def moduli(chain: GridChain) -> tuple[list[int], list[int]]:
    """M_i (future-relevant modulus) and H_i (class modulus) for every stage."""
    n = chain.n
    M = [1] * n
    for i in range(n - 2, -1, -1):
        M[i] = math.lcm(chain.periods[i + 1], M[i + 1])
    H = [math.gcd(chain.periods[0], M[0])]
    for i in range(n - 1):
        H.append(math.gcd(math.lcm(H[i], chain.periods[i + 1]), M[i + 1]))
    return M, H


def quotient_cost(chain: GridChain, hops: list[Hop]) -> int:
    """Estimated work of the quotient method (kernel entries + convolutions + per-class overhead).

    Used to choose between methods and to refuse work; in "row operations" like `per_root_rows`.
    """
    _, H = moduli(chain)
    total = 0
    age_size = 1  # support size bound of the age distribution per class
    for i, hop in enumerate(hops):
        d = chain.periods[i + 1]
        g = math.gcd(H[i], d)
        if H[i] * (d // g) + hop.emax + d > INT64_SAFE:
            return INFEASIBLE
        classes = H[i] // math.gcd(H[i], chain.periods[i])
        entries = (d // g) * hop.K
        lo, hi = chain.hop_range(i)
        kernel_size = min(entries, hi - lo + 1)
        targets = H[i + 1] // math.gcd(H[i + 1], d)
        conv = classes * min(targets, entries) * age_size * kernel_size
        total += classes * entries + conv // 8 + 2000 * classes * min(targets, entries)
        age_size = min(age_size * entries, age_size + hi - lo)
    return total


def _lattice_step(values: np.ndarray) -> int:
    if len(values) < 2:
        return 0
    return int(np.gcd.reduce(np.diff(values)))


def conv(a: Sparse, k: Sparse) -> Sparse:
    """The exact convolution of two sparse PMFs, through a dense lattice where that is cheaper."""
    av, aw = a
    kv, kw = k
    if len(av) * len(kv) <= 4096:
        return convolve(av, aw, kv, kw)
    step = math.gcd(_lattice_step(av), _lattice_step(kv)) or 1
    na = (int(av[-1]) - int(av[0])) // step + 1
    nk = (int(kv[-1]) - int(kv[0])) // step + 1
    if na * nk > 8 * len(av) * len(kv) + 100_000:
        return convolve(av, aw, kv, kw)
    da = np.zeros(na)
    da[(av - av[0]) // step] = aw
    dk = np.zeros(nk)
    dk[(kv - kv[0]) // step] = kw
    out = np.convolve(da, dk)
    nz = np.flatnonzero(out)
    return int(av[0]) + int(kv[0]) + nz.astype(np.int64) * step, out[nz]


def class_times(c: int, h: int, d: int) -> Iterator[np.ndarray]:
    """Chunks of the times z (mod lcm(h, d)) of a class c (mod h), one for each phase y (mod d) it can take."""
    g = math.gcd(h, d)
    n_y = d // g
    span = h * d // g  # lcm(h, d)
    inv = pow((h // g) % (d // g), -1, d // g) if d // g > 1 else 0
    for y0 in range(0, n_y, Y_CHUNK):
        ys = (c % g) + g * np.arange(y0, min(n_y, y0 + Y_CHUNK), dtype=np.int64)
        k = (((ys - c) // g) % (d // g)) * inv % max(1, d // g)
        yield (c + h * k) % span  # z = c (mod h), z = y (mod d)


def class_kernels(
    z: np.ndarray, off: np.ndarray, prob: np.ndarray, n_y: int, h_next: int
) -> Iterator[tuple[int, Sparse]]:
    """(target class, kernel of the age added) for the times z and their hop look-up (off, prob)."""
    nxt = ((z[:, None] + off) % h_next).ravel()
    b = off.ravel()
    w = prob.ravel() / n_y
    keep = w > 0
    nxt, b, w = nxt[keep], b[keep], w[keep]
    order = np.argsort(nxt, kind="stable")
    nxt, b, w = nxt[order], b[order], w[order]
    bounds = np.flatnonzero(np.r_[True, nxt[1:] != nxt[:-1], True])
    for s_, e_ in itertools.pairwise(bounds):
        yield int(nxt[s_]), accumulate(b[s_:e_], w[s_:e_])


def merged(plist: list[Sparse]) -> Sparse:
    """The sum of the parts of one class (the part itself when there is one)."""
    if len(plist) == 1:
        return plist[0]
    return accumulate(np.concatenate([p[0] for p in plist]), np.concatenate([p[1] for p in plist]))


def _hop_classes(chain: GridChain, H: list[int], i: int, hop: Hop, classes: dict[int, Sparse]) -> dict[int, Sparse]:
    """The classes of stage i+1 and their age distributions, from those of stage i."""
    d, h, h_next = chain.periods[i + 1], H[i], H[i + 1]
    n_y = d // math.gcd(h, d)
    parts: dict[int, list[Sparse]] = {}
    for c, dist in classes.items():
        for z in class_times(c, h, d):
            off, prob = hop.lookup(z)
            for target, kernel in class_kernels(z, off, prob, n_y, h_next):
                parts.setdefault(target, []).append(conv(dist, kernel))
        if len(parts) > 64:  # keep memory bounded when there are many target classes
            for key, plist in parts.items():
                if len(plist) > 8:
                    parts[key] = [merged(plist)]
    return {c: merged(plist) for c, plist in parts.items()}


def first_classes(chain: GridChain, hops: list[Hop], upto: int) -> tuple[list[int], dict[int, Sparse]]:
    """H (see moduli) and the classes of stage `upto` with their age distributions (after hops 0..upto-1)."""
    _, H = moduli(chain)
    classes: dict[int, Sparse] = {chain.offsets[0] % H[0]: (np.zeros(1, dtype=np.int64), np.ones(1))}
    for i, hop in enumerate(hops[:upto]):
        classes = _hop_classes(chain, H, i, hop, classes)
    return H, classes


def class_latency(chain: GridChain, classes: dict[int, Sparse]) -> Distribution:
    """The latency distribution: the ages of every class of the last stage, the last component's ETP convolved in."""
    vals = np.concatenate([v for v, _ in classes.values()])
    wts = np.concatenate([w for _, w in classes.values()])
    age_v, age_w = accumulate(vals, wts)
    last = chain.n - 1
    lat_v, lat_w = convolve(age_v, age_w, chain.etp_values[last], chain.etp_probs[last])
    return Distribution(lat_v * chain.unit_ns, lat_w)


def quotient_latency(chain: GridChain, hops: list[Hop]) -> Distribution:
    return class_latency(chain, first_classes(chain, hops, len(hops))[1])
