"""JSON-RPC methods of the C code generator and local runs (issue 6): generate a project, run a chain here."""
from __future__ import annotations

from pathlib import Path
from typing import Any

from chainlab.codegen import generate_project, write_project
from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.plan.api import make_plan, plan_to_json
from chainlab.rpc.methods import method
from chainlab.rpc.plan_methods import _chain_name
from chainlab.run import interrupt
from chainlab.run.local import run_local, summary_text, target_cores
from chainlab.rpc.deploy_methods import deploy_run


def _out(params: dict[str, Any]) -> Path:
    out = params.get("out")
    if not isinstance(out, str) or not out:
        raise ModelError("name the output directory (-o DIR)")
    return Path(out)


@method("run/generate")
def generate(params: dict[str, Any]) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    chain = _chain_name(ir, params)
    options = {key: params[key] for key in ("heuristic", "memory", "threads", "seed") if params.get(key) is not None}
    plan = plan_to_json(make_plan(ir, chain, predict=False, **options))
    files = generate_project(plan, ir)
    out = _out(params)
    write_project(files, out)
    return {"chain": chain, "heuristic": plan["heuristic"], "memory": plan["memory"], "threads": len(plan["threads"]),
            "out": str(out.resolve()), "files": sorted(files)}


@method("run/local")
def run(params: dict[str, Any]) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    chain = _chain_name(ir, params)
    target = params.get("target") or "here"
    if target == "here" and not any(t["name"] == "here" for t in ir.get("targets", [])):
        target = None  # `--target here` without a target of that name: this machine, all cores
    target_cores(ir, target)
    interrupt.reset()
    progress = params.get("progress")

    def on_progress(fraction: float, message: str) -> None:
        if progress:
            progress(fraction, message)

    if params.get("scenario"):
        if target is None:
            raise ModelError("scenarios need a target of the model with rt- and be-cores (e.g. --target here)")
        # the same experiment as `deploy` on this machine; its files go under the run's output directory
        out = Path(params["out"]) if params.get("out") else Path("chainlab-runs") / chain
        return deploy_run({**params, "ir": ir, "chain": chain, "target": target, "runs": str(out)})
    result = run_local(ir, chain, target=target, heuristic=params.get("heuristic"), memory=params.get("memory"),
                       iterations=params.get("iterations"), threads=params.get("threads"), calibrate=int(params.get("calibrate") or 0),
                       out_dir=Path(params["out"]) if params.get("out") else None, on_progress=on_progress)
    return {**result.to_json(), "summary": summary_text(result)}
