"""Instantiation, the five heuristics, synchronization and the token game."""

from __future__ import annotations

import json

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plan_helpers import appendix_a_ir_by_hand, fig35_ir_by_hand, sample_ir

from chainlab.plan import PlanOptions, make_plan, plan_to_json
from chainlab.plan.chainview import load_chain
from chainlab.plan.hb import build_hb
from chainlab.plan.reduced import reduced_order, sos_peak
from chainlab.plan.sync import token_game
from chainlab.synth import synth_chain_ir

HEURISTICS = ["simple", "barrier", "fixed", "predictable", "reduced"]


def check_structure(plan):
    """Every sub-box is in exactly one thread's order and executed once in that thread's steps; signals
    join the threads of their sub-boxes; the token game runs without deadlock."""
    n = len(plan.inst.subs)
    seen = sorted(x for order in plan.mapping.orders for x in order)
    assert seen == list(range(n))
    executes = sorted(st.ref for th in plan.thread_plans for st in th.steps if st.op == "execute")
    assert executes == list(range(n))
    for s in plan.signals:
        assert plan.mapping.thread_of[s.src] == s.src_thread != s.dst_thread == plan.mapping.thread_of[s.dst]
        waits = [th.index for th in plan.thread_plans for st in th.steps if st.op == "wait" and st.ref == s.id]
        sends = [th.index for th in plan.thread_plans for st in th.steps if st.op == "signal" and st.ref == s.id]
        assert waits == [s.dst_thread] and sends == [s.src_thread]
    report = token_game(
        plan.inst,
        plan.thread_plans,
        plan.signals,
        iterations=4,
        seed=7,
        allocation=plan.allocation if plan.memory == "reuse" else None,
    )
    assert report.ok, report.message
    assert report.executed == 4 * n


def test_instantiation_dependency_kinds():
    """Figure 3.2: pointwise -> the same slice, halo N -> the slices within N rows, serial box -> one sub-box
    depending on all slices."""
    plan = make_plan(appendix_a_ir_by_hand(), "App", PlanOptions(threads=4, cores=(0, 1, 2, 3), predict=False))
    deps = {(plan.inst.subs[d.src].name, plan.inst.subs[d.dst].name) for d in plan.inst.deps}
    assert {("f8.0", f"f6.{k}") for k in range(4)} <= deps
    assert ("f6.0", "f7.0") in deps and ("f6.1", "f7.0") in deps and ("f6.2", "f7.0") not in deps
    assert {("f6.1", "f7.2"), ("f6.2", "f7.2"), ("f6.3", "f7.2")} <= deps and ("f6.0", "f7.2") not in deps
    assert {(f"f7.{k}", "f9.0") for k in range(4)} <= deps
    halo = next(
        d for d in plan.inst.deps if plan.inst.subs[d.src].name == "f6.1" and plan.inst.subs[d.dst].name == "f7.0"
    )
    assert (halo.row_start, halo.row_end, halo.bytes) == (64, 65, 1024)  # one edge row of 256 ints


@pytest.mark.parametrize("heuristic", HEURISTICS)
@pytest.mark.parametrize("memory", ["simple", "reuse"])
def test_every_plan_passes_the_checks(heuristic, memory):
    for ir, chain in (
        (appendix_a_ir_by_hand(), "App"),
        (fig35_ir_by_hand(), "Fig35"),
        (synth_chain_ir(40, 5), "Synth"),
    ):
        plan = make_plan(ir, chain, PlanOptions(heuristic=heuristic, memory=memory, predict=False))
        check_structure(plan)
        assert plan.check.ok
        json.dumps(plan_to_json(plan))


def test_heuristic_shapes():
    ir = synth_chain_ir(30, 2)
    simple = make_plan(ir, "Synth", PlanOptions(heuristic="simple", predict=False))
    assert not simple.mapping.pinned and len(simple.thread_plans) == len(simple.inst.subs)
    assert all(th.core is None and th.affinity == [0, 1, 2, 3] for th in simple.thread_plans)
    assert any(s.kind == "anti" for s in simple.signals) and not simple.barrier
    barrier = make_plan(ir, "Synth", PlanOptions(heuristic="barrier", predict=False))
    assert barrier.barrier and all(th.steps[-1].op == "barrier" for th in barrier.thread_plans)
    assert all(s.kind != "anti" for s in barrier.signals)
    for h in ("fixed", "predictable", "reduced"):
        plan = make_plan(ir, "Synth", PlanOptions(heuristic=h, predict=False))
        assert plan.mapping.pinned and [th.core for th in plan.thread_plans] == [0, 1, 2, 3]


def test_predictable_keeps_slices_on_their_thread():
    """Figure 3.4: with the cache-aware heuristic, a pointwise successor runs on the thread that produced
    its input slice."""
    plan = make_plan(
        sample_ir("fig3-1") or appendix_a_ir_by_hand(),
        "Fig31" if sample_ir("fig3-1") else "App",
        PlanOptions(heuristic="predictable", predict=False),
    )
    inst = plan.inst
    for d in inst.deps:
        a, b = inst.subs[d.src], inst.subs[d.dst]
        if plan.chain.instances[b.instance].depends == "pointwise" and a.count == b.count:
            assert plan.mapping.thread_of[d.src] == plan.mapping.thread_of[d.dst]


def test_iteration_sync_and_pruning_keep_order():
    ir = synth_chain_ir(40, 9)
    for kwargs in ({"iteration_sync": True}, {"prune_signals": True}):
        plan = make_plan(ir, "Synth", PlanOptions(heuristic="fixed", memory="reuse", predict=False, **kwargs))
        check_structure(plan)
    full = make_plan(ir, "Synth", PlanOptions(heuristic="fixed", memory="simple", predict=False))
    pruned = make_plan(ir, "Synth", PlanOptions(heuristic="fixed", memory="simple", predict=False, prune_signals=True))
    assert len(pruned.signals) < len(full.signals)
    a = build_hb(full.mapping.orders, full.signals, len(full.inst.subs), False)
    b = build_hb(pruned.mapping.orders, pruned.signals, len(pruned.inst.subs), False)
    assert a.desc == b.desc  # same happens-before relation


def fig35():
    ir = sample_ir("fig3-5")
    return (ir, "Fig35") if ir is not None else (fig35_ir_by_hand(), "Fig35")


@pytest.mark.parametrize("memory", ["simple", "reuse"])
def test_reduced_not_above_predictable_on_fig35(memory):
    ir, chain = fig35()
    for ir_, name in ((ir, chain), (fig35_ir_by_hand(), "Fig35")):
        red = make_plan(ir_, name, PlanOptions(heuristic="reduced", memory=memory, predict=False))
        pre = make_plan(ir_, name, PlanOptions(heuristic="predictable", memory=memory, predict=False))
        assert red.active.peak_bytes <= pre.active.peak_bytes


def test_sos_search_beats_greedy_and_is_optimal_on_small_chains():
    """The bounded backtracking finds orders with less active data than the greedy descent (here a
    12-box chain), and when it finishes it is optimal: brute force over all topological orders agrees."""
    view = load_chain(synth_chain_ir(12, 5), "Synth")
    result = reduced_order(view)
    assert result.peak < result.greedy_peak and result.optimal
    assert sos_peak(view, result.order) == result.peak
    for seed in range(8):
        view = load_chain(synth_chain_ir(8, seed, inputs=1, outputs=1), "Synth")
        result = reduced_order(view, weighted=seed % 2 == 0)
        g = nx.DiGraph()
        g.add_nodes_from(range(len(view.instances)))
        g.add_edges_from((b.producer, c) for b in view.buffers for c, _ in b.consumers)
        best = min(sos_peak(view, list(order), weighted=seed % 2 == 0) for order in nx.all_topological_sorts(g))
        assert result.optimal and result.peak == best


def test_sos_search_respects_node_limit():
    view = load_chain(synth_chain_ir(60, 3), "Synth")
    result = reduced_order(view, node_limit=5)
    assert result.nodes <= 5 and result.peak <= result.greedy_peak
    assert sorted(result.order) == list(range(len(view.instances)))


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boxes=st.integers(8, 60), seed=st.integers(0, 10_000), threads=st.integers(2, 4))
def test_reduced_not_above_predictable_on_synthetic(boxes, seed, threads):
    ir = synth_chain_ir(boxes, seed, threads=threads)
    red = make_plan(ir, "Synth", PlanOptions(heuristic="reduced", memory="reuse", predict=False))
    pre = make_plan(ir, "Synth", PlanOptions(heuristic="predictable", memory="reuse", predict=False))
    assert red.active.peak_bytes <= pre.active.peak_bytes
    assert red.active.sos_peak_bytes is not None


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_reduced_lowers_active_data_on_100_box_chains(seed):
    ir = synth_chain_ir(100, seed)
    red = make_plan(ir, "Synth", PlanOptions(heuristic="reduced", memory="reuse", predict=False))
    pre = make_plan(ir, "Synth", PlanOptions(heuristic="predictable", memory="reuse", predict=False))
    assert red.active.peak_bytes <= pre.active.peak_bytes
    assert red.allocation.arena_bytes <= pre.allocation.sum_bytes


def test_unconnected_output_and_whole_dependency():
    """An output nobody reads still gets a buffer (live while its producer runs); `depends whole` makes
    every slice depend on every producer slice."""
    ir = appendix_a_ir_by_hand()
    chain = ir["chains"][0]
    chain["instances"] = [i for i in chain["instances"] if i["name"] != "f9"]
    chain["connections"] = chain["connections"][:2]
    conv = next(b for b in ir["boxes"] if b["name"] == "Conv")
    conv["depends"] = {"kind": "whole", "halo_rows": 0}
    for h in HEURISTICS:
        plan = make_plan(ir, "App", PlanOptions(heuristic=h, memory="reuse", threads=2, predict=False))
        check_structure(plan)
        names = {(plan.inst.subs[d.src].name, plan.inst.subs[d.dst].name) for d in plan.inst.deps}
        assert {("f6.0", "f7.0"), ("f6.1", "f7.0"), ("f6.0", "f7.1"), ("f6.1", "f7.1")} <= names
        out = next(b for b in plan.chain.buffers if b.name == "f7.o")
        assert out.consumers == [] and plan.inst.readers[out.index] == []


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_tiny_chains(heuristic):
    """A lone source (its output unread) and a source feeding a sink, with more threads than rows."""
    ir = appendix_a_ir_by_hand()
    chain = ir["chains"][0]
    chain["instances"] = chain["instances"][:1]
    chain["connections"] = []
    plan = make_plan(ir, "App", PlanOptions(heuristic=heuristic, memory="reuse"))
    assert len(plan.inst.subs) == 1 and plan.allocation.arena_bytes == 262144 and plan.check.ok
    ir = appendix_a_ir_by_hand()
    ir["images"][0].update(height=1, frame_bytes=1024)
    ir["chains"][0]["connections"] = [dict(c, bytes=1024) for c in ir["chains"][0]["connections"]]
    plan = make_plan(ir, "App", PlanOptions(heuristic=heuristic, memory="reuse", threads=2))
    assert all(s.count == 1 for s in plan.inst.subs) and plan.check.ok
