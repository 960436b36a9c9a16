"""Thesis Appendix A.3: the SSC example, 2 threads, fixed or predictable with simple memory."""

from __future__ import annotations

import json

import pytest
from plan_helpers import appendix_a_ir, appendix_a_ir_by_hand

from chainlab.plan import PlanOptions, make_plan, plan_to_json

HEURISTICS = ["fixed", "predictable", "reduced"]


@pytest.fixture(scope="module")
def ir():
    return appendix_a_ir()[0]


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_appendix_a_plan(ir, heuristic):
    plan = plan_to_json(make_plan(ir, "App", PlanOptions(heuristic=heuristic, memory="simple", threads=2)))
    assert len(plan["sub_boxes"]) == 6
    assert [b["size"] for b in plan["buffers"]] == [262144] * 3
    assert [b["offset"] for b in plan["buffers"]] == [0, 262144, 524288]  # m0, m2, m4
    assert plan["arena_bytes"] == 786432 and plan["sum_bytes"] == 786432
    threads = {t["index"]: t["sub_boxes"] for t in plan["threads"]}
    assert threads == {0: ["f8.0", "f6.0", "f7.0", "f9.0"], 1: ["f6.1", "f7.1"]}
    assert [t["core"] for t in plan["threads"]] == [0, 1]
    assert len(plan["signals"]) == 8
    assert sum(1 for s in plan["signals"] if s["initial_tokens"] == 1) == 4
    assert plan["check"]["ok"]


def test_appendix_a_listing_matches_thread_execution(ir):
    """The thread_execution lists of the listing, with its signals renumbered densely in order of first
    appearance (s1 s3 s5 s7 s8 s10 s12 s13 -> s1 .. s8); `!` (initial token) on s1, s5, s10, s13."""
    plan = plan_to_json(make_plan(ir, "App", PlanOptions(heuristic="fixed", memory="simple", threads=2)))
    listing = {"s1": "s1", "s3": "s2", "s5": "s3", "s7": "s4", "s8": "s5", "s10": "s6", "s12": "s7", "s13": "s8"}
    thread0 = "W s1, E f8.0, S s3, W s5, E f6.0, S s7, W s8, E f7.0, S s10, W s12, E f9.0, S s13"
    thread1 = "W s3, W s10, E f6.1, S s1, S s8, W s7, W s13, E f7.1, S s5, S s12"

    def renumber(text: str) -> str:
        return ", ".join(f"{op} {listing.get(arg, arg)}" for op, arg in (item.split(" ") for item in text.split(", ")))

    assert plan["threads"][0]["listing"] == renumber(thread0)
    assert plan["threads"][1]["listing"] == renumber(thread1)
    initial = {s["name"] for s in plan["signals"] if s["initial_tokens"]}
    assert initial == {listing[s] for s in ("s1", "s5", "s10", "s13")}
    assert all(s["kind"] == ("anti" if s["initial_tokens"] else "data") for s in plan["signals"])


def test_appendix_a_instantiation(ir):
    """f6.0 [0,0]:[256,128], f6.1 [0,128]:[256,256]; f8.0 => f6.0, f6.1; every conv sub-box needs both gain
    sub-boxes (halo); f7.0, f7.1 => f9.0."""
    plan = plan_to_json(make_plan(ir, "App", PlanOptions(threads=2, predict=False)))
    subs = {s["name"]: s for s in plan["sub_boxes"]}
    assert subs["f6.0"]["rows"] == [0, 128] and subs["f6.1"]["rows"] == [128, 256]
    assert subs["f8.0"]["rows"] == [0, 256] and subs["f9.0"]["rows"] == [0, 256]
    edges = {(d["from"], d["to"]) for d in plan["dependencies"]}
    assert edges == {
        ("f8.0", "f6.0"),
        ("f8.0", "f6.1"),
        ("f6.0", "f7.0"),
        ("f6.0", "f7.1"),
        ("f6.1", "f7.0"),
        ("f6.1", "f7.1"),
        ("f7.0", "f9.0"),
        ("f7.1", "f9.0"),
    }


def test_appendix_a_hand_built_ir_agrees(ir):
    """The hand-built IR (used when the sample is absent) plans exactly like the sample."""
    a = plan_to_json(make_plan(ir, "App", PlanOptions(threads=2, predict=False)))
    b = plan_to_json(make_plan(appendix_a_ir_by_hand(), "App", PlanOptions(threads=2, predict=False)))
    for key in ("threads", "signals", "arena_bytes", "sum_bytes", "lower_bound_bytes"):
        assert a[key] == b[key], key


def test_appendix_a_reuse_and_pruning(ir):
    """With reuse, m0 and m4 share memory (m0 is dead once both conv slices ran) and no reuse signal is
    needed; pruning drops the four anti-dependency signals, which program order already implies."""
    reuse = plan_to_json(make_plan(ir, "App", PlanOptions(heuristic="fixed", memory="reuse", threads=2)))
    assert reuse["arena_bytes"] == 524288 == reuse["lower_bound_bytes"]
    assert len(reuse["signals"]) == 8
    pruned = plan_to_json(
        make_plan(ir, "App", PlanOptions(heuristic="fixed", memory="simple", threads=2, prune_signals=True))
    )
    assert len(pruned["signals"]) == 4 and all(s["kind"] == "data" for s in pruned["signals"])
    assert pruned["check"]["ok"]
    json.dumps(reuse)
