"""Slack of a plan's estimated schedule: how late each sub-box may start without delaying the plan.

The estimated schedule (`Mapping.est_start` / `est_finish`, from list scheduling) places every sub-box as
early as its data predecessors and the previous sub-box of its thread allow. Walking that same graph
backwards from the nominal end-to-end finish (the last estimated finish) gives each sub-box its latest
start; slack is latest minus estimated start. Sub-boxes with no slack form the critical path: making
any of them slower makes the whole iteration slower, which is what the diagrams highlight.

    slack, critical = plan_slack(plan)
"""

from __future__ import annotations

from itertools import pairwise

from chainlab.plan.model import Instantiation, Mapping, Plan

#: Below this many ns of slack a sub-box counts as critical (the schedule's floats are rounded to ns).
CRITICAL_TOLERANCE_NS = 0.5


def schedule_slack(inst: Instantiation, mapping: Mapping, *, sync_ns: float = 0.0) -> tuple[list[float], list[bool]]:
    """Per sub-box slack (ns, >= 0) and whether it is on the critical path.

    Parameters
    ----------
    inst : Instantiation
        The sub-boxes and their data dependencies.
    mapping : Mapping
        Threads, each thread's static order and the estimated start/finish of every sub-box.
    sync_ns : float
        What the schedule charged a dependency between two pinned threads (a signal); 0 when the
        heuristic schedules on execution times alone (fixed) or the OS schedules (simple, barrier).

    Returns
    -------
    tuple[list[float], list[bool]]
        `slack[s]`: latest start that does not delay the nominal end-to-end finish, minus the
        estimated start; `critical[s]`: slack is (within rounding) zero.
    """
    n = len(inst.subs)
    if n == 0:
        return [], []
    cost = [s.mean_cost_ns for s in inst.subs]
    succs = _successors(inst, mapping, sync_ns)
    end = max(mapping.est_finish)
    latest = [0.0] * n
    for s in reversed(_order(n, succs)):
        finish = min((latest[t] - lag for t, lag in succs[s]), default=end)
        latest[s] = min(finish, end) - cost[s]
    slack = [max(0.0, latest[s] - mapping.est_start[s]) for s in range(n)]
    return slack, [x < CRITICAL_TOLERANCE_NS for x in slack]


def _successors(inst: Instantiation, mapping: Mapping, sync_ns: float) -> list[list[tuple[int, float]]]:
    """Edges of the schedule graph with their lag: data dependencies (a signal's delay between pinned
    threads) and each pinned thread's static order (no lag: the next sub-box starts when it is free)."""
    succs: list[list[tuple[int, float]]] = [[] for _ in inst.subs]
    for s, after in enumerate(inst.succs):
        for t in after:
            cross = mapping.pinned and mapping.thread_of[s] != mapping.thread_of[t]
            succs[s].append((t, float(sync_ns) if cross else 0.0))
    if mapping.pinned:
        for order in mapping.orders:
            for a, b in pairwise(order):
                succs[a].append((b, 0.0))
    return succs


def _order(n: int, succs: list[list[tuple[int, float]]]) -> list[int]:
    """A topological order of the schedule graph (program order and data edges agree, so it is acyclic)."""
    indeg = [0] * n
    for edges in succs:
        for t, _ in edges:
            indeg[t] += 1
    ready = [x for x in range(n) if indeg[x] == 0]
    out: list[int] = []
    while ready:
        x = ready.pop()
        out.append(x)
        for t, _ in succs[x]:
            indeg[t] -= 1
            if indeg[t] == 0:
                ready.append(t)
    if len(out) != n:
        raise ValueError("the plan's thread orders and dependencies form a cycle")
    return out


def plan_slack(plan: Plan) -> tuple[list[float], list[bool]]:
    """Slack and criticality of every sub-box in the plan's estimated schedule.

    Parameters
    ----------
    plan : Plan
        A plan from `make_plan`.

    Returns
    -------
    tuple[list[float], list[bool]]
        Per sub-box slack in ns and whether it is on the critical path.
    """
    # Only the cache-aware schedulers charged a signal between threads when they placed sub-boxes.
    charged = plan.mapping.pinned and plan.heuristic in ("predictable", "reduced")
    return schedule_slack(plan.inst, plan.mapping, sync_ns=plan.options.sync_ns if charged else 0.0)
