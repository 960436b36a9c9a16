"""The planner's entry points: chain (IR) -> plan -> JSON, and a chain's latency as an ETP.

    plan = make_plan(ir, "XRay", PlanOptions(heuristic="reduced", memory="reuse", threads=4, seed=0))
    data = plan_to_json(plan)                     # what `chainlab plan --json` prints
    dist = predict_latency(plan, ir, iterations=2000, seed=1)
    etp = chain_latency_etp(ir, "XRay")           # [(latency_ns, probability)], for `etp chain XRay`

The plan follows the thesis' tool flow (§3.4): instantiate data parallelism, map sub-boxes onto
threads with one of the five heuristics, introduce synchronization, allocate memory; then it is
checked with the token game and its active data and latency are predicted.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from chainlab.errors import ModelError
from chainlab.plan.activity import WINDOW_ITERATION, active_data, nominal_makespan, peak_only
from chainlab.plan.chainview import load_chain
from chainlab.plan.costs import cost_source
from chainlab.plan.hb import build_hb
from chainlab.plan.heuristics import list_schedule, map_in_order, one_to_one
from chainlab.plan.instantiate import instantiate
from chainlab.plan.memory import allocate, interference, lifetimes, time_interference
from chainlab.plan.model import (
    ActiveData,
    Allocation,
    ChainView,
    LatencySummary,
    Mapping,
    Plan,
    Step,
    ThreadPlan,
    TokenGameReport,
)
from chainlab.plan.options import PlanOptions
from chainlab.plan.predict import DEFAULT_BIN_NS, PER_RUN, WARMUP, nominal_timing, predict_latency
from chainlab.plan.reduced import reduced_order
from chainlab.plan.slack import plan_slack
from chainlab.plan.sync import build_signals, build_threads, enforce_sharing, overlapping_pairs, token_game

NOMINAL_ITERATIONS = WARMUP + PER_RUN  # the nominal timeline doubles as predict_latency's


class PlanError(RuntimeError):
    """The planner produced a plan that fails its own checks: a bug in chainlab, please report it."""


def make_plan(ir: dict[str, Any], chain: str, options: PlanOptions = PlanOptions()) -> Plan:
    """Plan chain `chain` of the IR; `options` override the chain's schedule/memory settings and tune
    the planner (see PlanOptions). Bad input raises ModelError; a plan failing its own checks raises
    PlanError (a bug).
    """
    alignment = options.alignment
    if alignment < 1 or alignment & (alignment - 1):
        raise ModelError(f"alignment must be a power of two (got {alignment})")
    timings: dict[str, float] = {}
    clock = time.perf_counter()

    def lap(name: str) -> None:
        nonlocal clock
        now = time.perf_counter()
        timings[name] = round(now - clock, 6)
        clock = now

    view = load_chain(
        ir,
        chain,
        heuristic=options.heuristic,
        memory=options.memory,
        threads=options.threads,
        cores=list(options.cores) if options.cores is not None else None,
    )
    inst = instantiate(view)
    lap("instantiate")
    h = view.heuristic
    pinned = h in ("fixed", "predictable", "reduced")
    barrier = h == "barrier" or (pinned and options.iteration_sync)
    buffer_bytes = [b.bytes for b in view.buffers]
    aligned_bytes = [_aligned(b, alignment) for b in buffer_bytes]
    sos = None
    timing = None

    def candidate(mapping: Mapping) -> Plan:
        signals = build_signals(inst, mapping, barrier=barrier, prune=options.prune_signals)
        plans = build_threads(inst, mapping, signals, barrier=barrier, affinity=view.cores)
        return Plan(
            view,
            h,
            view.memory,
            view.threads,
            view.cores,
            inst,
            mapping,
            signals,
            plans,
            barrier,
            _not_allocated(),
            _no_activity(),
            None,
            _not_checked(),
            options,
            timings,
            options.seed,
        )

    if h in ("simple", "barrier"):
        plan = candidate(one_to_one(inst))
    elif h in ("fixed", "predictable"):
        plan = candidate(
            list_schedule(
                inst,
                view.threads,
                view.cores,
                cache_aware=h == "predictable",
                sync_ns=options.sync_ns,
                remote_ns_per_byte=options.remote_ns_per_byte,
            )
        )
    else:
        sos = reduced_order(
            view, weighted=options.weighted_tokens, node_limit=options.node_limit, time_limit_s=options.time_limit_s
        )
        lap("sos_search")
        order = [s for x in sos.order for s in inst.by_instance[x]]
        reduced = candidate(
            map_in_order(
                inst,
                order,
                view.threads,
                view.cores,
                sync_ns=options.sync_ns,
                remote_ns_per_byte=options.remote_ns_per_byte,
            )
        )
        reduced.mapping.sos = sos.order
        incumbent = candidate(
            list_schedule(
                inst,
                view.threads,
                view.cores,
                cache_aware=True,
                sync_ns=options.sync_ns,
                remote_ns_per_byte=options.remote_ns_per_byte,
            )
        )
        scored = []
        for c in (reduced, incumbent):
            t = nominal_timing(c, NOMINAL_ITERATIONS, period=_period(view), sync_ns=options.sync_ns)
            scored.append(((peak_only(inst, aligned_bytes, t), nominal_makespan(t)), c, t))
        _, plan, timing = scored[0] if scored[0][0] <= scored[1][0] else scored[1]
        plan.mapping.sos = sos.order
        plan.mapping.notes.append(
            f"SOS search: peak {sos.peak} vs greedy {sos.greedy_peak} "
            f"({'B' if options.weighted_tokens else 'buffers'}), "
            f"bound {sos.bound}, {sos.nodes} nodes, stopped: {sos.stopped}"
        )
        if plan is incumbent:
            plan.mapping.notes.append(
                "the SOS mapping did not lower the active data of the nominal execution; "
                "kept predictable's mapping (reduced is never worse than predictable)"
            )
    lap("schedule")

    if timing is None:
        timing = nominal_timing(plan, NOMINAL_ITERATIONS, period=_period(view), sync_ns=options.sync_ns)
    activity, seeds = active_data(inst, aligned_bytes, timing, sos_peak=sos.peak if sos is not None else None)
    plan.active = activity
    lap("timeline")

    hb = build_hb(plan.mapping.orders, plan.signals, len(inst.subs), barrier)
    hb_inter = interference(inst, hb)
    life_start, life_end, life_next = lifetimes(inst, timing.start[:, :, 0], timing.finish[:, :, 0], WINDOW_ITERATION)
    if options.reuse_sync:
        time_inter, a_first = time_interference(life_start, life_end, life_next, margin=float(options.sync_ns))
        alloc_inter = hb_inter & time_inter
    else:
        a_first = np.zeros_like(hb_inter)
        alloc_inter = hb_inter
    schedule_order = sorted(range(len(buffer_bytes)), key=lambda b: (life_start[b], b))
    plan.allocation = allocate(
        inst,
        buffer_bytes,
        view.memory,
        inter=alloc_inter,
        alignment=alignment,
        huge_pages=options.huge_pages,
        schedule_order=schedule_order,
        seeds=seeds,
    )
    if view.memory == "reuse":
        alloc = plan.allocation
        if options.reuse_sync:
            signals = enforce_sharing(
                inst, plan.mapping, plan.signals, alloc.offsets, alloc.sizes, a_first, hb, hb_inter, barrier=barrier
            )
            if len(signals) != len(plan.signals) or any(a.kind != b.kind for a, b in zip(signals, plan.signals)):
                plan.signals = signals
                plan.thread_plans = build_threads(inst, plan.mapping, signals, barrier=barrier, affinity=view.cores)
                hb = build_hb(plan.mapping.orders, plan.signals, len(inst.subs), barrier)
                hb_inter = interference(inst, hb)
        clash = [(a, b) for a, b in overlapping_pairs(alloc.offsets, alloc.sizes) if hb_inter[a, b]]
        if clash:
            a, b = clash[0]
            raise PlanError(
                f"buffers {view.buffers[a].name} and {view.buffers[b].name} share memory but are not ordered"
            )
    lap("memory")

    plan.check = token_game(
        inst,
        plan.thread_plans,
        plan.signals,
        iterations=options.check_iterations,
        seed=options.seed,
        allocation=plan.allocation if view.memory == "reuse" else None,
    )
    if not plan.check.ok:
        raise PlanError(f"plan for chain '{chain}' ({h}) fails the token game: {plan.check.message}")
    lap("check")

    if options.predict:
        n = (
            options.predict_iterations
            if pinned
            else min(options.predict_iterations, max(16, 5_000 // max(1, len(inst.subs))))
        )
        p = predict_latency(plan, iterations=n, seed=options.seed, nominal=timing)
        plan.latency = p.summary()
        lap("predict")
    timings["total"] = round(sum(v for k, v in timings.items() if k != "total"), 6)
    return plan


# A candidate plan has its schedule only; the chosen one gets its memory, activity and check below.
def _not_allocated() -> Allocation:
    return Allocation("none", [], [], 0, 0, True, 0, 1, False, "", 0)


def _no_activity() -> ActiveData:
    return ActiveData(0.0, [], 0, [], None)


def _not_checked() -> TokenGameReport:
    return TokenGameReport(False, 0, 0, "not checked yet")


def _period(view: ChainView) -> float | None:
    return float(view.period_ns) if view.period_ns else None


def _aligned(size: int, alignment: int) -> int:
    return -(-size // alignment) * alignment


def chain_latency_etp(
    ir: dict[str, Any], chain: str, *, iterations: int | None = None, seed: int = 0, bin_ns: int = DEFAULT_BIN_NS
) -> list[tuple[int, float]]:
    """What `etp chain X` in a PTTS component resolves to: the predicted latency distribution of the
    chain's own plan (its schedule, threads and memory settings), on a `bin_ns` grid (rounded up)."""
    plan = make_plan(ir, chain, PlanOptions(seed=seed, predict=False))
    default = 2000 if plan.mapping.pinned else 400  # OS-scheduled plans need the slower event simulation
    return predict_latency(
        plan, iterations=iterations or plan.chain.iterations or default, seed=seed, bin_ns=bin_ns
    ).points


def plan_to_json(plan: Plan) -> dict[str, Any]:
    """The plan as JSON-ready data (what `chainlab plan --json` prints). Times in ns, sizes in bytes.

    threads[]: index, name, core (None for OS-scheduled threads), affinity (allowed cores), sub_boxes
      (static order), steps[] in order ({op: wait|signal, signal} | {op: execute, sub_box} |
      {op: barrier, barrier: "iteration"}), listing ("W s1, E f8.0, S s2, ..." as in Appendix A).
      A thread repeats its steps once per iteration.
    sub_boxes[]: name ("instance.slice"), instance, box, kernel, slice, slices, rows [start, end) of
      `height`, thread, estimated_cost_ns / estimated_start_ns (list scheduling), cost_source (etp |
      cost | model: where the estimate comes from; "model" = kernel estimate, not measured), depends_on,
      slack_ns (how late it may start without delaying the nominal end-to-end finish), critical (no slack:
      on the path that sets the nominal latency).
    dependencies[]: from, to (sub-boxes), buffer, rows [start, end) read, bytes.
    buffers[]: one per output port: name ("instance.port"), producer, consumers, image, bytes,
      size (aligned), offset in the arena. arena_bytes, lower_bound_bytes (+ lower_bound_exact),
      sum_bytes, alignment, huge_pages, allocation_order, interference_edges.
    signals[]: name, kind (data | anti | reuse), initial_tokens, from/to {thread, sub_box}, buffers.
      A wait consumes a token, a signal adds one.
    active_data: window_ns (one iteration in steady state), profile [[t, live bytes from t on]],
      peak_bytes, peak_buffers, sos_peak_bytes (reduced: the box order's peak).
    latency: samples, nominal_ns, mean_ns, std_ns, min/p50/p90/p99/max_ns, period_ns, overloaded, model.
    Also: chain, heuristic, memory, threads_requested, cores, pinned, barrier, period_ns, seed,
    options, sos (reduced's box order), notes, check (token game), timings_s.
    """
    view, inst = plan.chain, plan.inst
    subs = inst.subs
    sig_name = {s.id: s.name for s in plan.signals}
    slack, critical = plan_slack(plan)

    def step(st: Step) -> dict[str, Any]:
        if st.op == "execute":
            return {"op": "execute", "sub_box": subs[st.ref].name}
        if st.op == "barrier":
            return {"op": "barrier", "barrier": "iteration"}
        return {"op": st.op, "signal": sig_name[st.ref]}

    alloc = plan.allocation
    data: dict[str, Any] = {
        "chain": view.name,
        "source": view.source,
        "heuristic": plan.heuristic,
        "memory": plan.memory,
        "threads_requested": plan.threads,
        "cores": list(plan.cores),
        "pinned": plan.mapping.pinned,
        "barrier": plan.barrier,
        "period_ns": view.period_ns,
        "seed": plan.seed,
        "options": plan.options.tuning_json(),
        "threads": [
            {
                "index": th.index,
                "name": th.name,
                "core": th.core,
                "affinity": th.affinity,
                "sub_boxes": [subs[x].name for x in plan.mapping.orders[th.index]],
                "steps": [step(st) for st in th.steps],
                "listing": thread_listing(plan, th),
            }
            for th in plan.thread_plans
        ],
        "sub_boxes": [
            {
                "name": s.name,
                "instance": view.instances[s.instance].name,
                "box": view.instances[s.instance].box,
                "kernel": view.instances[s.instance].kernel,
                "slice": s.index,
                "slices": s.count,
                "rows": [s.row_start, s.row_end],
                "height": s.height,
                "thread": plan.mapping.thread_of[s.id],
                "estimated_cost_ns": round(s.mean_cost_ns),
                "cost_source": cost_source(view.instances[s.instance]),
                "estimated_start_ns": round(plan.mapping.est_start[s.id]),
                "slack_ns": round(slack[s.id]),
                "critical": critical[s.id],
                "depends_on": [subs[p].name for p in inst.preds[s.id]],
            }
            for s in subs
        ],
        "dependencies": [
            {
                "from": subs[d.src].name,
                "to": subs[d.dst].name,
                "buffer": view.buffers[d.buffer].name,
                "rows": [d.row_start, d.row_end],
                "bytes": d.bytes,
            }
            for d in inst.deps
        ],
        "buffers": [
            {
                "name": b.name,
                "producer": {"instance": view.instances[b.producer].name, "port": b.port},
                "consumers": [{"instance": view.instances[c].name, "port": p} for c, p in b.consumers],
                "image": b.image,
                "bytes": b.bytes,
                "size": alloc.sizes[b.index],
                "offset": alloc.offsets[b.index],
            }
            for b in view.buffers
        ],
        "arena_bytes": alloc.arena_bytes,
        "lower_bound_bytes": alloc.lower_bound_bytes,
        "lower_bound_exact": alloc.lower_bound_exact,
        "sum_bytes": alloc.sum_bytes,
        "alignment": alloc.alignment,
        "huge_pages": alloc.huge_pages,
        "allocation_order": alloc.order,
        "interference_edges": alloc.interference_edges,
        "signals": [
            {
                "name": s.name,
                "kind": s.kind,
                "initial_tokens": s.initial_tokens,
                "from": {"thread": s.src_thread, "sub_box": subs[s.src].name},
                "to": {"thread": s.dst_thread, "sub_box": subs[s.dst].name},
                "buffers": [view.buffers[b].name for b in s.buffers],
            }
            for s in plan.signals
        ],
        "active_data": {
            "window_ns": round(plan.active.window_ns),
            "peak_bytes": plan.active.peak_bytes,
            "peak_buffers": [view.buffers[b].name for b in plan.active.peak_buffers],
            "sos_peak_bytes": plan.active.sos_peak_bytes,
            "profile": [[t, v] for t, v in plan.active.profile],
        },
        "sos": [view.instances[x].name for x in plan.mapping.sos] if plan.mapping.sos else None,
        "notes": list(plan.mapping.notes),
        "check": {"ok": plan.check.ok, "iterations": plan.check.iterations, "message": plan.check.message},
        "latency": None,
        "timings_s": dict(plan.timings_s),
    }
    if plan.latency is not None:
        data["latency"] = latency_json(plan.latency)
    return data


def thread_listing(plan: Plan, thread: ThreadPlan) -> str:
    """A thread's steps in one line as in Appendix A: "W s1, E f8.0, S s2, ..."."""
    sig_name = {s.id: s.name for s in plan.signals}
    subs = plan.inst.subs

    def short(st: Step) -> str:
        what = subs[st.ref].name if st.op == "execute" else "iteration" if st.op == "barrier" else sig_name[st.ref]
        return {"wait": "W", "execute": "E", "signal": "S", "barrier": "B"}[st.op] + " " + what

    return ", ".join(short(st) for st in thread.steps)


def latency_json(lat: LatencySummary) -> dict[str, Any]:
    """The latency summary as the plan's JSON gives it (`latency`)."""
    return {
        "samples": lat.samples,
        "nominal_ns": lat.nominal_ns,
        "mean_ns": round(lat.mean_ns),
        "std_ns": round(lat.std_ns),
        "min_ns": lat.min_ns,
        "p50_ns": lat.p50_ns,
        "p90_ns": lat.p90_ns,
        "p99_ns": lat.p99_ns,
        "max_ns": lat.max_ns,
        "period_ns": lat.period_ns,
        "overloaded": lat.overloaded,
        "model": lat.model,
    }


__all__ = [
    "PlanError",
    "PlanOptions",
    "chain_latency_etp",
    "latency_json",
    "make_plan",
    "plan_slack",
    "plan_to_json",
    "predict_latency",
    "thread_listing",
]
