"""JSON-RPC methods of runs on lab targets: deploy/run (all scenarios, a dated folder per run) and
deploy/trust-host."""

from __future__ import annotations

import asyncio
from typing import Any

from chainlab.deploy import hostkeys
from chainlab.deploy.names import check_target
from chainlab.deploy.targets import resolve_target
from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.rpc.context import RequestContext, start_work
from chainlab.rpc.methods import method
from chainlab.rpc.params import chain_param, run_options
from chainlab.run import run_chain
from chainlab.run.scenarios import SCENARIOS


@method("deploy/run")
def deploy_run(params: dict[str, Any], context: RequestContext) -> dict[str, Any]:
    """`chainlab deploy`, the editor's *Run on target*: by default every scenario, into runs/STAMP-CHAIN-TARGET."""
    ir = validate_ir(params.get("ir"))
    chain = chain_param(ir, params)
    options = run_options(params, context.progress, lambda _: None, scenarios=",".join(SCENARIOS), out=None)
    start_work()
    return run_chain(ir, chain, options).to_json()


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
    trusted = asyncio.run(
        hostkeys.trust(
            target["host"],
            port,
            replace=str(replace) if replace else None,
            file=str(params.get("file") or "FILE"),
            target=target["name"],
        )
    )
    reply: dict[str, Any] = {
        "target": target["name"],
        "host": hostkeys.host_pattern(target["host"], port),
        "fingerprint": trusted.fingerprint,
        "added": trusted.added,
        "known_hosts": str(hostkeys.known_hosts_path()),
    }
    if trusted.warnings:
        reply["warnings"] = trusted.warnings
    return reply
