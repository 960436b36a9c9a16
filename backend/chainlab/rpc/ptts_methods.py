"""JSON-RPC methods of the PTTS analysis (thesis chapter 5): analyze, simulate, cost, explore, periods."""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from typing import Any

from chainlab.errors import ChainlabError, ModelError
from chainlab.ir import find_ptts, validate_ir
from chainlab.ptts import api
from chainlab.rpc.chain_etp import chain_resolver
from chainlab.rpc.context import RequestContext, start_work
from chainlab.rpc.methods import method
from chainlab.rpc.params import whole_param
from chainlab.run import interrupt


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


@method("ptts/periods")
def periods(params: dict[str, Any], context: RequestContext) -> dict[str, Any]:
    """Section 5.7 as an exploration: nearby period sets with fewer latency trees than the current one (each period
    changed by at most max_relative_change), each analysed exactly, so that the engineer sees what a shorter
    hyper-period costs in latency and loss before taking it."""
    ir, ptts = _ptts(params)
    resolve = chain_resolver(ir)
    rel = params.get("max_relative_change", 0.02)
    if not isinstance(rel, (int, float)) or isinstance(rel, bool) or not 0 < rel < 1:
        raise ModelError(f"max_relative_change must be a fraction between 0 and 1, not {rel!r}")
    current = api.estimate_cost(ptts, resolve_chain=resolve)
    names = [c["name"] for c in ptts["components"]]
    now = [int(c["period_ns"]) for c in ptts["components"]]
    found = api.propose_periods(ptts, max(1, int(current["roots"]) - 1), max_relative_change=rel, resolve_chain=resolve)
    proposals = []
    for k, proposal in enumerate(found):
        context.report(k / max(1, len(found)), f"analysing periods {k + 1} of {len(found)}")
        candidate = {
            **ptts,
            "components": [{**c, "period_ns": proposal["periods_ns"][c["name"]]} for c in ptts["components"]],
        }
        try:
            r = api.analyze(candidate, resolve_chain=resolve)
            proposal["analysis"] = {
                "mean_ms": r["mean_ms"],
                "percentiles": r["percentiles"],
                "loss_probability": r["loss_probability"],
            }
        except ChainlabError as e:  # still too expensive, or the changed periods break a rule: say why
            proposal["analysis_error"] = e.message
        proposals.append(proposal)
    return {
        "source": ir["source"],
        "name": ptts["name"],
        "current": {
            "periods_ms": {n: p / 1e6 for n, p in zip(names, now)},
            "roots": int(current["roots"]),
            "hyperperiod_ms": math.lcm(*now) / 1e6,
        },
        "proposals": proposals,
    }


@method("ptts/explore")
def explore(params: dict[str, Any], context: RequestContext) -> dict[str, Any]:
    """The design-space sweep (chainlab.ptts.explore) on the sweep engine; Ctrl-C (SIGINT) stops it and the reply
    keeps every finished point (complete: false)."""
    from chainlab.ptts.explore import explore as sweep

    ir, ptts = _ptts(params)
    vary = params.get("vary", [])
    if isinstance(vary, str):
        vary = [vary]
    if not isinstance(vary, list) or not all(isinstance(v, str) for v in vary):
        raise ModelError("vary: name the component(s) whose offset to sweep (--vary NAME)")
    options: dict[str, Any] = {"objective": params.get("objective", "p99"), "resolve_chain": chain_resolver(ir)}
    for key in ("step_ns", "max_operations", "max_trees"):
        value = _int_option(params, key, None)
        if value is not None:
            options[key] = value
    periods = params.get("periods_ns")
    if periods is not None:
        if not isinstance(periods, dict):
            raise ModelError("periods_ns: candidate periods per component (--periods C=16.6ms,16.7ms)")
        options["periods"] = periods
    if params.get("pareto") is not None:
        options["pareto"] = params["pareto"]
    scheduler, engine = params.get("scheduler"), params.get("engine")
    if scheduler is not None and (not isinstance(scheduler, str) or "://" not in scheduler):
        raise ModelError(f"scheduler: a Dask scheduler address such as tcp://HOST:8786, not {scheduler!r}")
    if engine not in (None, "process", "local"):
        raise ModelError(f"engine is 'process' or 'local', not {engine!r}")
    options["cluster"] = scheduler or engine
    out = params.get("out")
    if out is not None:
        if not isinstance(out, str) or not out:
            raise ModelError("out: the CSV file to write the points to")
        options["out"] = out
        options["resume"] = params.get("resume") is True
    start_work()
    options["progress"] = _throttled(context)
    options["cancelled"] = interrupt.interrupted
    return {"source": ir["source"], **sweep(ptts, vary, **options)}


def _throttled(context: RequestContext, every_s: float = 0.25) -> Callable[[int, int], None]:
    """Progress notifications at most every `every_s` (a sweep in this process reports each of 10^5 points)."""
    last = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if done == total or now - last[0] >= every_s:
            last[0] = now
            context.report(done / max(1, total), f"{done} of {total} points")

    return report
