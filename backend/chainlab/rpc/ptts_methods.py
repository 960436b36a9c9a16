"""JSON-RPC methods of the PTTS analysis (thesis chapter 5): analyze, simulate, cost, explore."""

from __future__ import annotations

from typing import Any

from chainlab.errors import ModelError
from chainlab.ir import find_ptts, validate_ir
from chainlab.ptts import api
from chainlab.rpc.chain_etp import chain_resolver
from chainlab.rpc.context import RequestContext
from chainlab.rpc.methods import method
from chainlab.rpc.params import whole_param


def _ptts(params: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    ir = validate_ir(params.get("ir"))
    name = params.get("ptts")
    if not isinstance(name, str):
        names = [p["name"] for p in ir["ptts"]]
        if len(names) != 1:
            raise ModelError(
                f"name the ptts to analyse (--ptts NAME); {ir['source']} has: {', '.join(names) or 'none'}"
            )
        name = names[0]
    return ir, find_ptts(ir, name)


def _int_option(params: dict[str, Any], key: str, default: int | None) -> int | None:
    value = params.get(key, default)
    if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 1):
        raise ModelError(f"option {key} must be a positive integer, not {value!r}")
    return value


@method("ptts/analyze")
def analyze(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    ir, ptts = _ptts(params)
    options: dict[str, Any] = {"per_root": bool(params.get("per_root", False)), "resolve_chain": chain_resolver(ir)}
    max_trees = _int_option(params, "max_trees", None)
    if max_trees is not None:
        options["max_trees"] = max_trees
    return {"source": ir["source"], **api.analyze(ptts, **options)}


@method("ptts/simulate")
def simulate(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    ir, ptts = _ptts(params)
    iterations = _int_option(params, "iterations", 10_000) or 10_000
    seed = whole_param(params, "seed", 0, 2**63 - 1) or 0
    return {
        "source": ir["source"],
        **api.simulate(ptts, iterations=iterations, seed=seed, resolve_chain=chain_resolver(ir)),
    }


@method("ptts/cost")
def cost(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    """The cost before any work, and the refusal (with nearby periods) ptts/analyze would give with this max_trees."""
    ir, ptts = _ptts(params)
    options: dict[str, Any] = {"resolve_chain": chain_resolver(ir)}
    max_trees = _int_option(params, "max_trees", None)
    if max_trees is not None:
        options["max_trees"] = max_trees
    return {"source": ir["source"], "name": ptts["name"], **api.estimate_cost(ptts, **options)}


@method("ptts/explore")
def explore(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    from chainlab.ptts.explore import explore as sweep

    ir, ptts = _ptts(params)
    vary = params.get("vary")
    if isinstance(vary, str):
        vary = [vary]
    if not isinstance(vary, list) or not all(isinstance(v, str) for v in vary):
        raise ModelError("vary: name the component(s) whose offset to sweep (--vary NAME)")
    options: dict[str, Any] = {"objective": params.get("objective", "p99"), "resolve_chain": chain_resolver(ir)}
    step = _int_option(params, "step_ns", None)
    if step is not None:
        options["step_ns"] = step
    return {"source": ir["source"], **sweep(ptts, vary, **options)}
