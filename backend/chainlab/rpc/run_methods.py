"""JSON-RPC methods of the C code generator and runs: generate a project, run a chain (by default here, once)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chainlab.codegen import generate_project
from chainlab.codegen.output import check_target, write_generated
from chainlab.errors import ModelError
from chainlab.files import resolved
from chainlab.ir import validate_ir
from chainlab.plan import make_plan
from chainlab.rpc.context import RequestContext, start_work
from chainlab.rpc.methods import method
from chainlab.rpc.params import chain_param, plan_options, run_options
from chainlab.run import run_chain


def _out(params: dict[str, Any]) -> Path:
    out = params.get("out")
    if not isinstance(out, str) or not out:
        raise ModelError("name the output directory (-o DIR)")
    return Path(out)


@method("run/generate")
def generate(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    chain = chain_param(ir, params)
    out, force = _out(params), params.get("force") is True
    check_target(out, force)  # before planning: a refused directory costs nothing
    plan = make_plan(ir, chain, plan_options(params, predict=False))
    files = generate_project(plan)
    write_generated(files, out, force)
    return {
        "chain": chain,
        "heuristic": plan.heuristic,
        "memory": plan.memory,
        "threads": len(plan.thread_plans),
        "out": str(resolved(out)),
        "files": sorted(files),
    }


@method("run/local")
def run(params: dict[str, Any], context: RequestContext) -> dict[str, Any]:
    """`chainlab run`: by default the baseline on this machine, into chainlab-runs/CHAIN."""
    ir = validate_ir(params.get("ir"))
    chain = chain_param(ir, params)
    options = run_options(
        params, context.progress, lambda _: None, scenarios="baseline", out=Path("chainlab-runs") / chain
    )
    start_work()
    return run_chain(ir, chain, options).to_json()
