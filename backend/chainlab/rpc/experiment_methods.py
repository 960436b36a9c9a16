"""JSON-RPC methods of the papers' experiments: experiment/heuristics (papers 002/003, Tables I-III)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.rpc.context import RequestContext, start_work
from chainlab.rpc.methods import method
from chainlab.rpc.params import MAX_ITERATIONS, chain_param, whole_param

MAX_CHAINS = 100_000
MAX_BOXES = 10_000
MAX_SAMPLES = 1_000_000


@method("experiment/heuristics")
def heuristics(params: dict[str, Any], context: RequestContext) -> dict[str, Any]:
    # loaded here: the experiment brings Dask and matplotlib, which the backend's other methods do not need at start
    from chainlab.experiment.heuristics import Experiment, run_experiment
    from chainlab.sweep.cluster import check_cluster

    model = None
    if params.get("ir") is not None:
        ir = validate_ir(params.get("ir"))
        model = (ir, chain_param(ir, params))
    out = params.get("out")
    if not isinstance(out, str) or not out:
        raise ModelError("name the output directory (--out DIR)")
    scheduler = params.get("scheduler")
    if scheduler is not None and not isinstance(scheduler, str):
        raise ModelError(f"scheduler must be 'process', 'local' or tcp://HOST:PORT, not {str(scheduler)[:40]!r}")
    check_cluster(scheduler)
    target = params.get("target")
    if target is not None and (not isinstance(target, str) or not target):
        raise ModelError(f"target must name a target of the model or 'here', not {str(target)[:40]!r}")
    if target is not None and target != "here" and model is None:
        raise ModelError(f"target {target}: give the model file that defines it")
    exp = Experiment(
        chains=whole_param(params, "chains", 1, MAX_CHAINS) or 250,
        seed=whole_param(params, "seed", 0, 2**31 - 1) or 0,
        boxes=whole_param(params, "boxes", 6, MAX_BOXES) or 100,
        threads=whole_param(params, "threads", 1, 1024) or 4,
        samples=whole_param(params, "samples", 1, MAX_SAMPLES) or 1000,
        out=Path(out),
        resume=params.get("resume") is True,
        scheduler=scheduler,
        target=target,
        iterations=whole_param(params, "iterations", 1, MAX_ITERATIONS) or 200,
    )
    start_work()
    file = params.get("file")
    return run_experiment(exp, model, model_file=file if isinstance(file, str) else None, progress=context.report)
