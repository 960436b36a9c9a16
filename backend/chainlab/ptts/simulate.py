"""Monte Carlo simulation of a PTTS chain with physical semantics.

Physics: component i triggers at o_i + n d_i. Each trigger draws one ETP sample (seeded numpy
Generator). C0's trigger creates the data of its root; a trigger of C_i (i >= 1) reads its
one-place input buffer: whatever was written there last (non-destructive read, so stale data is
re-read; an empty buffer means the trigger does nothing). Its output, carrying the data read, is
written into the next buffer ETP later (destructive write: it replaces the content). At equal
instants production precedes consumption (or follows it, for order "consumption-first"), and
simultaneous writes land in trigger order (the later trigger's write is the last). Components
whose ETP is wider than their period produce out of order, and the buffer then simply holds
whatever was written last, also an older container overwriting a newer one.

Measured per simulated root r (a C0 trigger):
- latency: time from r until the last component first outputs data of root r *or newer*. When
  every component is in order this is exactly the latency of the thesis' tree model (also for a
  root that is lost: its path continues with the newer data that overwrote it), so the exact
  distribution is the limit of this measurement.
- delivered: whether some trigger of the last component read data of r (loss = not delivered,
  the event `loss.py` computes), and the delivered latency.

Two engines compute the same physics from the same draws: "vector" (per stage: sort the writes,
binary-search every read; fast) and "event" (a discrete-event heap, written to be obviously
physical; the reference in tests and the thesis-style baseline in the bench).

Modes: "independent" gives every iteration its own root, spread evenly over the hyper-period
(each root equally often, the remainder drawn without replacement: stratified sampling of the
equal-weight mixture over roots), and simulates that root's neighbourhood of triggers with fresh
draws; the ETP draws are independent and the stratification only lowers the variance, so the
DKW band (exact for i.i.d. samples) stays conservative; "trace" simulates one contiguous run of consecutive roots
from a random start (a physical trace; consecutive samples are dependent).
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass

import numpy as np

from chainlab.errors import ModelError
from chainlab.ptts.dist import Distribution, accumulate, ks_distance
from chainlab.ptts.grid import GridChain
from chainlab.ptts.loss import slack


@dataclass
class SimSamples:
    latency: np.ndarray  # grid units, per measured root (-1 when no newer output in the window)
    delivered: np.ndarray  # bool
    delivered_latency: np.ndarray  # grid units, -1 when lost
    triggers: int


def windows(chain: GridChain) -> tuple[list[int], list[int]]:
    """Per component, the trigger interval (relative to a measured root) that can matter to it."""
    n = chain.n
    d0 = chain.periods[0]
    kp = slack(chain)[0] // d0 + 1
    lo = [0] * n
    hi = [0] * n
    for i in range(n - 1):
        a, b = chain.hop_range(i)
        lo[i + 1] = lo[i] + a
        hi[i + 1] = hi[i] + b
    end = [kp * d0 + hi[i] + chain.periods[i] for i in range(n)]
    start = [0] * n
    start[n - 1] = lo[n - 1] - kp * d0 - chain.periods[n - 1]
    for i in range(n - 2, -1, -1):
        start[i] = start[i + 1] - chain.emax(i) - chain.periods[i] - (chain.emax(i) - chain.emin(i))
    start[0] = min(start[0], -kp * d0)
    return start, end


def _draw(chain: GridChain, i: int, size: int, rng: np.random.Generator) -> np.ndarray:
    vals = chain.etp_values[i]
    if len(vals) == 1:
        return np.full(size, vals[0], dtype=np.int64)
    cum = np.cumsum(chain.etp_probs[i])
    cum[-1] = 1.0
    idx = np.searchsorted(cum, rng.random(size), side="right")
    return vals[np.minimum(idx, len(vals) - 1)]


def _stratified_roots(R: int, n: int, rng: np.random.Generator) -> np.ndarray:
    """n roots covering the hyper-period evenly: every root n // R times, the rest without replacement."""
    if R == 1:
        return np.zeros(n, dtype=np.int64)
    if R <= n:
        rest = rng.choice(R, size=n % R, replace=False) if n % R else np.zeros(0, dtype=np.int64)
        return np.concatenate([np.tile(np.arange(R, dtype=np.int64), n // R), rest.astype(np.int64)])
    if R <= 50_000_000:
        return rng.choice(R, size=n, replace=False).astype(np.int64)
    return rng.integers(0, R, size=n)


def physics_vector(
    times: list[np.ndarray], draws: list[np.ndarray], production_first: bool
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """Sink outputs (time, data) and, per component, the data each trigger read (-1: nothing)."""
    data = np.arange(len(times[0]), dtype=np.int64)
    prod = times[0] + draws[0]
    trig = times[0]
    reads = [data]
    for i in range(1, len(times)):
        valid = data >= 0
        pw, tw, dw = prod[valid], trig[valid], data[valid]
        order = np.lexsort((tw, pw))
        ps, ds = pw[order], dw[order]
        idx = np.searchsorted(ps, times[i], side="right" if production_first else "left") - 1
        data = np.where(idx >= 0, ds[np.maximum(idx, 0)] if len(ds) else -1, -1)
        prod = times[i] + draws[i]
        trig = times[i]
        reads.append(data)
    valid = data >= 0
    return prod[valid], data[valid], reads


def physics_events(
    times: list[np.ndarray], draws: list[np.ndarray], production_first: bool
) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
    """The same physics as a discrete-event simulation with explicit one-place buffers."""
    n = len(times)
    rank_prod, rank_trig = (0, 1) if production_first else (1, 0)
    heap: list[tuple[int, int, int, int, int]] = []
    for i, ts in enumerate(times):
        heap.extend((int(t), rank_trig, i, k, 0) for k, t in enumerate(ts))
    heapq.heapify(heap)
    buffers: list[int] = [-1] * n
    reads = [np.full(len(ts), -1, dtype=np.int64) for ts in times]
    sink_t: list[int] = []
    sink_d: list[int] = []
    dr = [d.tolist() for d in draws]
    tr = [t.tolist() for t in times]
    while heap:
        time, rank, a, b, c = heapq.heappop(heap)
        if rank == rank_trig:  # trigger of component a, index b
            data = b if a == 0 else buffers[a]
            reads[a][b] = data
            if data >= 0:
                heapq.heappush(heap, (time + dr[a][b], rank_prod, tr[a][b], a, data))
        else:  # production: (time, rank, trigger time, component, data)
            if b == n - 1:
                sink_t.append(time)
                sink_d.append(c)
            else:
                buffers[b + 1] = c
    return np.asarray(sink_t, dtype=np.int64), np.asarray(sink_d, dtype=np.int64), reads


def measure(
    sink_t: np.ndarray, sink_d: np.ndarray, root_ids: np.ndarray, root_times: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Per root: latency to the first output of data >= root, delivered flag, delivered latency."""
    order = np.lexsort((sink_t, sink_d))
    ds, ts = sink_d[order], sink_t[order]
    m = len(ds)
    suffix = np.minimum.accumulate(ts[::-1])[::-1] if m else ts
    j = np.searchsorted(ds, root_ids, side="left")
    ok = j < m
    jc = np.minimum(j, max(m - 1, 0))
    latency = np.where(ok, (suffix[jc] if m else 0) - root_times, -1)
    delivered = ok & ((ds[jc] if m else -2) == root_ids)
    dlat = np.where(delivered, (ts[jc] if m else 0) - root_times, -1)
    return latency, delivered, dlat


#: What one simulated trigger costs at the peak (its time, its draw, the engines' temporaries), for the estimate.
BYTES_PER_EVENT = 64
#: The most memory a simulation may take; above it the request is refused before anything is allocated.
MAX_SIMULATION_BYTES = 2 * 1024**3


def estimated_bytes(chain: GridChain, iterations: int, mode: str = "independent") -> int:
    """Memory `sample` would take, from the triggers it would draw (no allocation)."""
    start, end = windows(chain)
    d0 = chain.periods[0]
    events = 0
    for i, d in enumerate(chain.periods):
        per_window = (end[i] - start[i]) // d + 2
        events += per_window * iterations if mode != "trace" else (iterations - 1) * d0 // d + per_window
    return events * BYTES_PER_EVENT


def check_size(chain: GridChain, iterations: int, mode: str = "independent") -> None:
    """ModelError, with the largest iteration count that fits, when the simulation would not fit in memory."""
    need = estimated_bytes(chain, iterations, mode)
    if need > MAX_SIMULATION_BYTES:
        fits = max(1, iterations * MAX_SIMULATION_BYTES // need)
        raise ModelError(
            f"simulating {iterations} iterations would take about {need / 2**30:.3g} GiB "
            f"(limit {MAX_SIMULATION_BYTES / 2**30:g} GiB): use at most {fits} iterations"
        )


def sample(
    chain: GridChain, iterations: int, rng: np.random.Generator, mode: str = "independent", engine: str = "vector"
) -> SimSamples:
    n_comp = chain.n
    start, end = windows(chain)
    R = chain.roots
    d0, o0 = chain.periods[0], chain.offsets[0]
    if mode == "independent":
        small = R < 2**62 and max(chain.periods) < 2**31
        if small:
            roots = _stratified_roots(R, iterations, rng)
        else:  # astronomically long hyper-periods: exact big-integer phases (bias < 2^-60)
            roots_py = [int.from_bytes(rng.bytes(16), "little") % R for _ in range(iterations)]
        span = max(end) - min(start)
        big = 2 * (span + max(chain.emax(i) for i in range(n_comp)) + max(chain.periods)) + 1
        base = np.arange(iterations, dtype=np.int64) * big
        times = []
        for i in range(n_comp):
            d, o = chain.periods[i], chain.offsets[i]
            # (o - r - start) mod d with r = o0 + n d0, without forming r (it may be huge)
            if small:
                phase = (o - o0 - start[i] - (roots % d) * (d0 % d)) % d
            else:
                phase = np.asarray([(o - o0 - start[i] - n * d0) % d for n in roots_py], dtype=np.int64)
            first = start[i] + phase
            m = (end[i] - start[i]) // d + 2
            rel = first[:, None] + d * np.arange(m, dtype=np.int64)[None, :]
            times.append((base[:, None] + rel).ravel())
        m0 = len(times[0]) // iterations
        first0 = times[0][::m0] - base
        local = (-first0) // d0
        root_ids = np.arange(iterations, dtype=np.int64) * m0 + local
        root_times = base
    elif mode == "trace":
        first_root = (
            (int(rng.integers(0, R)) if R < 2**62 else int.from_bytes(rng.bytes(16), "little") % R) if R > 1 else 0
        )
        times = []
        r0 = 0  # everything relative to the first measured root
        for i in range(n_comp):
            d, o = chain.periods[i], chain.offsets[i]
            first_trigger = start[i] + (o - o0 - first_root * d0 - start[i]) % d
            last = (iterations - 1) * d0 + end[i]
            triggers = (last - first_trigger) // d + 1
            times.append(first_trigger + d * np.arange(triggers, dtype=np.int64))
        local0 = (r0 - int(times[0][0])) // d0
        root_ids = local0 + np.arange(iterations, dtype=np.int64)
        root_times = np.arange(iterations, dtype=np.int64) * d0
    else:
        raise ValueError(f"unknown simulation mode {mode!r}")
    draws = [_draw(chain, i, len(times[i]), rng) for i in range(n_comp)]
    run = physics_vector if engine == "vector" else physics_events
    sink_t, sink_d, _ = run(times, draws, chain.production_first)
    lat, dlv, dlat = measure(sink_t, sink_d, root_ids, root_times)
    return SimSamples(lat, dlv, dlat, sum(len(t) for t in times))


def _wilson(k: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, mid - half), min(1.0, mid + half)


def empirical(values_units: np.ndarray, unit_ns: int) -> Distribution:
    v, w = accumulate(values_units, np.ones(len(values_units)))
    return Distribution(v * unit_ns, w / max(1, len(values_units)))


def summarize(
    chain: GridChain, s: SimSamples, confidence: float = 0.95, exact: Distribution | None = None, band_points: int = 400
) -> dict:
    ok = s.latency >= 0
    n = int(ok.sum())
    dist = empirical(s.latency[ok], chain.unit_ns)
    eps = math.sqrt(math.log(2 / (1 - confidence)) / (2 * max(n, 1)))
    lost = int((~s.delivered).sum())
    total = len(s.delivered)
    lo, hi = _wilson(lost, total)
    xs = dist.values_ns
    if len(xs) > band_points:
        xs = xs[np.linspace(0, len(xs) - 1, band_points).astype(np.int64)]
    F = np.minimum(dist.cdf_at(xs), 1.0)
    out = {
        "iterations": total,
        "samples": n,
        "incomplete": int((~ok).sum()),
        "distribution": dist.as_ms(),
        **dist.summary(),
        "dkw_epsilon": eps,
        "confidence": confidence,
        "cdf_band": [
            [int(x) / 1e6, float(f), max(0.0, float(f) - eps), min(1.0, float(f) + eps)] for x, f in zip(xs, F)
        ],
        "loss_rate": lost / total if total else 0.0,
        "loss_interval": [lo, hi],
        "lost": lost,
        "triggers_simulated": s.triggers,
        "in_order": chain.all_in_order,
    }
    dl = s.delivered_latency[s.delivered]
    if len(dl):
        out["delivered_mean_ms"] = float(dl.mean()) * chain.unit_ns / 1e6
    if exact is not None and n:
        ks = ks_distance(dist, exact)
        out["ks_distance"] = ks
        out["ks_within_band"] = ks <= eps
    return out
