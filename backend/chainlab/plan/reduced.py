"""The reduced heuristic's static order schedule (thesis §3.4.2, "many-to-one cache aware reduced").

A static order schedule (SOS) of the structural graph (box level) is built so that the amount of
active data, i.e. buffers written and not yet read by all their consumers, stays small during an
iteration: greedily, the ready box whose execution adds the least active data (outputs allocated
minus inputs it frees) runs first. Then a depth-first branch and bound revisits earlier choices to
find an order with a lower peak; because that search is exponential it stops after `node_limit`
expanded states or `time_limit_s` seconds (the thesis stops "when a specific amount of tokens is
reached or when it takes too long"). The node limit makes the result deterministic; the time limit
is only a safety net. Orders reaching the same set of executed boxes with no lower peak are cut
(the live data depends only on that set), and the search ends early when the peak equals the
trivial bound max over boxes of (inputs + outputs).

Tokens are weighted by their size in bytes (`weighted=True`) or each buffer counts 1 (the SSC's
`--weightedtokens false`). During a box's execution its inputs and outputs are all live.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from chainlab.plan.model import ChainView


@dataclass
class SosResult:
    order: list[int]  # instance indices
    peak: int
    greedy_peak: int
    bound: int
    nodes: int
    optimal: bool
    stopped: str  # "exhausted" | "bound" | "node_limit" | "time_limit"


def reduced_order(
    view: ChainView, *, weighted: bool = True, node_limit: int = 20_000, time_limit_s: float = 2.0
) -> SosResult:
    m = len(view.instances)
    weight = [b.bytes if weighted else 1 for b in view.buffers]
    outs: list[list[int]] = [[] for _ in range(m)]
    ins: list[list[int]] = [[] for _ in range(m)]
    consumers_left0 = [0] * len(view.buffers)
    for b in view.buffers:
        outs[b.producer].append(b.index)
        readers = sorted({c for c, _ in b.consumers})
        consumers_left0[b.index] = len(readers)
        for c in readers:
            ins[c].append(b.index)
    succs: list[list[int]] = [sorted({c for b in outs[x] for c, _ in view.buffers[b].consumers}) for x in range(m)]
    npred0 = [0] * m
    for x in range(m):
        for y in succs[x]:
            npred0[y] += 1
    out_w = [sum(weight[b] for b in outs[x]) for x in range(m)]
    dead_out = [sum(weight[b] for b in outs[x] if consumers_left0[b] == 0) for x in range(m)]
    bound = max((out_w[x] + sum(weight[b] for b in ins[x]) for x in range(m)), default=0)

    left = list(consumers_left0)
    npred = list(npred0)
    ready: set[int] = {x for x in range(m) if npred[x] == 0}

    def freed(x: int) -> int:
        return sum(weight[b] for b in ins[x] if left[b] == 1) + dead_out[x]

    def key(x: int, live: int) -> tuple[int, int, int]:
        return (out_w[x] - freed(x), live + out_w[x], x)

    def do(x: int, live: int) -> int:
        for b in ins[x]:
            left[b] -= 1
            if left[b] == 0:
                live -= weight[b]
        live += out_w[x] - dead_out[x]
        ready.discard(x)
        for y in succs[x]:
            npred[y] -= 1
            if npred[y] == 0:
                ready.add(y)
        return live

    def undo(x: int) -> None:
        for y in succs[x]:
            if npred[y] == 0:
                ready.discard(y)
            npred[y] += 1
        ready.add(x)
        for b in ins[x]:
            left[b] += 1

    # Greedy descent.
    live, peak, order = 0, 0, []
    while ready:
        x = min(ready, key=lambda y: key(y, live))
        peak = max(peak, live + out_w[x])
        live = do(x, live)
        order.append(x)
    greedy_peak = peak
    best_peak, best_order = peak, order
    # reset
    left[:] = consumers_left0
    npred[:] = npred0
    ready.clear()
    ready.update(x for x in range(m) if npred[x] == 0)
    if best_peak <= bound or m <= 1:
        return SosResult(best_order, best_peak, greedy_peak, bound, 0, True, "bound")

    # Branch and bound, depth first, children in greedy order.
    deadline = time.perf_counter() + time_limit_s
    seen: dict[int, int] = {}
    path: list[int] = []
    # frame: [children, next child index, live before, peak before, mask before]
    stack: list[list] = [[sorted(ready, key=lambda y: key(y, 0)), 0, 0, 0, 0]]
    nodes = 0
    stopped = "exhausted"
    while stack:
        frame = stack[-1]
        children, i, live, peak, mask = frame
        if i >= len(children):
            stack.pop()
            if path:
                undo(path.pop())
            continue
        frame[1] = i + 1
        x = children[i]
        step_peak = max(peak, live + out_w[x])
        if step_peak >= best_peak:
            continue
        nodes += 1
        if nodes >= node_limit:
            stopped = "node_limit"
            break
        if (nodes & 255) == 0 and time.perf_counter() > deadline:
            stopped = "time_limit"
            break
        new_mask = mask | (1 << x)
        if seen.get(new_mask, best_peak + 1) <= step_peak:
            continue
        seen[new_mask] = step_peak
        new_live = do(x, live)
        path.append(x)
        if len(path) == m:
            best_peak, best_order = step_peak, list(path)
            undo(path.pop())
            if best_peak <= bound:
                stopped = "bound"
                break
            continue
        stack.append([sorted(ready, key=lambda y: key(y, new_live)), 0, new_live, step_peak, new_mask])
    while path:
        undo(path.pop())
    return SosResult(best_order, best_peak, greedy_peak, bound, nodes, stopped in ("exhausted", "bound"), stopped)


def sos_peak(view: ChainView, order: list[int], *, weighted: bool = True) -> int:
    """Peak active data of a box order under the same accounting as the search."""
    weight = [b.bytes if weighted else 1 for b in view.buffers]
    left = [len({c for c, _ in b.consumers}) for b in view.buffers]
    ins: list[set[int]] = [set() for _ in view.instances]
    outs: list[list[int]] = [[] for _ in view.instances]
    for b in view.buffers:
        outs[b.producer].append(b.index)
        for c, _ in b.consumers:
            ins[c].add(b.index)
    live = peak = 0
    for x in order:
        live += sum(weight[b] for b in outs[x])
        peak = max(peak, live)
        for read in ins[x]:
            left[read] -= 1
            if left[read] == 0:
                live -= weight[read]
        live -= sum(weight[w] for w in outs[x] if left[w] == 0)
    return peak
