"""Public entry points of the PTTS analysis: analyze, estimate_cost, propose_periods, simulate, tree.

All functions take the IR of one PTTS chain (a dict) and return JSON-serialisable dicts; bad input
raises `ModelError`, refused work raises `TooExpensiveError` (with period proposals).
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from chainlab.errors import ModelError, TooExpensiveError
from chainlab.number_format import format_duration, format_number
from chainlab.ptts import simulate as sim
from chainlab.ptts import tree as tree_mod
from chainlab.ptts.cost import MAX_TREES, cost_summary, over_tree_limit, propose
from chainlab.ptts.dist import Distribution
from chainlab.ptts.etp import ChainResolver, check_int
from chainlab.ptts.exact import exact_latency
from chainlab.ptts.grid import GridChain, compile_grid
from chainlab.ptts.hop import Hop, build_hops
from chainlab.ptts.loss import LossResult, partner_shifts, per_root_loss, quotient_loss
from chainlab.ptts.model import PttsModel, Requirement, parse_model
from chainlab.ptts.quotient import INFEASIBLE, quotient_latency

DEFAULT_MAX_TREES = MAX_TREES  # latency trees (roots) per hyper-period; the real guard is the work below
DEFAULT_MAX_OPERATIONS = 100_000_000  # estimated rows / kernel entries of the chosen method
PER_ROOT_LIMIT = 3_000_000  # roots above which per-root listings (loss pairs) are skipped
PER_ROOT_OUTPUT_LIMIT = 50_000  # roots above which per_root=True is refused (output size)


@dataclass(frozen=True, eq=False)
class Prepared:
    model: PttsModel
    chain: GridChain
    hops: list[Hop]


@dataclass(frozen=True, eq=False)
class PttsResult:
    prepared: Prepared
    distribution: Distribution  # latency in ns
    loss: LossResult
    per_root: list | None
    method: str
    analysis_s: float


def prepare(ptts_ir: Any, resolve_chain: ChainResolver | None = None) -> Prepared:
    model = parse_model(ptts_ir, resolve_chain)
    chain = compile_grid(model)
    hops = build_hops(chain)
    return Prepared(model, chain, hops)


def _ms(ns: int) -> str:
    return f"{ns / 1e6:.6f}".rstrip("0").rstrip(".")


@dataclass(frozen=True)
class Refusal:
    """Why the exact analysis is refused, and the tree count nearby periods must reach."""

    reason: str
    max_trees: int


@dataclass(frozen=True)
class Choice:
    method: str
    cost: dict[str, Any]
    refusal: Refusal | None


def choose(p: Prepared, *, per_root: bool, max_trees: int, max_operations: int) -> Choice:
    """The exact method for this chain, or why there is none within the limits (analyze and ptts/cost both ask)."""
    chain = p.chain
    R = chain.roots
    if over_tree_limit(R, max_trees):
        hyperperiod = format_duration(chain.hyperperiod * chain.unit_ns)
        why = f"the hyper-period of {hyperperiod} holds {R} latency trees (limit {max_trees})"
        return Choice("", {}, Refusal(why, max_trees))
    cost = cost_summary(chain, p.hops)
    per_root_rows = cost["per_root_rows"]
    quotient_entries = cost["quotient_entries"]
    if per_root:
        if R > PER_ROOT_OUTPUT_LIMIT:
            why = f"per-root results for {R} latency trees are too large (limit {PER_ROOT_OUTPUT_LIMIT})"
            return Choice("per-root", cost, Refusal(why, PER_ROOT_OUTPUT_LIMIT))
        method = "per-root"
    else:
        method = "quotient" if quotient_entries <= per_root_rows else "per-root"
    work = per_root_rows if method == "per-root" else quotient_entries
    if work > max_operations:
        target = max(1, min(max_trees, int(R * max_operations / work)))
        why = (
            f"the exact analysis needs about {float(work):.3g} operations "
            f"(limit {max_operations:.3g}; {R} latency trees)"
        )
        return Choice(method, cost, Refusal(why, target))
    return Choice(method, cost, None)


def nearby_periods(p: Prepared, max_trees: int) -> list[dict[str, Any]]:
    """Section 5.7: nearby period sets with at most max_trees latency trees (what a refusal proposes)."""
    return propose([c.period_ns for c in p.model.components], [c.name for c in p.model.components], max_trees)


def _too_expensive(p: Prepared, why: str, max_trees: int) -> TooExpensiveError:
    proposals = nearby_periods(p, max_trees)
    lines = [why]
    if proposals:
        lines.append("nearby periods that shrink the hyper-period:")
        for prop in proposals[:5]:
            ps = ", ".join(f"{n} {_ms(v)} ms" for n, v in prop["periods_ns"].items())
            change = format_number(prop["max_relative_change"] * 100)
            lines.append(f"  {ps} ({prop['kind']}, max change {change} %) -> {prop['roots']} trees")
    else:
        lines.append("no period set within 2% shrinks the hyper-period enough")
    lines.append(
        "or run the Monte Carlo simulator (`chainlab simulate FILE --ptts NAME`) "
        "for an approximate distribution with confidence bands"
    )
    return TooExpensiveError("\n".join(lines), p.model.loc, p.model.name, proposals=proposals)


def compute(
    ptts_ir: Any,
    *,
    per_root: bool = False,
    resolve_chain: ChainResolver | None = None,
    max_trees: int = DEFAULT_MAX_TREES,
    max_operations: int = DEFAULT_MAX_OPERATIONS,
    prepared: Prepared | None = None,
    choice: Choice | None = None,
) -> PttsResult:
    """The exact analysis as typed arrays (distribution in ns); see `analyze` for the JSON form.

    prepared, choice: the chain already prepared and its method already chosen (a sweep shares them between points
    of one period set); choice must be what `choose` gives for `prepared` with these arguments.
    """
    started = time.perf_counter()
    p = prepared or prepare(ptts_ir, resolve_chain)
    chain, hops = p.chain, p.hops
    if choice is None:
        choice = choose(p, per_root=per_root, max_trees=max_trees, max_operations=max_operations)
    if choice.refusal is not None:
        raise _too_expensive(p, choice.refusal.reason, choice.refusal.max_trees)
    method, cost = choice.method, choice.cost
    roots_out = None
    if method == "per-root":
        lat = exact_latency(chain, hops, per_root=per_root)
        dist, roots_out = lat.distribution, lat.per_root
    else:
        dist = quotient_latency(chain, hops)
    loss = chain_loss(chain, hops, cost)
    return PttsResult(p, dist, loss, roots_out, method, time.perf_counter() - started)


def chain_loss(chain: GridChain, hops: list[Hop], cost: dict[str, Any]) -> LossResult:
    """The exact container loss of the chain; cost: its `Choice.cost` (which loss method fits)."""
    R = chain.roots
    shifts = partner_shifts(chain)
    if not shifts:
        return LossResult(0.0, True, [0.0] * chain.n, [], {} if R <= PER_ROOT_LIMIT else None)
    if R * len(shifts) <= PER_ROOT_LIMIT and cost["per_root_rows"] < INFEASIBLE:
        return per_root_loss(chain, hops, shifts)
    return quotient_loss(chain, hops, shifts)


def _requirement_json(req: Requirement, dist: Distribution, loss: float) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": req.kind, "op": req.op}
    if req.loc:
        out["loc"] = dict(req.loc)
    if req.kind == "percentile" and req.percentile is not None and req.bound_ns is not None:
        q = req.percentile / 100.0
        value = dist.percentile_ns(q)
        within = dist.prob(req.op, req.bound_ns)
        out.update(
            percentile=req.percentile,
            bound_ms=req.bound_ns / 1e6,
            value=value / 1e6,
            value_ms=value / 1e6,
            probability=within,
            passed=bool(value < req.bound_ns if req.op == "<" else value <= req.bound_ns),
        )
    elif req.kind == "deadline" and req.bound_ns is not None and req.probability is not None:
        within = dist.prob(req.op, req.bound_ns)
        out.update(
            bound_ms=req.bound_ns / 1e6,
            required_probability=req.probability,
            value=within,
            probability=within,
            passed=bool(within >= req.probability - 1e-12),
        )
    elif req.kind == "loss" and req.limit is not None:
        out.update(limit=req.limit, value=loss, passed=bool(loss < req.limit if req.op == "<" else loss <= req.limit))
    else:  # parse_model builds every requirement with the fields of its kind
        raise ValueError(f"incomplete {req.kind} requirement")
    out["pass"] = out["passed"]
    return out


def result_json(r: PttsResult) -> dict[str, Any]:
    chain, model = r.prepared.chain, r.prepared.model
    dist = r.distribution
    cost = cost_summary(chain, r.prepared.hops)
    out: dict[str, Any] = {
        "name": model.name,
        "order": model.order,
        "grid_ns": chain.unit_ns,
        "etp_rounded": chain.etp_rounded,
        "hyperperiod_ms": chain.hyperperiod * chain.unit_ns / 1e6,
        "hyperperiod_ns": chain.hyperperiod * chain.unit_ns,
        "roots": chain.roots,
        "trees": {
            "roots": chain.roots,
            "eq_5_15": cost["eq_5_15"],
            "branching": cost["branching"],
            "method": r.method,
            "per_root_rows": cost["per_root_rows"],
            "quotient_entries": cost["quotient_entries"],
        },
        "in_order": chain.all_in_order,
        "distribution": dist.as_ms(),
        **dist.summary(),
        "total_probability": dist.total,
        "loss_probability": r.loss.probability,
        "loss_exact": r.loss.exact,
        "loss_by_component": {chain.names[i]: r.loss.by_stage[i] for i in range(1, chain.n)},
        "loss_pairs": r.loss.pairs,
        "analysis_ms": r.analysis_s * 1e3,
    }
    out["requirements"] = [_requirement_json(q, dist, r.loss.probability) for q in model.requirements]
    warnings = []
    if not chain.all_in_order:
        bad = [chain.names[i] for i in range(chain.n) if not chain.in_order(i)]
        warnings.append(
            f"{', '.join(bad)} can produce out of order (ETP wider than its period): "
            "the tree model is approximate there (latency and loss are estimates); "
            "the simulator measures the physical behaviour"
        )
    if chain.etp_rounded:
        warnings.append("ETP points were rounded up onto resolution_ns")
    if r.loss.per_root is None and r.loss.shifts:
        warnings.append("too many latency trees to list the contributing root pairs; the loss total is exact")
    out["warnings"] = warnings
    if r.per_root is not None:
        out["per_root"] = [
            {
                "root_ms": rr.root_ns / 1e6,
                "distribution": [[int(v) / 1e6, float(q)] for v, q in zip(rr.values_ns, rr.probs)],
                "leaves_ms": [[(rr.root_ns + int(v)) / 1e6, float(q)] for v, q in zip(rr.values_ns, rr.probs)],
                "mean_ms": float(np.dot(rr.values_ns, rr.probs)) / 1e6,
                "loss": (
                    float(sum(a[rr.root_index] for a in r.loss.per_root.values()))
                    if r.loss.per_root
                    else (0.0 if not r.loss.shifts else None)
                ),
            }
            for rr in r.per_root
        ]
    return out


def analyze(
    ptts_ir: Any,
    *,
    per_root: bool = False,
    resolve_chain: ChainResolver | None = None,
    max_trees: int = DEFAULT_MAX_TREES,
    max_operations: int = DEFAULT_MAX_OPERATIONS,
) -> dict[str, Any]:
    """Exact end-to-end latency distribution and loss of one PTTS chain, as a JSON-ready dict."""
    return result_json(
        compute(
            ptts_ir, per_root=per_root, resolve_chain=resolve_chain, max_trees=max_trees, max_operations=max_operations
        )
    )


def estimate_cost(
    ptts_ir: Any,
    *,
    resolve_chain: ChainResolver | None = None,
    max_trees: int = DEFAULT_MAX_TREES,
    max_operations: int = DEFAULT_MAX_OPERATIONS,
) -> dict[str, Any]:
    """Tree count (Table 5.2), eq. 5.15 estimate, and the work of both exact methods, before any work; `refused`
    says why `analyze` with these limits would refuse and carries the nearby periods it would propose (else None)."""
    p = prepare(ptts_ir, resolve_chain)
    out = cost_summary(p.chain, p.hops)
    refusal = choose(p, per_root=False, max_trees=max_trees, max_operations=max_operations).refusal
    out["refused"] = (
        None if refusal is None else {"reason": refusal.reason, "proposals": nearby_periods(p, refusal.max_trees)}
    )
    return out


def propose_periods(
    ptts_ir: Any, max_trees: int, *, max_relative_change: float = 0.02, resolve_chain: ChainResolver | None = None
) -> list[dict[str, Any]]:
    """Nearby periods (each within max_relative_change) whose hyper-period holds <= max_trees trees."""
    model = parse_model(ptts_ir, resolve_chain)
    return propose(
        [c.period_ns for c in model.components], [c.name for c in model.components], max_trees, max_relative_change
    )


def simulate(
    ptts_ir: Any,
    *,
    iterations: int = 10_000,
    seed: int | None = 0,
    mode: str = "independent",
    engine: str = "vector",
    resolve_chain: ChainResolver | None = None,
    compare_exact: bool = True,
    confidence: float = 0.95,
    max_trees: int = DEFAULT_MAX_TREES,
) -> dict[str, Any]:
    """Monte Carlo latency distribution (DKW band), simulated loss rate, KS distance to the exact result."""
    if mode not in ("independent", "trace"):
        raise ModelError(f"unknown simulation mode {mode!r} (independent or trace)")
    if engine not in ("vector", "event"):
        raise ModelError(f"unknown simulation engine {engine!r} (vector or event)")
    if not isinstance(iterations, int) or iterations < 1:
        raise ModelError(f"iterations must be a positive integer, not {iterations!r}")
    p = prepare(ptts_ir, resolve_chain)
    sim.check_size(p.chain, iterations, mode)  # before allocating: 10^12 iterations is a message, not MemoryError
    started = time.perf_counter()
    samples = sim.sample(p.chain, iterations, np.random.default_rng(seed), mode, engine)
    elapsed = time.perf_counter() - started
    exact = None
    if compare_exact:
        try:
            exact = compute(None, prepared=p, max_trees=max_trees).distribution
        except TooExpensiveError:
            exact = None
    out = sim.summarize(p.chain, samples, confidence, exact)
    out.update(seed=seed, mode=mode, engine=engine, simulation_ms=elapsed * 1e3)
    return out


def latency_tree(ptts_ir: Any, root_ns: int, *, resolve_chain: ChainResolver | None = None) -> dict[str, Any]:
    """The latency tree of the C0 trigger at root_ns (Figure 5.4) and its flattened leaves (Figure 5.5)."""
    p = prepare(ptts_ir, resolve_chain)
    c0 = p.model.components[0]
    root_ns = check_int(root_ns, "root_ns", c0.loc, c0.name, minimum=0)
    if root_ns < c0.offset_ns or (root_ns - c0.offset_ns) % c0.period_ns:
        raise ModelError(f"{root_ns} ns is not a trigger time of {c0.name}", c0.loc, c0.name)
    t = tree_mod.latency_tree(p.chain, p.hops, root_ns)
    flat = tree_mod.flatten(t)
    return {"tree": t, "leaves": [[k, v] for k, v in sorted(flat.items())]}
