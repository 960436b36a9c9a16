"""Step d of the tool flow: synchronization, and the token game that proves a plan runs.

"After a thread has executed a box it will send signals for all box level dependencies of which it
is the source. Vice versa before a thread can execute a box it has to wait for all box level
dependencies of which it is the destination." (papers 002/003, §IV). Dependencies inside one thread
are kept by its static order. Each buffer exists once, so a producer must not overwrite rows that a
consumer on another thread has not read yet: for every data dependency p -> c across threads there
is also an anti-dependency signal c -> p for the next iteration, with one initial token so that
iteration 0 can start (the `!` signals of the Appendix A listing: s1, s5, s10, s13). With an
iteration barrier the anti-dependencies are implied and left out.

Like the SSC, the plan keeps every such signal by default (Appendix A: 8 signals for 2 threads);
`prune=True` drops the ones already implied by program order and other signals.

Every signal has exactly one sending and one waiting thread and counts tokens, so the threads form
a determinate (Kahn) network: whether it deadlocks does not depend on the interleaving. The token
game below therefore plays one random interleaving for a few iterations and checks, on the way,
that every sub-box runs exactly once per iteration, after the producers of its input rows and
after the readers (previous iteration) of the rows it overwrites, and, given an allocation, that
no two buffers sharing memory are ever live together.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable
from typing import Literal

import numpy as np

from chainlab.plan.hb import HbGraph, redundant_signals
from chainlab.plan.model import Allocation, Instantiation, Mapping, Signal, Step, ThreadPlan, TokenGameReport


def build_signals(inst: Instantiation, mapping: Mapping, *, barrier: bool, prune: bool = False) -> list[Signal]:
    pairs: dict[tuple[int, int], list[int]] = defaultdict(list)
    for d in inst.deps:
        if d.buffer not in pairs[(d.src, d.dst)]:
            pairs[(d.src, d.dst)].append(d.buffer)
    t = mapping.thread_of
    raw: list[tuple[int, int, Literal["data", "anti"], int, list[int]]] = []
    for (p, c), bufs in pairs.items():
        if t[p] == t[c]:
            continue
        raw.append((p, c, "data", 0, bufs))
        if not barrier:
            raw.append((c, p, "anti", 1, bufs))
    raw.sort(key=lambda r: (r[0], r[2] != "data", r[1]))
    signals = [
        Signal(i, f"s{i + 1}", kind, src, dst, t[src], t[dst], tokens, bufs)
        for i, (src, dst, kind, tokens, bufs) in enumerate(raw)
    ]
    if prune and signals:
        drop = redundant_signals(mapping.orders, signals, len(inst.subs), barrier)
        signals = [s for s in signals if s.id not in drop]
    return _by_appearance(signals, mapping)


def _by_appearance(signals: list[Signal], mapping: Mapping) -> list[Signal]:
    """Number signals s1, s2, ... in the order they first appear in the thread listings (thread 0 first),
    which is how the Appendix A listing numbers them (there with gaps: s1, s3, s5, s7, s8, s10, ...)."""
    into: dict[int, list[Signal]] = defaultdict(list)
    out_of: dict[int, list[Signal]] = defaultdict(list)
    for s in signals:
        into[s.dst].append(s)
        out_of[s.src].append(s)
    seen: dict[int, None] = {}
    for order in mapping.orders:
        for x in order:
            for s in into[x] + out_of[x]:
                seen.setdefault(s.id, None)
    by_id = {s.id: s for s in signals}
    return [
        Signal(
            i,
            f"s{i + 1}",
            by_id[k].kind,
            by_id[k].src,
            by_id[k].dst,
            by_id[k].src_thread,
            by_id[k].dst_thread,
            by_id[k].initial_tokens,
            by_id[k].buffers,
        )
        for i, k in enumerate(seen)
    ]


def overlapping_pairs(offsets: list[int], sizes: list[int]) -> list[tuple[int, int]]:
    """All pairs of buffers whose address ranges overlap."""
    if not offsets:
        return []
    off = np.asarray(offsets, dtype=np.int64)
    end = off + np.asarray(sizes, dtype=np.int64)
    order = np.argsort(off, kind="stable")
    so, se = off[order], end[order]
    upto = np.searchsorted(so, se, side="left")  # buffers after i in address order that start before i ends
    counts = np.maximum(upto - np.arange(len(so)) - 1, 0)
    first = np.repeat(np.arange(len(so)), counts)
    second = first + 1 + (np.arange(counts.sum()) - np.repeat(np.cumsum(counts) - counts, counts))
    return list(zip(order[first].tolist(), order[second].tolist()))


def enforce_sharing(
    inst: Instantiation,
    mapping: Mapping,
    signals: list[Signal],
    offsets: list[int],
    sizes: list[int],
    a_first: np.ndarray,
    hb: HbGraph,
    hb_inter: np.ndarray,
    *,
    barrier: bool,
) -> list[Signal]:
    """Add "reuse" signals so that buffers placed in overlapping ranges are ordered whatever the execution
    times, in the order the nominal schedule has them (so the signals never delay the nominal run)."""
    access = [sorted(set(w) | set(r)) for w, r in zip(inst.writers, inst.readers)]
    # Only the last accesses and the first writes need a signal; the others are ordered through them.
    last = [[a for a in acc if not any(hb.before(a, 0, b, 0) for b in acc if b != a)] for acc in access]
    first_writes = [[w for w in ws if not any(hb.before(v, 0, w, 0) for v in ws if v != w)] for ws in inst.writers]
    wanted: dict[tuple[int, int, int], list[int]] = {}
    t = mapping.thread_of
    for a, b in overlapping_pairs(offsets, sizes):
        if not hb_inter[a, b]:
            continue
        if a_first[a, b]:
            first, second = a, b
        elif a_first[b, a]:
            first, second = b, a
        else:
            raise AssertionError(f"buffers {a} and {b} overlap in memory but interfere in the schedule")
        for x in last[first]:
            for w in first_writes[second]:
                if not hb.before(x, 0, w, 0):
                    wanted.setdefault((x, w, 0), [first, second])
        for x in last[second]:
            for w in first_writes[first]:
                if not hb.before(x, 0, w, 1):
                    wanted.setdefault((x, w, 1), [second, first])
    if not wanted:
        return signals
    for (x, w, _), _bufs in wanted.items():
        if t[x] == t[w]:
            raise AssertionError(f"sub-boxes {x} and {w} share a thread but are not in program order")
    base = len(signals)
    extra = [
        Signal(base + i, "", "reuse", x, w, t[x], t[w], d, bufs)
        for i, ((x, w, d), bufs) in enumerate(sorted(wanted.items()))
    ]
    merged = list(signals) + extra
    drop = redundant_signals(mapping.orders, merged, len(inst.subs), barrier, candidates={s.id for s in extra})
    merged = [s for s in merged if s.id not in drop]
    return _by_appearance(merged, mapping)


def build_threads(
    inst: Instantiation, mapping: Mapping, signals: list[Signal], *, barrier: bool, affinity: list[int]
) -> list[ThreadPlan]:
    waits: dict[int, list[int]] = defaultdict(list)
    sends: dict[int, list[int]] = defaultdict(list)
    for s in signals:
        waits[s.dst].append(s.id)
        sends[s.src].append(s.id)
    plans = []
    for k, order in enumerate(mapping.orders):
        steps: list[Step] = []
        for x in order:
            steps.extend(Step("wait", s) for s in waits[x])
            steps.append(Step("execute", x))
            steps.extend(Step("signal", s) for s in sends[x])
        if barrier:
            steps.append(Step("barrier", 0))
        core = mapping.cores[k]
        name = f"thread{k}" if mapping.pinned else f"thread{k}:{inst.subs[order[0]].name}"
        plans.append(ThreadPlan(k, name, core, [core] if core is not None else list(affinity), steps))
    return plans


def token_game(
    inst: Instantiation,
    threads: list[ThreadPlan],
    signals: list[Signal],
    *,
    iterations: int = 3,
    seed: int = 0,
    allocation: Allocation | None = None,
) -> TokenGameReport:
    """Play the plan untimed for `iterations` iterations in a random interleaving (seeded).

    Steps are atomic here, so the memory part only sees buffers that are live across steps; the
    guarantee that shared buffers never overlap in time is the happens-before argument of
    memory.py, which the tests also check on timed executions with widely varying costs."""
    n_subs = len(inst.subs)
    rng = random.Random(seed)
    tokens = [s.initial_tokens for s in signals]
    pc = [0] * len(threads)
    it = [0] * len(threads)
    count = [0] * n_subs
    barrier_arrived: list[int] = []
    at_barrier = [False] * len(threads)
    blocked_on: dict[int, int] = {}  # thread -> signal
    waiting: dict[int, int] = {}  # signal -> thread
    runnable = _RandomSet((k for k, th in enumerate(threads) if th.steps), rng)
    done = {k for k, th in enumerate(threads) if not th.steps}
    executed = 0
    participants = sum(1 for th in threads if th.steps)

    # Memory check bookkeeping: per buffer, the iterations whose accesses have started but not finished.
    buffers_of: list[list[int]] = [[] for _ in range(n_subs)]
    n_access = [0] * len(inst.writers)
    for b, (ws, rs) in enumerate(zip(inst.writers, inst.readers)):
        for x in set(ws) | set(rs):
            buffers_of[x].append(b)
            n_access[b] += 1
    lo = allocation.offsets if allocation is not None else []
    hi = [o + s for o, s in zip(allocation.offsets, allocation.sizes)] if allocation is not None else []
    active: dict[int, dict[int, int]] = defaultdict(dict)  # buffer -> {iteration: accesses done}
    live: set[int] = set()  # buffers with an iteration whose accesses have started and not all finished

    anti_readers: list[list[int]] = [[] for _ in range(n_subs)]
    for d in inst.deps:
        anti_readers[d.src].append(d.dst)

    def fail(message: str) -> TokenGameReport:
        return TokenGameReport(False, iterations, executed, message)

    while len(done) < len(threads):
        if not runnable:
            stuck = ", ".join(
                f"{threads[k].name} waits for {signals[blocked_on[k]].name}"
                if k in blocked_on
                else f"{threads[k].name} at the barrier"
                for k in sorted(set(range(len(threads))) - done)
            )
            return fail(f"deadlock after {executed} executions: {stuck}")
        k = runnable.pick()
        th = threads[k]
        step = th.steps[pc[k]]
        if step.op == "wait":
            if tokens[step.ref] == 0:
                runnable.discard(k)
                blocked_on[k] = step.ref
                waiting[step.ref] = k
                continue
            tokens[step.ref] -= 1
        elif step.op == "signal":
            tokens[step.ref] += 1
            j = waiting.pop(step.ref, None)
            if j is not None:
                del blocked_on[j]
                runnable.add(j)
        elif step.op == "barrier":
            if not at_barrier[k]:
                at_barrier[k] = True
                barrier_arrived.append(k)
                runnable.discard(k)
                if len(barrier_arrived) == participants:
                    for j in barrier_arrived:
                        runnable.add(j)
                    barrier_arrived.clear()
                continue
            at_barrier[k] = False
        else:
            x = step.ref
            i = count[x]
            if i != it[k]:
                return fail(f"{inst.subs[x].name} ran {i} times before iteration {it[k]} of {th.name}")
            for p in inst.preds[x]:
                if count[p] < i + 1:
                    return fail(f"{inst.subs[x].name} (iteration {i}) ran before its producer {inst.subs[p].name}")
            for r in anti_readers[x]:
                if count[r] < i:
                    return fail(
                        f"{inst.subs[x].name} (iteration {i}) overwrote rows "
                        f"{inst.subs[r].name} had not read (iteration {i - 1})"
                    )
            if allocation is not None:
                mine = buffers_of[x]
                for b in mine:
                    for a in list(live) + mine:
                        if a != b and lo[a] < hi[b] and lo[b] < hi[a]:
                            return fail(
                                f"buffers {a} and {b} share memory but are live together "
                                f"({inst.subs[x].name}, iteration {i})"
                            )
                for b in mine:
                    seen = active[b].get(i, 0) + 1
                    if seen == n_access[b]:
                        active[b].pop(i, None)
                    else:
                        active[b][i] = seen
                    if active[b]:
                        live.add(b)
                    else:
                        live.discard(b)
            count[x] += 1
            executed += 1
        pc[k] += 1
        if pc[k] == len(th.steps):
            pc[k] = 0
            it[k] += 1
            if it[k] == iterations:
                runnable.discard(k)
                done.add(k)
    wrong = [inst.subs[x].name for x in range(n_subs) if count[x] != iterations]
    if wrong:
        return fail(f"sub-boxes not run exactly once per iteration: {', '.join(wrong[:5])}")
    return TokenGameReport(True, iterations, executed, f"{iterations} iterations, {executed} executions, no deadlock")


class _RandomSet:
    """A set with O(1) add, discard and uniform random pick (seeded)."""

    def __init__(self, items: Iterable[int], rng: random.Random) -> None:
        self.items: list[int] = []
        self.where: dict[int, int] = {}
        self.rng = rng
        for x in items:
            self.add(x)

    def add(self, x: int) -> None:
        if x not in self.where:
            self.where[x] = len(self.items)
            self.items.append(x)

    def discard(self, x: int) -> None:
        i = self.where.pop(x, None)
        if i is None:
            return
        last = self.items.pop()
        if i < len(self.items):
            self.items[i] = last
            self.where[last] = i

    def pick(self) -> int:
        return self.items[self.rng.randrange(len(self.items))]

    def __len__(self) -> int:
        return len(self.items)

    def __bool__(self) -> bool:
        return bool(self.items)
