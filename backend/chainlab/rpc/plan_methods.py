"""JSON-RPC methods of the planner (thesis chapter 3): plan a chain, generate synthetic chains."""
from __future__ import annotations

from typing import Any

from chainlab.errors import ModelError
from chainlab.ir import find_chain, validate_ir
from chainlab.plan.api import make_plan, plan_to_json
from chainlab.rpc.methods import method
from chainlab.synth.generator import synth_chain_text


def _chain_name(ir: dict[str, Any], params: dict[str, Any]) -> str:
    name = params.get("chain")
    if isinstance(name, str):
        find_chain(ir, name)
        return name
    names = [c["name"] for c in ir["chains"]]
    if len(names) != 1:
        raise ModelError(f"name the chain to plan (--chain NAME); {ir['source']} has: {', '.join(names) or 'none'}")
    return names[0]


@method("plan/make")
def plan(params: dict[str, Any]) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    options = {key: params[key] for key in ("heuristic", "memory", "threads", "seed") if params.get(key) is not None}
    return plan_to_json(make_plan(ir, _chain_name(ir, params), **options))


@method("plan/synth")
def synth(params: dict[str, Any]) -> dict[str, Any]:
    boxes, seed = params.get("boxes", 100), params.get("seed", 0)
    for key, value in (("boxes", boxes), ("seed", seed)):
        if not isinstance(value, int) or isinstance(value, bool) or value < (1 if key == "boxes" else 0):
            raise ModelError(f"{key} must be a {'positive' if key == 'boxes' else 'non-negative'} integer, not {value!r}")
    return {"text": synth_chain_text(boxes=boxes, seed=seed)}
