"""plan_to_json: the fields `chainlab plan --json` prints, JSON-serialisable."""

from __future__ import annotations

import json

from chainlab.plan import PlanOptions, make_plan, plan_to_json
from chainlab.synth import synth_chain_ir

KEYS = {
    "chain",
    "heuristic",
    "memory",
    "threads",
    "sub_boxes",
    "buffers",
    "arena_bytes",
    "lower_bound_bytes",
    "sum_bytes",
    "signals",
    "active_data",
    "latency",
    "dependencies",
    "check",
    "cores",
    "pinned",
    "barrier",
}


def test_plan_json_fields():
    plan = plan_to_json(make_plan(synth_chain_ir(30, 1), "Synth", PlanOptions(heuristic="reduced", memory="reuse")))
    assert KEYS <= set(plan)
    text = json.dumps(plan)
    assert json.loads(text) == plan
    t = plan["threads"][0]
    assert {"index", "core", "steps", "sub_boxes", "listing"} <= set(t)
    ops = {s["op"] for th in plan["threads"] for s in th["steps"]}
    assert {"wait", "execute", "signal"} <= ops
    sb = plan["sub_boxes"][0]
    assert {"name", "instance", "rows", "slice", "slices", "thread"} <= set(sb)
    b = plan["buffers"][0]
    assert {"name", "offset", "size", "bytes", "producer", "consumers"} <= set(b)
    s = plan["signals"][0]
    assert {"name", "kind", "initial_tokens", "from", "to"} <= set(s)
    ad = plan["active_data"]
    assert ad["peak_bytes"] == max(v for _, v in ad["profile"]) and ad["profile"][0][0] == 0
    assert plan["latency"]["p99_ns"] >= plan["latency"]["p50_ns"] > 0
    assert plan["lower_bound_bytes"] <= plan["arena_bytes"] <= plan["sum_bytes"]
    assert all(0 <= b["offset"] and b["offset"] + b["size"] <= plan["arena_bytes"] for b in plan["buffers"])


def test_huge_pages_and_alignment():
    plan = plan_to_json(
        make_plan(
            synth_chain_ir(20, 2, width=100, height=30, pixel="u8"),
            "Synth",
            PlanOptions(memory="reuse", huge_pages=True, alignment=256, predict=False),
        )
    )
    assert plan["arena_bytes"] % (2 * 1024 * 1024) == 0 and plan["huge_pages"]
    assert all(b["offset"] % 256 == 0 and b["size"] % 256 == 0 for b in plan["buffers"])
