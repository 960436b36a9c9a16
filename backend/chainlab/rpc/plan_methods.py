"""JSON-RPC methods of the planner (thesis chapter 3): plan a chain, generate synthetic chains."""

from __future__ import annotations

from typing import Any

from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.plan import make_plan, plan_to_json
from chainlab.rpc.context import RequestContext
from chainlab.rpc.methods import method
from chainlab.rpc.params import chain_param, plan_options
from chainlab.synth.generator import synth_chain_text


@method("plan/make")
def plan(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    return plan_to_json(make_plan(ir, chain_param(ir, params), plan_options(params)))


@method("plan/synth")
def synth(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    boxes, seed = params.get("boxes", 100), params.get("seed", 0)
    for key, value in (("boxes", boxes), ("seed", seed)):
        if not isinstance(value, int) or isinstance(value, bool) or value < (1 if key == "boxes" else 0):
            raise ModelError(
                f"{key} must be a {'positive' if key == 'boxes' else 'non-negative'} integer, not {value!r}"
            )
    return {"text": synth_chain_text(boxes=boxes, seed=seed)}
