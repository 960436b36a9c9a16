"""Plans for a machine's cores: one pinned thread per core, or more threads sharing the cores round-robin.

A chain may ask for more threads than a target has rt-cores (XRay wants 4 on a 2-core machine): it is
then planned for that many distinct cores, and `pin_threads` shares the target's cores among them
(the runtime pins thread i to cores[i % n]).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chainlab.plan.api import make_plan
from chainlab.plan.model import Plan
from chainlab.plan.options import PlanOptions


def plan_for_cores(ir: dict[str, Any], chain: str, cores: Sequence[int], options: PlanOptions = PlanOptions()) -> Plan:
    """The chain planned for `cores`: options.threads threads (default: one per core), no latency summary.
    The plan's own core set stays as planned; `pin_threads` maps it onto `cores`."""
    threads = options.threads or len(cores)
    planned_cores = tuple(cores[:threads]) if threads <= len(cores) else tuple(range(threads))
    return make_plan(ir, chain, replace(options, threads=threads, cores=planned_cores, predict=False))


def pin_threads(plan: Plan, cores: Sequence[int]) -> Plan:
    """A copy of the plan whose pinned threads run on `cores`: pinned thread i -> cores[i % len(cores)].
    OS-scheduled threads stay unpinned. Predict latencies with the plan itself: its core set is the model's."""
    threads = []
    pinned = 0
    for thread in plan.thread_plans:
        if thread.core is not None:
            core = cores[pinned % len(cores)]
            pinned += 1
            thread = replace(thread, core=core, affinity=[core])
        threads.append(thread)
    return replace(plan, thread_plans=threads, cores=sorted({t.core for t in threads if t.core is not None}))
