"""Timed execution of a plan: when each sub-box of each iteration starts and ends.

Two engines, one semantics (signals arrive `sync_ns` after they are sent, a barrier opens
`sync_ns` after the last thread arrives, a source slice of iteration i starts no earlier than
i * period when the sources are periodic):

- `simulate_pinned`: threads pinned to their own cores (fixed, predictable, reduced). Then times
  obey a max-plus recurrence, start = max(previous sub-box of the thread, arrivals of awaited
  signals, release), which is evaluated for many independent runs at once with numpy, level by
  level of one iteration's dependency graph.
- `simulate_os`: one thread per sub-box scheduled by the OS on the core set (simple, barrier).
  A discrete-event simulation: a runnable thread gets a free core; when several wait, the OS picks
  one at random (it does not know which iteration a thread works for, which is what makes
  pipelining costly) or first come first served (`policy="fifo"`, used for the nominal timeline).
  Pinned plans can be run here too (each thread then owns a core), which the tests use to check
  the two engines against each other.
"""

from __future__ import annotations

import heapq
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeAlias

import numpy as np

from chainlab.plan.model import Instantiation, Mapping, Signal, ThreadPlan

#: Execution times of iteration i: an array (sub-boxes, runs).
CostFn: TypeAlias = Callable[[int], np.ndarray]


@dataclass
class Timing:
    start: np.ndarray  # (iterations, n_subs, runs)
    finish: np.ndarray
    release: np.ndarray  # (iterations, runs): iteration start (period release, or first sub-box start)
    end: np.ndarray  # (iterations, runs): last sub-box finish


class PinnedProgram:
    """The max-plus recurrence of a pinned plan, compiled into per-level index arrays."""

    def __init__(
        self,
        inst: Instantiation,
        mapping: Mapping,
        signals: list[Signal],
        *,
        barrier: bool,
        sync_ns: float,
        sources: list[bool],
    ):
        n = len(inst.subs)
        self.n = n
        pad, bar = 2 * n, 2 * n + 1
        preds: list[list[tuple[int, float]]] = [[] for _ in range(n)]
        same_iter: list[list[int]] = [[] for _ in range(n)]
        for order in mapping.orders:
            for pos, x in enumerate(order):
                if pos > 0:
                    preds[x].append((n + order[pos - 1], 0.0))
                    same_iter[x].append(order[pos - 1])
                elif barrier:
                    preds[x].append((bar, 0.0))
                else:
                    preds[x].append((order[-1], 0.0))  # last of the thread, previous iteration
        for s in signals:
            if s.initial_tokens == 0:
                preds[s.dst].append((n + s.src, float(sync_ns)))
                same_iter[s.dst].append(s.src)
            else:
                preds[s.dst].append((s.src, float(sync_ns)))  # one token: the previous iteration's signal
        level = [0] * n
        for x in _topo(n, same_iter):
            level[x] = 1 + max((level[p] for p in same_iter[x]), default=-1)
        self.levels: list[tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]] = []
        groups: list[list[int]] = [[] for _ in range(max(level, default=-1) + 1)]
        for x in range(n):
            groups[level[x]].append(x)
        for members in groups:
            k = max(len(preds[x]) for x in members)
            idx = np.full((len(members), k), pad, dtype=np.int64)
            dly = np.zeros((len(members), k))
            for r, x in enumerate(members):
                for c, (p, d) in enumerate(preds[x]):
                    idx[r, c] = p
                    dly[r, c] = d
            src = np.asarray([sources[x] for x in members], dtype=bool)
            self.levels.append((np.asarray(members, dtype=np.int64), idx, dly, src))
        self.sync = float(sync_ns)

    def run(
        self,
        costs: np.ndarray | None,
        iterations: int,
        period: float | None,
        record: bool = False,
        cost_fn: CostFn | None = None,
    ) -> Timing:
        """costs: (n, runs) fixed per run, or None with cost_fn(i) -> (n, runs) per iteration."""
        n = self.n
        if cost_fn is not None:
            runs = cost_fn(0).shape[1] if costs is None else costs.shape[1]
            costs_of = cost_fn
        elif costs is not None:
            runs = costs.shape[1]
            fixed = costs

            def costs_of(_i: int) -> np.ndarray:
                return fixed
        else:
            raise ValueError("PinnedProgram.run needs costs or cost_fn")
        fin = np.full((2 * n + 2, runs), -np.inf)
        fin[2 * n + 1] = 0.0
        fin[:n] = -np.inf
        recorded = iterations if record else 0
        starts = np.empty((recorded, n, runs))
        finishes = np.empty((recorded, n, runs))
        release = np.empty((iterations, runs))
        end = np.empty((iterations, runs))
        first_iter = True
        for i in range(iterations):
            c = costs_of(i)
            rel = i * period if period else None
            st_all = np.empty((n, runs))
            for members, idx, dly, src in self.levels:
                st = (fin[idx] + dly[:, :, None]).max(axis=1)
                if first_iter:
                    st = np.maximum(st, 0.0)
                if rel is not None and src.any():
                    st[src] = np.maximum(st[src], rel)
                st_all[members] = st
                fin[n + members] = st + c[members]
            cur = fin[n : 2 * n]
            end[i] = cur.max(axis=0)
            release[i] = rel if rel is not None else st_all.min(axis=0)
            if record:
                starts[i] = st_all
                finishes[i] = cur
            fin[:n] = cur
            fin[2 * n + 1] = end[i] + self.sync
            first_iter = False
        return Timing(starts, finishes, release, end)

    def ready_times(self, end: np.ndarray, previous_end: np.ndarray, period: float | None) -> np.ndarray:
        """When each sub-box could have started by this program, given measured end times: the latest of its
        predecessors' ends (plus this program's sync delay) and, for a source, the release.

        `end`: (iterations, n) ends from each iteration's release; `previous_end`: (iterations, n) the previous
        iteration's ends from ITS release, NaN where that iteration was not measured. With a period the previous
        iteration was released `period` earlier; without one (free running) its times are not comparable, so
        predecessors of the previous iteration are left out. A sub-box without a known predecessor gets -inf."""
        n, m = self.n, end.shape[0]
        fin = np.full((2 * n + 2, m), -np.inf)
        if period:
            prev = np.where(np.isnan(previous_end), -np.inf, previous_end - period).T
            fin[:n] = prev
            fin[2 * n + 1] = prev.max(axis=0) + self.sync
        fin[n : 2 * n] = end.T
        ready = np.empty((n, m))
        for members, idx, dly, src in self.levels:
            r = (fin[idx] + dly[:, :, None]).max(axis=1)
            r[src] = np.maximum(r[src], 0.0)
            ready[members] = r
        return ready.T


def _topo(n: int, preds: list[list[int]]) -> list[int]:
    indeg = [len(set(p)) for p in preds]
    succ: list[list[int]] = [[] for _ in range(n)]
    for x in range(n):
        for p in set(preds[x]):
            succ[p].append(x)
    queue = [x for x in range(n) if indeg[x] == 0]
    out = []
    while queue:
        x = queue.pop()
        out.append(x)
        for y in succ[x]:
            indeg[y] -= 1
            if indeg[y] == 0:
                queue.append(y)
    if len(out) != n:
        raise ValueError("the plan's program order and signals form a cycle within one iteration")
    return out


def simulate_os(
    threads: list[ThreadPlan],
    signals: list[Signal],
    n_subs: int,
    costs: np.ndarray,
    iterations: int,
    *,
    cores: int,
    pinned: bool,
    period: float | None,
    sources: list[bool],
    sync_ns: float,
    rng: np.random.Generator | None = None,
    policy: str = "random",
) -> Timing:
    """One run; costs: (iterations, n_subs). Returns Timing with runs = 1.

    Tokens carry the time they become available (sent + sync_ns); a thread that waits for a token
    still in flight resumes at its arrival, one that finds none blocks until the sender signals.
    """
    start = np.zeros((iterations, n_subs))
    finish = np.zeros((iterations, n_subs))
    arrivals: list[deque[float]] = [deque([0.0] * s.initial_tokens) for s in signals]
    blocked: dict[int, int] = {}  # signal -> waiting thread
    pc = [0] * len(threads)
    it = [0] * len(threads)
    active = [k for k, th in enumerate(threads) if th.steps]
    barrier_arrived: list[int] = []
    events: list[tuple[float, int, int, int]] = []  # (time, seq, kind, thread)
    seq = 0
    CONT, DONE, READY = 0, 1, 2
    for k in active:
        events.append((0.0, seq, CONT, k))
        seq += 1
    heapq.heapify(events)
    free = cores
    pool: list[int] = []
    running_x: dict[int, int] = {}
    steps = [th.steps for th in threads]
    costs_l = costs.tolist()

    def push(t: float, kind: int, k: int) -> None:
        nonlocal seq
        heapq.heappush(events, (t, seq, kind, k))
        seq += 1

    def advance(k: int, t: float) -> None:
        """Run thread k's steps from its pc at time t until it blocks, waits for a core, or ends."""
        th = steps[k]
        n_steps = len(th)
        while it[k] < iterations:
            step = th[pc[k]]
            op = step.op
            if op == "wait":
                q = arrivals[step.ref]
                if not q:
                    blocked[step.ref] = k
                    return
                if q[0] > t:
                    push(q[0], CONT, k)
                    return
                q.popleft()
            elif op == "signal":
                arrivals[step.ref].append(t + sync_ns)
                j = blocked.pop(step.ref, None)
                if j is not None:
                    push(t + sync_ns, CONT, j)
            elif op == "barrier":
                barrier_arrived.append(k)
                if len(barrier_arrived) == len(active):
                    for j in barrier_arrived:
                        pc[j] += 1
                        if pc[j] == len(steps[j]):
                            pc[j] = 0
                            it[j] += 1
                        push(t + sync_ns, CONT, j)
                    barrier_arrived.clear()
                return
            else:
                x = step.ref
                if period and sources[x] and it[k] * period > t:
                    push(it[k] * period, READY, k)
                else:
                    make_ready(k, t)
                return
            pc[k] += 1
            if pc[k] == n_steps:
                pc[k] = 0
                it[k] += 1

    def make_ready(k: int, t: float) -> None:
        if pinned:
            run(k, t)
        else:
            pool.append(k)
            dispatch(t)

    def run(k: int, t: float) -> None:
        x = steps[k][pc[k]].ref
        start[it[k], x] = t
        running_x[k] = x
        push(t + costs_l[it[k]][x], DONE, k)

    def dispatch(t: float) -> None:
        nonlocal free
        while free > 0 and pool:
            k = pool.pop(0) if policy == "fifo" or rng is None else pool.pop(int(rng.integers(len(pool))))
            free -= 1
            run(k, t)

    while events:
        t, _, kind, k = heapq.heappop(events)
        if kind == CONT:
            advance(k, t)
        elif kind == READY:
            make_ready(k, t)
        else:
            x = running_x.pop(k)
            finish[it[k], x] = t
            if not pinned:
                free += 1
            pc[k] += 1
            if pc[k] == len(steps[k]):
                pc[k] = 0
                it[k] += 1
            advance(k, t)
            if not pinned:
                dispatch(t)
    if any(it[k] < iterations for k in active):
        raise RuntimeError("simulation stopped early: the plan deadlocks")
    rel = np.array([i * period for i in range(iterations)]) if period else start.min(axis=1)
    return Timing(start[:, :, None], finish[:, :, None], rel[:, None], finish.max(axis=1)[:, None])
