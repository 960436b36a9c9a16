"""A chain's latency requirements (`require latency p99 < 25 ms`, `require latency <= 30 ms with probability >= 99 %`)
judged on what a run measured and on the prediction, in the contract's RequirementResult shape: the editor's plot
and report.html draw and word them as they do an analysis' verdicts.

A measured percentile is read as the scenario's quantiles are (numpy's linear interpolation), a predicted one as the
prediction's (the smallest value reaching the level): the verdict's value is the marker on the curve. Loss is a PTTS
system's notion (frames that never reach the end); a chain run loses none, so loss requirements are not judged here.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainlab.run.stats import pmf_quantile


def chain_requirements(ir: dict[str, Any], chain: str) -> list[dict[str, Any]]:
    """The latency requirements (percentile and deadline) the model states for `chain`."""
    spec: dict[str, Any] = next((c for c in ir.get("chains", []) if c.get("name") == chain), {})
    return [r for r in spec.get("requirements", []) if r.get("kind") in ("percentile", "deadline")]


def _within(op: str, bound_ns: int, values: np.ndarray, weights: np.ndarray) -> float:
    """P(latency < bound) or P(latency <= bound) of weighted values."""
    inside = values < bound_ns if op == "<" else values <= bound_ns
    return float(weights[inside].sum() / weights.sum())


def _judged(req: dict[str, Any], quantile_ns: float, within: float) -> dict[str, Any]:
    out: dict[str, Any] = {"kind": req["kind"], "op": req["op"]}
    if req.get("loc"):
        out["loc"] = req["loc"]
    bound = req["bound_ns"]
    if req["kind"] == "percentile":
        passed = quantile_ns < bound if req["op"] == "<" else quantile_ns <= bound
        out.update(
            percentile=req["percentile"],
            bound_ms=bound / 1e6,
            value=quantile_ns / 1e6,
            value_ms=quantile_ns / 1e6,
            probability=within,
            passed=bool(passed),
        )
    else:
        out.update(
            bound_ms=bound / 1e6,
            required_probability=req["probability"],
            value=within,
            probability=within,
            passed=bool(within >= req["probability"] - 1e-12),
        )
    out["pass"] = out["passed"]
    return out


def judge_measured(requirements: list[dict[str, Any]], latencies_ns: np.ndarray) -> list[dict[str, Any]]:
    """Each requirement on one scenario's measured latencies (ns); none when nothing was measured.

    Parameters
    ----------
    requirements
        The chain's requirements as the IR states them (``chain_requirements``).
    latencies_ns
        Every measured end-to-end latency of the scenario.

    Returns
    -------
    list of dict
        One RequirementResult per requirement, in the model's order.
    """
    if latencies_ns.size == 0:
        return []
    values = latencies_ns.astype(float)
    weights = np.ones_like(values)
    return [
        _judged(
            r,
            float(np.percentile(values, r["percentile"])) if r["kind"] == "percentile" else 0.0,
            _within(r["op"], r["bound_ns"], values, weights),
        )
        for r in requirements
    ]


def judge_predicted(requirements: list[dict[str, Any]], points: list[tuple[int, float]]) -> list[dict[str, Any]]:
    """Each requirement on the predicted distribution ([ns, probability] points); none without a prediction.

    Parameters
    ----------
    requirements
        The chain's requirements as the IR states them (``chain_requirements``).
    points
        The predicted latency distribution.

    Returns
    -------
    list of dict
        One RequirementResult per requirement, in the model's order.
    """
    if not points:
        return []
    values = np.array([v for v, _ in points], dtype=float)
    weights = np.array([p for _, p in points], dtype=float)
    return [
        _judged(
            r,
            pmf_quantile(points, r["percentile"] / 100) if r["kind"] == "percentile" else 0.0,
            _within(r["op"], r["bound_ns"], values, weights),
        )
        for r in requirements
    ]
