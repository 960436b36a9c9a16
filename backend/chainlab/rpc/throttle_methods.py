"""JSON-RPC methods of the throttler: parameter proposals (thesis §4.6.4, Yun et al.)."""

from __future__ import annotations

from typing import Any

from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.rpc.context import RequestContext
from chainlab.rpc.methods import method
from chainlab.throttle.proposal import propose


@method("throttle/params")
def throttle_params(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    target = params.get("target")
    if not isinstance(target, str) or not target:
        names = ", ".join(t["name"] for t in ir.get("targets", [])) or "none"
        raise ModelError(f"name the target (--target NAME); {ir['source']} has: {names}")
    chain = params.get("chain")
    return propose(ir, target, chain=chain if isinstance(chain, str) else None)
