"""JSON-RPC methods of the planner (thesis chapter 3): plan a chain, generate synthetic chains."""

from __future__ import annotations

from typing import Any

from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.plan import make_plan, plan_to_json
from chainlab.rpc.context import RequestContext
from chainlab.rpc.contract import contract_file
from chainlab.rpc.methods import method
from chainlab.rpc.params import chain_param, plan_options
from chainlab.synth.generator import synth_chain_text


@method("plan/make")
def plan(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    return plan_to_json(make_plan(ir, chain_param(ir, params), plan_options(params)))


#: The range of plan/synth's boxes, from the contract (SynthParams): the CLI checks the same numbers.
_BOXES = contract_file("rpc-plan.schema.json")["$defs"]["SynthParams"]["properties"]["boxes"]


@method("plan/synth")
def synth(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    boxes, seed = params.get("boxes", 100), params.get("seed", 0)
    if not isinstance(boxes, int) or isinstance(boxes, bool) or not _BOXES["minimum"] <= boxes <= _BOXES["maximum"]:
        raise ModelError(f"boxes must be a whole number from {_BOXES['minimum']} to {_BOXES['maximum']}, not {boxes!r}")
    if not isinstance(seed, int) or isinstance(seed, bool) or seed < 0:
        raise ModelError(f"seed must be a non-negative integer, not {seed!r}")
    return {"text": synth_chain_text(boxes=boxes, seed=seed)}
