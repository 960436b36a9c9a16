"""Throttle proposal for a target of a model: duty-cycle (thesis rule) or budget (Yun et al.)."""

from __future__ import annotations

import math
from typing import Any

from chainlab.errors import ModelError
from chainlab.plan import make_plan
from chainlab.plan.model import LatencySummary
from chainlab.throttle import yun
from chainlab.throttle.thesis_rule import propose_duty_cycle

#: Per-core bandwidths when nothing was calibrated: thesis Table 4.1 (Nehalem, fits in cache, 1 core), and
#: the aggregate maxima quoted in §4.5.
DEFAULT_BW = {
    "core_read_bps": 19.9e9,
    "core_write_bps": 15.0e9,
    "aggregate_read_bps": 78.8e9,
    "aggregate_write_bps": 21.9e9,
}
#: Yun et al.: one miss costs 33 ns.
MISS_NS = 33.0


def _find(items: list[dict[str, Any]], name: str, what: str, source: str) -> dict[str, Any]:
    for item in items:
        if item.get("name") == name:
            return item
    names = ", ".join(i.get("name", "?") for i in items) or "none"
    raise ModelError(f"no {what} named {name!r} in {source}; it has: {names}")


def _chain(ir: dict[str, Any], name: str | None) -> dict[str, Any]:
    chains = ir.get("chains", [])
    if name:
        return _find(chains, name, "chain", ir.get("source", "the model"))
    if len(chains) != 1:
        raise ModelError(
            f"name the real-time chain (--chain NAME); {ir.get('source')} has: "
            f"{', '.join(c['name'] for c in chains) or 'none'}"
        )
    return chains[0]


def _requirement_ns(chain: dict[str, Any]) -> float:
    bounds = [r["bound_ns"] for r in chain.get("requirements", []) if r.get("bound_ns")]
    if not bounds:
        raise ModelError(
            "the chain has no latency requirement; the slack is needed to size the suspension",
            chain.get("loc"),
            f"chain {chain['name']}",
        )
    return float(min(bounds))


def _predicted_latency(ir: dict[str, Any], chain: str) -> LatencySummary:
    """The planner's latency summary of the chain's own plan."""
    lat = make_plan(ir, chain).latency
    if lat is None:
        raise AssertionError("make_plan predicts the latency by default")
    return lat


def _event_arg(thr: dict[str, Any]) -> str:
    """The daemon's event= argument from the IR counter {event|raw}."""
    counter = thr.get("counter") or {}
    raw = counter.get("raw")
    if raw is not None:
        return f"event=raw:{raw:x}" if isinstance(raw, int) else f"event=raw:{str(raw).removeprefix('0x')}"
    return f"event={counter.get('event') or 'llc-misses'}"


def _placement_args(tgt: dict[str, Any], thr: dict[str, Any]) -> list[str]:
    """fifo-hold needs the sampler off the held cores: put it on the first real-time core."""
    rt = tgt.get("rt_cores") or []
    return [f"sampler_cpu={rt[0]}"] if thr.get("mechanism") == "fifo-hold" and rt else []


def propose(
    ir: dict[str, Any],
    target: str,
    *,
    chain: str | None = None,
    isolated_ns: float | None = None,
    bandwidth: dict[str, float] | None = None,
    congested_increase: float | None = None,
    tasks: list[dict[str, float]] | None = None,
) -> dict[str, Any]:
    """The proposal as JSON-ready data: {target, throttle, mode, proposal{...}, reasoning[...]}."""
    tgt = _find(ir.get("targets", []), target, "target", ir.get("source", "the model"))
    if not tgt.get("throttle"):
        raise ModelError("the target names no throttle", tgt.get("loc"), f"target {target}")
    thr = _find(ir.get("throttles", []), tgt["throttle"], "throttle", ir.get("source", "the model"))
    be = len(tgt.get("be_cores") or [])
    if be < 1:
        raise ModelError("the target has no best-effort cores to throttle", tgt.get("loc"), f"target {target}")
    out: dict[str, Any] = {"target": target, "throttle": thr["name"], "mode": thr["mode"], "be_cores": tgt["be_cores"]}
    if thr["mode"] == "duty-cycle":
        ch = _chain(ir, chain)
        req = _requirement_ns(ch)
        source = "given"
        if isolated_ns is None:
            lat = _predicted_latency(ir, ch["name"])
            isolated_ns, source = float(lat.p99_ns or lat.nominal_ns), "planner prediction (p99)"
        bw: dict[str, Any] = {**DEFAULT_BW, **(bandwidth or {})}
        dc = thr.get("duty_cycle") or {}
        n_rt = max(1, len(tgt.get("rt_cores") or []))
        rt_bw = {
            "rt_read_bps": bw.pop("rt_read_bps", n_rt * bw["core_read_bps"]),
            "rt_write_bps": bw.pop("rt_write_bps", n_rt * bw["core_write_bps"]),
        }
        rt_measured = bandwidth is not None and "rt_write_bps" in bandwidth
        try:
            p = propose_duty_cycle(
                isolated_ns,
                req,
                be_cores=be,
                congested_increase=congested_increase,
                sample_ns=int(dc.get("sample_ns") or 100_000),
                **bw,
                **rt_bw,
            )
        except ValueError as e:
            raise ModelError(str(e), thr.get("loc"), f"throttle {thr['name']}") from None
        out["proposal"] = {
            "sample_ns": p.sample_ns,
            "suspend_ns": p.suspend_ns,
            "read_threshold_bps": p.read_threshold_bps,
            "write_threshold_bps": p.write_threshold_bps,
            "read_threshold_pct": p.read_threshold_pct,
            "write_threshold_pct": p.write_threshold_pct,
            "be_run_fraction": p.be_run_fraction,
        }
        out["inputs"] = {
            "chain": ch["name"],
            "isolated_ns": isolated_ns,
            "isolated_source": source,
            "requirement_ns": req,
            "bandwidth": bw,
            "bandwidth_source": "given" if bandwidth else "thesis Table 4.1 (no calibration given)",
        }
        out["reasoning"] = (
            []
            if rt_measured
            else [
                f"real-time bandwidth not measured: assumed {n_rt} real-time core(s) at a core's full "
                f"read and write bandwidth (conservative)"
            ]
        ) + p.reasoning
        out["inputs"]["rt_bandwidth"] = rt_bw
        out["daemon_args"] = [
            "mode=duty-cycle",
            f"cores={','.join(map(str, tgt['be_cores']))}",
            f"sample={p.sample_ns}ns",
            f"suspend={p.suspend_ns}ns",
            f"read_threshold={p.read_threshold_bps:.0f}",
            f"write_threshold={p.write_threshold_bps:.0f}",
            f"mechanism={thr['mechanism']}",
            _event_arg(thr),
            *_placement_args(tgt, thr),
        ]
        return out
    b = thr.get("budget") or {}
    P_ms = float(b.get("period_ns") or 10_000_000) / 1e6
    L_ms = MISS_NS / 1e6
    task_list = [
        yun.Task(str(t.get("name", f"t{i}")), float(t["C"]), float(t["T"]), float(t.get("D", t["T"])), float(t["CM"]))
        for i, t in enumerate(tasks or [])
    ]
    if not task_list:
        ch = _chain(ir, chain)
        req = _requirement_ns(ch)
        lat = _predicted_latency(ir, ch["name"])
        C = float(lat.p99_ns or lat.nominal_ns) / 1e6
        period = float(lat.period_ns or req) / 1e6
        # No miss counts are measured yet: assume the chain stalls half its time on misses, like τ_crit (Yun §VI).
        task_list = [yun.Task(ch["name"], C, period, min(req / 1e6, period), 0.5 * C / L_ms)]
        out["inputs"] = {"tasks_source": "planner prediction, CM·L = C/2 assumed (Yun §VI's τ_crit)"}
    else:
        out["inputs"] = {"tasks_source": "given"}
    M = be
    why = [f"P = {P_ms:g} ms, L = {MISS_NS:g} ns per miss, {M} interfering core(s)"]
    try:
        single = yun.max_budget_single(task_list, P_ms, L_ms)
        dynamic = yun.max_budget_single(task_list, P_ms, L_ms, M=M) if M > 1 else single
        static = yun.max_budget_static(task_list, P_ms, L_ms, [1 / M] * M) if M > 1 else single
    except ValueError as e:
        raise ModelError(str(e), thr.get("loc"), f"throttle {thr['name']}") from None
    res = {"single": single, "static": static, "dynamic": dynamic}
    out["proposal"] = {
        k: {
            "Q_ms": v.Q,
            "misses": yun.misses(v.Q, L_ms),
            "share": v.Q / P_ms,
            "limiting": v.limiting,
            # a response time without a fixed point below 100 × D is unbounded: null, as JSON has no infinity
            "response_ms": {n: (r if math.isfinite(r) else None) for n, r, _ in v.per_task},
        }
        for k, v in res.items()
    }
    dist = b.get("distribution", "static")
    chosen = res["dynamic" if dist == "dynamic" else "static"]
    total = yun.misses(chosen.Q, L_ms)
    per_core = total // M if (dist != "dynamic" and b.get("per_core", True)) else total
    out["proposal"]["chosen"] = {
        "distribution": dist,
        "period_ns": int(P_ms * 1e6),
        "budget_misses": per_core,
        "per_core": dist != "dynamic",
    }
    why.append(
        f"Algorithm 1 (Eq. 3, 6, 9), one interfering core: Q = {single.Q:.4f} ms = {yun.misses(single.Q, L_ms)} misses"
    )
    if M > 1:
        why.append(f"static, equal shares over {M} cores (Eq. 11, bisection): global Q = {static.Q:.4f} ms")
        why.append(f"dynamic, one global budget (Eq. 15, 𝒩·L×{M}): Q = {dynamic.Q:.4f} ms")
    why.append(
        f"{dist}: budget = {per_core} misses per {P_ms:g} ms{' per core' if dist != 'dynamic' else ' shared'}"
        f" (the model asks for {b.get('misses')})"
    )
    out["reasoning"] = why
    out["daemon_args"] = [
        "mode=budget",
        f"cores={','.join(map(str, tgt['be_cores']))}",
        f"period={int(P_ms * 1e6)}ns",
        f"budget={max(per_core, 1)}",
        f"distribution={dist}",
        f"mechanism={thr['mechanism']}",
        _event_arg(thr),
        *_placement_args(tgt, thr),
    ]
    return out
