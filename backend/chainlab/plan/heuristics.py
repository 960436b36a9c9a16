"""Step b of the tool flow (thesis §3.4.2): sub-boxes onto threads.

- simple (one-to-one): every sub-box gets its own thread, scheduled by the OS on the core set; no
  synchronization between iterations, so sub-boxes of the next iteration may run early (pipelining).
- barrier: simple plus a barrier between iterations (added by `sync`, the mapping is the same).
- fixed (many-to-one): one thread per core, pinned. A static order per thread comes from list
  scheduling the homogeneous SDF graph of the sub-boxes (one actor per sub-box, one edge per
  dependency) with the execution-time estimates: repeatedly start the (sub-box, thread) pair that
  can start earliest (ETF); ties go to the sub-box on the longest remaining path, then the lower
  ids. Like the HSDFG, it knows only execution times: signals and caches cost nothing here.
- predictable (many-to-one, cache aware): the same, but a pair is charged for the input bytes that
  were produced on another thread (`remote_ns_per_byte`, i.e. the time to pull them from the shared
  cache), and a dependency between threads costs `sync_ns` (a signal), so a sub-box prefers the
  thread that produced its input and that input is still in that core's cache (Figure 3.4:
  subsequent sub-boxes on the same thread as much as possible).
- reduced: see `reduced.py`; its box-level order is mapped here with `map_in_order`, which places
  each sub-box, strictly in the given order, on the thread predictable would choose.
"""

from __future__ import annotations

import numpy as np

from chainlab.plan.model import Instantiation, Mapping
from chainlab.plan.options import DEFAULT_REMOTE_NS_PER_BYTE, DEFAULT_SYNC_NS


def bottom_levels(inst: Instantiation) -> np.ndarray:
    """Longest path (mean costs) from each sub-box to the end of the iteration, itself included."""
    level = np.zeros(len(inst.subs))
    for s in reversed(inst.topo):
        tail = max((level[t] for t in inst.succs[s]), default=0.0)
        level[s] = inst.subs[s].mean_cost_ns + tail
    return level


def one_to_one(inst: Instantiation) -> Mapping:
    """simple / barrier: a thread per sub-box, not pinned (the OS may run it on any core of the set)."""
    n = len(inst.subs)
    est = _nominal_asap(inst)
    return Mapping(False, list(range(n)), [[s] for s in range(n)], [None] * n, est[0], est[1])


def _nominal_asap(inst: Instantiation) -> tuple[list[float], list[float]]:
    start = [0.0] * len(inst.subs)
    finish = [0.0] * len(inst.subs)
    for s in inst.topo:
        start[s] = max((finish[p] for p in inst.preds[s]), default=0.0)
        finish[s] = start[s] + inst.subs[s].mean_cost_ns
    return start, finish


class _Placer:
    """Shared state of the list schedulers: thread clocks, placements, per-thread data-ready times."""

    def __init__(self, inst: Instantiation, threads: int, sync_ns: float, remote_ns_per_byte: float):
        self.inst = inst
        self.T = threads
        self.sync = float(sync_ns)
        self.remote = float(remote_ns_per_byte)
        n = len(inst.subs)
        self.cost = np.array([s.mean_cost_ns for s in inst.subs])
        self.free = np.zeros(threads)
        self.thread_of = np.full(n, -1, dtype=np.int64)
        self.start = np.zeros(n)
        self.finish = np.zeros(n)
        self.orders: list[list[int]] = [[] for _ in range(threads)]
        self.tids = np.arange(threads)
        self.pred_arr = [np.asarray(p, dtype=np.int64) for p in inst.preds]
        self.pred_bytes = [np.asarray([inst.read_bytes[s][p] for p in inst.preds[s]], dtype=float) for s in range(n)]

    def ready_row(self, s: int) -> tuple[np.ndarray, np.ndarray]:
        """(data-ready time, remote-input charge) of sub-box s on every thread."""
        preds = self.pred_arr[s]
        if len(preds) == 0:
            return np.zeros(self.T), np.zeros(self.T)
        elsewhere = self.thread_of[preds][:, None] != self.tids[None, :]
        ready = (self.finish[preds][:, None] + self.sync * elsewhere).max(axis=0)
        charge = (self.pred_bytes[s][:, None] * elsewhere).sum(axis=0) * self.remote
        return ready, np.round(charge)

    def place(self, s: int, t: int, start: float) -> None:
        self.thread_of[s] = t
        self.start[s] = start
        self.finish[s] = start + self.cost[s]
        self.free[t] = self.finish[s]
        self.orders[t].append(s)

    def mapping(self, cores: list[int], notes: list[str] | None = None) -> Mapping:
        return Mapping(
            True,
            [int(t) for t in self.thread_of],
            self.orders,
            list(cores[: self.T]),
            [float(x) for x in self.start],
            [float(x) for x in self.finish],
            notes=notes or [],
        )


def list_schedule(
    inst: Instantiation,
    threads: int,
    cores: list[int],
    *,
    cache_aware: bool,
    sync_ns: float = DEFAULT_SYNC_NS,
    remote_ns_per_byte: float = DEFAULT_REMOTE_NS_PER_BYTE,
) -> Mapping:
    """fixed (cache_aware=False) or predictable (cache_aware=True): ETF list scheduling."""
    n = len(inst.subs)
    placer = _Placer(inst, threads, sync_ns if cache_aware else 0.0, remote_ns_per_byte if cache_aware else 0.0)
    level = bottom_levels(inst)
    remaining = np.array([len(p) for p in inst.preds], dtype=np.int64)
    ready_time = np.zeros((n, threads))
    charge = np.zeros((n, threads))
    ready: list[int] = [s for s in range(n) if remaining[s] == 0]
    for s in ready:
        ready_time[s], charge[s] = placer.ready_row(s)
    for _ in range(n):
        rows = np.asarray(ready, dtype=np.int64)
        est = np.maximum(ready_time[rows], placer.free[None, :])
        key = est + charge[rows]
        best = key.min()
        cand_r, cand_t = np.nonzero(key <= best + 1e-6)
        if len(cand_r) == 1:
            r, t = int(cand_r[0]), int(cand_t[0])
        else:
            subs = rows[cand_r]
            # ties: least remote input, longest remaining path, lowest sub-box id, lowest thread
            order = np.lexsort((cand_t, subs, -level[subs], charge[subs, cand_t]))
            r, t = int(cand_r[order[0]]), int(cand_t[order[0]])
        s = int(rows[r])
        placer.place(s, t, float(est[r, t]))
        ready.pop(r)
        for succ in inst.succs[s]:
            remaining[succ] -= 1
            if remaining[succ] == 0:
                ready_time[succ], charge[succ] = placer.ready_row(succ)
                ready.append(succ)
    return placer.mapping(cores)


def map_in_order(
    inst: Instantiation,
    order: list[int],
    threads: int,
    cores: list[int],
    *,
    sync_ns: float = DEFAULT_SYNC_NS,
    remote_ns_per_byte: float = DEFAULT_REMOTE_NS_PER_BYTE,
) -> Mapping:
    """Place sub-boxes strictly in `order` (a topological order), each on the thread where it can start
    earliest once remote inputs are charged (predictable's criterion); thread orders follow `order`."""
    placer = _Placer(inst, threads, sync_ns, remote_ns_per_byte)
    for s in order:
        ready, charge = placer.ready_row(s)
        est = np.maximum(ready, placer.free)
        key = est + charge
        best = key.min()
        cands = np.nonzero(key <= best + 1e-6)[0]
        t = int(cands[np.lexsort((cands, charge[cands]))[0]]) if len(cands) > 1 else int(cands[0])
        placer.place(s, t, float(est[t]))
    return placer.mapping(cores)
