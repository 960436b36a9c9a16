"""Active data over one iteration: bytes of buffers that hold data still to be read.

A buffer of iteration i is live from the start of its first writer to the end of its last access
(writers and readers) in that iteration. The profile is taken from the nominal execution (mean
costs) in steady state, over the window from the release of one iteration to the release of the
next, so lifetimes that reach into the next iteration (pipelining) are counted where they fall.
This is the quantity the reduced heuristic keeps small ("the total data set that is alive at any
point in time", papers 002/003): ideally it fits in the last-level cache.
"""

from __future__ import annotations

import numpy as np

from chainlab.plan.model import ActiveData, Instantiation
from chainlab.plan.simulate import Timing

WINDOW_ITERATION = 3  # steady state: iterations 0..2 fill the pipeline


def active_data(
    inst: Instantiation, buffer_bytes: list[int], timing: Timing, *, sos_peak: int | None = None
) -> tuple[ActiveData, list[list[int]]]:
    """The profile, and the sets of buffers live together at the highest points (clique seeds)."""
    start = timing.start[:, :, 0]
    finish = timing.finish[:, :, 0]
    iters = start.shape[0]
    k = min(WINDOW_ITERATION, iters - 2)
    w0 = float(timing.release[k, 0])
    w1 = float(timing.release[k + 1, 0])
    if w1 <= w0:
        w1 = w0 + 1.0
    events: list[tuple[float, int, int]] = []  # (time, +/-bytes, buffer)
    access = [sorted(set(w) | set(r)) for w, r in zip(inst.writers, inst.readers)]
    for b, writers in enumerate(inst.writers):
        for i in range(iters):
            lo = float(start[i, writers].min())
            hi = float(finish[i, access[b]].max())
            lo, hi = max(lo, w0), min(hi, w1)
            if lo < hi:
                events.append((lo, 1, b))
                events.append((hi, -1, b))
    events.sort(key=lambda e: (e[0], e[1]))  # ends before starts at the same instant
    live: set[int] = set()
    level = 0
    profile: list[tuple[int, int]] = [(0, 0)]
    snapshots: list[tuple[int, list[int]]] = []
    j = 0
    while j < len(events):
        t = events[j][0]
        while j < len(events) and events[j][0] == t:
            _, sign, b = events[j]
            if sign > 0:
                live.add(b)
                level += buffer_bytes[b]
            else:
                live.discard(b)
                level -= buffer_bytes[b]
            j += 1
        rel = round(t - w0)
        if profile and profile[-1][0] == rel:
            profile[-1] = (rel, level)
        else:
            profile.append((rel, level))
        snapshots.append((level, sorted(live)))
    peak = max((v for _, v in profile), default=0)
    snapshots.sort(key=lambda s: -s[0])
    seeds = [members for _, members in snapshots[:8]]
    peak_buffers = seeds[0] if seeds else []
    return ActiveData(w1 - w0, profile, int(peak), peak_buffers, sos_peak), seeds


def peak_only(inst: Instantiation, buffer_bytes: list[int], timing: Timing) -> int:
    return active_data(inst, buffer_bytes, timing)[0].peak_bytes


def nominal_makespan(timing: Timing) -> float:
    k = min(WINDOW_ITERATION, timing.end.shape[0] - 1)
    return float(np.asarray(timing.end[k] - timing.release[k]).max())
