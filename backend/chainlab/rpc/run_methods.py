"""JSON-RPC methods of the C code generator and local runs: generate a project, run a chain here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chainlab.codegen import generate_project
from chainlab.codegen.output import check_target, write_generated
from chainlab.deploy.targets import HERE
from chainlab.errors import ModelError
from chainlab.files import resolved
from chainlab.ir import has_target, validate_ir
from chainlab.plan import make_plan
from chainlab.rpc.context import RequestContext, start_work
from chainlab.rpc.deploy_methods import deploy_run
from chainlab.rpc.methods import method
from chainlab.rpc.params import MAX_CALIBRATE, MAX_ITERATIONS, chain_param, plan_options, whole_param
from chainlab.run.local import run_local, summary_text, target_cores


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
    ir = validate_ir(params.get("ir"))
    chain = chain_param(ir, params)
    target = params.get("target") or HERE
    if target == HERE and not has_target(ir, HERE):
        target = None  # `--target here` without a target of that name: this machine, all cores
    target_cores(ir, target)
    start_work()
    if params.get("scenario"):
        if target is None:
            raise ModelError("scenarios need a target of the model with rt- and be-cores (e.g. --target here)")
        # the same experiment as `deploy` on this machine; its files go under the run's output directory
        out = Path(params["out"]) if params.get("out") else Path("chainlab-runs") / chain
        return deploy_run({**params, "ir": ir, "chain": chain, "target": target, "runs": str(out)}, context)
    result = run_local(
        ir,
        chain,
        target=target,
        options=plan_options(params),
        iterations=whole_param(params, "iterations", 1, MAX_ITERATIONS),
        calibrate=whole_param(params, "calibrate", 0, MAX_CALIBRATE) or 0,
        out_dir=Path(params["out"]) if params.get("out") else None,
        progress=context.report,
        model_file=params.get("file"),
    )  # always a callable: the binary reports progress either way
    return {**result.to_json(), "summary": summary_text(result)}
