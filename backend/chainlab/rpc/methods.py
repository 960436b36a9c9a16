"""The backend's JSON-RPC methods: one table, name → handler(params, context) → JSON result.

Every handler takes the IR (the only model input the backend accepts) in its params and
returns plain JSON; the context carries what the transport adds (progress). User errors
raise ChainlabError and reach the client as JSON-RPC errors carrying the element and its
source location.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainlab import __version__
from chainlab.ir import IR_VERSION, validate_ir
from chainlab.rpc.context import RequestContext
from chainlab.rpc.contract import CONTRACT_VERSION, check_client_version

Handler = Callable[[dict[str, Any], RequestContext], Any]

METHODS: dict[str, Handler] = {}


def method(name: str) -> Callable[[Handler], Handler]:
    def register(handler: Handler) -> Handler:
        METHODS[name] = handler
        return handler

    return register


@method("backend/version")
def backend_version(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    """The client's first request: a client that speaks another contract version is refused (CONTRACT_MISMATCH)."""
    check_client_version(params.get("contract_version"))
    return {
        "version": __version__,
        "contract_version": CONTRACT_VERSION,
        "ir_version": IR_VERSION,
        "methods": sorted(METHODS),
    }


@method("ir/validate")
def ir_validate(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    return {"valid": True, "source": ir["source"]}


def load_method_modules() -> None:
    """Import the modules that register further methods (one per concern)."""
    import importlib

    for module in ADAPTERS:
        importlib.import_module(module)


#: Modules whose import registers methods of one concern each.
ADAPTERS: list[str] = [
    "chainlab.rpc.ptts_methods",
    "chainlab.rpc.plan_methods",
    "chainlab.rpc.run_methods",
    "chainlab.rpc.throttle_methods",
    "chainlab.rpc.deploy_methods",
    "chainlab.rpc.experiment_methods",
    "chainlab.rpc.timings_methods",
    "chainlab.rpc.interchange_methods",
]
