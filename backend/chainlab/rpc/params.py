"""A request's params as the typed inputs of the packages: each mapping is written once, here."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from chainlab.errors import ModelError
from chainlab.ir import select_chain
from chainlab.plan import PlanOptions
from chainlab.progress import ProgressFn
from chainlab.run import RunOptions
from chainlab.run.scenarios import parse_scenarios

#: Params that override the chain's planning settings; each is the PlanOptions field of the same name.
PLAN_PARAMS = ("heuristic", "memory", "threads", "seed")


def chain_param(ir: dict[str, Any], params: dict[str, Any]) -> str:
    """The chain the request names (`chain`), else the model's only chain."""
    name = params.get("chain")
    return select_chain(ir, name if isinstance(name, str) else None)


def plan_options(params: dict[str, Any], **fixed: Any) -> PlanOptions:
    """The planner's options from the request's PLAN_PARAMS (absent or null: the chain's own), plus `fixed`."""
    given = {key: params[key] for key in PLAN_PARAMS if params.get(key) is not None}
    return PlanOptions(**given, **fixed)


#: What the generated chain binary accepts (runtime-c/lib/include/chainlab/rt.h); the CLI checks the same limits.
MAX_ITERATIONS = 1_000_000_000
MAX_CALIBRATE = 1_000_000


def whole_param(params: dict[str, Any], key: str, low: int, high: int) -> int | None:
    """params[key] as an integer in [low, high]; None when absent; ModelError naming the option otherwise."""
    value = params.get(key)
    if value is None:
        return None
    if not isinstance(value, int) or isinstance(value, bool) or not low <= value <= high:
        raise ModelError(f"{key} takes a whole number from {low} to {high}, not {str(value)[:40]!r}")
    return value


def run_options(
    params: dict[str, Any], progress: ProgressFn | None, log: Any, *, scenarios: str, out: Path | None
) -> RunOptions:
    """A run's options from the request (run/local and deploy/run): `scenarios` and `out` are the entry point's
    defaults (out None: a dated folder under `runs`)."""
    given_out = params.get("out")
    return RunOptions(
        target=str(params.get("target") or "here"),
        scenarios=tuple(parse_scenarios(params.get("scenario") or scenarios)),
        iterations=whole_param(params, "iterations", 1, MAX_ITERATIONS),
        calibrate=whole_param(params, "calibrate", 0, MAX_CALIBRATE) or 0,
        plan=plan_options(params),
        out_dir=Path(given_out) if isinstance(given_out, str) and given_out else out,
        runs_root=Path(params.get("runs") or "runs"),
        model_file=str(params["file"]) if params.get("file") else None,
        progress=progress,
        log=log,
    )
