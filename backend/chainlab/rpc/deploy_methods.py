"""JSON-RPC methods of deploy-and-measure: deploy/run (an experiment on a target) and deploy/trust-host."""

from __future__ import annotations

import asyncio
from pathlib import Path
from typing import Any

from chainlab.deploy import hostkeys
from chainlab.deploy.experiment import deploy_sync
from chainlab.deploy.names import check_target
from chainlab.deploy.report import results, summary_table, write_report
from chainlab.deploy.targets import resolve_target
from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.rpc.context import RequestContext, start_work
from chainlab.rpc.methods import method
from chainlab.rpc.params import MAX_CALIBRATE, MAX_ITERATIONS, chain_param, plan_options, whole_param
from chainlab.run.scenarios import parse_scenarios


@method("deploy/run")
def deploy_run(params: dict[str, Any], context: RequestContext) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    chain = chain_param(ir, params)
    start_work()
    logs: list[str] = []
    dep = deploy_sync(
        ir,
        chain,
        params.get("target") or "here",
        file=str(params.get("file") or "FILE"),
        scenarios=parse_scenarios(params.get("scenario") or "baseline,congested,throttled"),
        iterations=whole_param(params, "iterations", 1, MAX_ITERATIONS),
        calibrate=whole_param(params, "calibrate", 0, MAX_CALIBRATE) or 0,
        options=plan_options(params),
        runs_root=Path(params.get("runs") or "runs"),
        progress=context.progress,
        log=logs.append,
    )
    res = results(dep, ir, dep.predicted)
    files = write_report(res, ir, Path(dep.local_dir))
    status = (
        "ok"
        if all(s.status == "ok" for s in dep.scenarios)
        else next(s.status for s in dep.scenarios if s.status != "ok")
    )
    table = summary_table(res)
    phases = ", ".join(f"{k} {v:.2f} s" for k, v in dep.phases_s.items())
    summary = (
        f"chain {chain} on target {dep.target} ({dep.kind}){' — cached build' if dep.cached_build else ''}\n"
        + "\n".join(line for line in logs if line.startswith("preflight") or line.startswith("  ["))
        + f"\n{table}\nphases: {phases}\nreport: {dep.local_dir}/report.html"
    )
    return {
        "status": status,
        "chain": chain,
        "target": dep.target,
        "local_dir": dep.local_dir,
        "remote_dir": dep.remote_dir,
        "summary": summary,
        "results": res,
        "files": [str(f) for f in files],
        "phases_s": dep.phases_s,
        "preflight": dep.preflight,
        "cached_build": dep.cached_build,
    }


@method("deploy/trust-host")
def trust_host(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    ir = validate_ir(params.get("ir"))
    target = resolve_target(ir, str(params.get("target") or ""))
    check_target(target)
    if target["kind"] != "ssh":
        raise ModelError(
            f"target {target['name']} is local: there is no host key to trust", target.get("loc"), target["name"]
        )
    port = int(target.get("port") or 22)
    replace = params.get("replace")
    fingerprint, new = asyncio.run(
        hostkeys.trust(
            target["host"],
            port,
            replace=str(replace) if replace else None,
            file=str(params.get("file") or "FILE"),
            target=target["name"],
        )
    )
    return {
        "target": target["name"],
        "host": hostkeys.host_pattern(target["host"], port),
        "fingerprint": fingerprint,
        "added": new,
        "known_hosts": str(hostkeys.known_hosts_path()),
    }
