"""Predicted latency: the ETP format, the two simulation engines, the execution-time model."""

from __future__ import annotations

import copy
import math

import numpy as np
import pytest
from plan_helpers import appendix_a_ir_by_hand, sample_ir

from chainlab.plan import PlanOptions, chain_latency_etp, make_plan, predict_latency
from chainlab.plan.predict import source_flags
from chainlab.plan.simulate import PinnedProgram, simulate_os
from chainlab.synth import synth_chain_ir


def test_etp_format_and_determinism():
    plan = make_plan(synth_chain_ir(40, 4), "Synth", PlanOptions(heuristic="reduced", predict=False))
    a = predict_latency(plan, iterations=500, seed=3)
    b = predict_latency(plan, iterations=500, seed=3)
    c = predict_latency(plan, iterations=500, seed=4)
    assert a.points == b.points and a.points != c.points
    assert a.samples == 500 and a.bin_ns == 10_000
    assert math.isclose(sum(p for _, p in a.points), 1.0, rel_tol=1e-9)
    values = [v for v, _ in a.points]
    assert values == sorted(values) and all(isinstance(v, int) and v % 10_000 == 0 for v in values)
    assert all(0 < p <= 1 for _, p in a.points)
    assert values[0] >= a.min_ns and a.min_ns <= a.p50_ns <= a.p90_ns <= a.p99_ns <= a.max_ns <= values[-1]
    fine = predict_latency(plan, iterations=500, seed=3, bin_ns=1)
    assert fine.mean_ns == a.mean_ns and len(fine.points) >= len(a.points)
    assert a.to_json()["points"][0] == list(a.points[0])


@pytest.mark.parametrize("heuristic", ["fixed", "predictable", "reduced"])
def test_pinned_engine_matches_event_engine(heuristic):
    for ir, chain in ((synth_chain_ir(30, 8), "Synth"), (appendix_a_ir_by_hand(), "App")):
        plan = make_plan(
            ir, chain, PlanOptions(heuristic=heuristic, memory="reuse", predict=False, iteration_sync=chain == "App")
        )
        rng = np.random.default_rng(1)
        n = len(plan.inst.subs)
        costs = rng.uniform(1e3, 1e6, size=(6, n))
        program = PinnedProgram(
            plan.inst, plan.mapping, plan.signals, barrier=plan.barrier, sync_ns=1000, sources=source_flags(plan)
        )
        vec = program.run(None, 6, None, record=True, cost_fn=lambda i, costs=costs: costs[i][:, None])
        ev = simulate_os(
            plan.thread_plans,
            plan.signals,
            n,
            costs,
            6,
            cores=len(plan.cores),
            pinned=True,
            period=None,
            sources=source_flags(plan),
            sync_ns=1000,
        )
        assert np.allclose(vec.start, ev.start) and np.allclose(vec.finish, ev.finish)
        assert np.allclose(vec.end, ev.end) and np.allclose(vec.release, ev.release)


def test_box_etp_drives_the_distribution():
    """One thread, gain with a two-point pmf: the latency is bimodal, 2 ms apart."""
    ir = copy.deepcopy(appendix_a_ir_by_hand())
    gain = next(b for b in ir["boxes"] if b["name"] == "Gain")
    gain["etp"] = {"kind": "pmf", "points": [[1_000_000, 0.5], [3_000_000, 0.5]]}
    for b in ir["boxes"]:
        if b["name"] != "Gain":
            b["etp"] = {"kind": "point", "value_ns": 100_000}
    plan = make_plan(ir, "App", PlanOptions(threads=1, predict=False))
    p = predict_latency(plan, iterations=400, seed=0, bin_ns=1)
    values = {v for v, _ in p.points}
    assert values == {1_300_000, 3_300_000}
    assert abs(dict(p.points)[1_300_000] - 0.5) < 0.1


def test_jitter_model_and_periodic_release():
    ir = copy.deepcopy(appendix_a_ir_by_hand())
    src = next(b for b in ir["boxes"] if b["name"] == "Source")
    src["source_period_ns"] = 10_000_000
    plan = make_plan(ir, "App", PlanOptions(threads=2, predict=False))
    p = predict_latency(plan, iterations=300, seed=2, jitter=0.0)
    assert p.std_ns == 0 and not p.overloaded and p.period_ns == 10_000_000
    q = predict_latency(plan, iterations=300, seed=2)
    assert 0 < q.std_ns < 0.05 * q.mean_ns and abs(q.mean_ns - p.mean_ns) < 0.02 * p.mean_ns
    src["source_period_ns"] = 1_000_000  # shorter than the chain's iteration interval
    slow = predict_latency(make_plan(ir, "App", PlanOptions(threads=2, predict=False)), iterations=100, seed=2)
    assert slow.overloaded


def test_pipelining_makes_simple_slower_than_barrier():
    """Thesis §3.6 / papers Table II: one thread per sub-box without iteration synchronization lets the OS
    run later iterations early, which multiplies the latency; a barrier prevents it."""
    ir = synth_chain_ir(60, 2)
    simple = predict_latency(
        make_plan(ir, "Synth", PlanOptions(heuristic="simple", predict=False)), iterations=48, seed=0
    )
    barrier = predict_latency(
        make_plan(ir, "Synth", PlanOptions(heuristic="barrier", predict=False)), iterations=48, seed=0
    )
    fixed = predict_latency(
        make_plan(ir, "Synth", PlanOptions(heuristic="fixed", predict=False)), iterations=200, seed=0
    )
    assert simple.mean_ns > 2 * barrier.mean_ns
    assert fixed.mean_ns < 1.5 * barrier.mean_ns


def test_chain_latency_etp_for_ptts():
    ir = sample_ir("appendix-a") or appendix_a_ir_by_hand()
    etp = chain_latency_etp(ir, "App", iterations=300)
    assert etp and math.isclose(sum(p for _, p in etp), 1.0) and all(isinstance(v, int) for v, _ in etp)
    assert etp == chain_latency_etp(ir, "App", iterations=300)
    try:
        from chainlab.rpc.chain_etp import chain_resolver
    except ImportError:  # pragma: no cover - the RPC layer is optional here
        return
    assert chain_resolver(ir)("App")[0][0] > 0


def test_plan_summary_present():
    plan = make_plan(appendix_a_ir_by_hand(), "App")
    lat = plan.latency
    assert lat is not None and lat.samples == 200 and lat.min_ns <= lat.p50_ns <= lat.p99_ns <= lat.max_ns
    assert abs(lat.nominal_ns - lat.mean_ns) < 0.05 * lat.mean_ns


@pytest.mark.parametrize("heuristic", ["fixed", "reduced"])
def test_calibrated_waits_replay_every_traced_iteration(heuristic):
    """Times measured with the waits before them (wake-ups, release delay), replayed through the same schedule
    with no sync time of the model's own, give back each traced iteration's latency exactly."""
    from chainlab.run.calibration import Calibration, measured_costs

    plan = make_plan(synth_chain_ir(30, 8), "Synth", PlanOptions(heuristic=heuristic, memory="reuse", predict=False))
    rng = np.random.default_rng(5)
    n, iters = len(plan.inst.subs), 40
    costs = rng.uniform(1e4, 3e5, size=(iters, n))
    period = 2.0 * costs.sum(axis=1).max()  # a period the chain keeps up with
    # the "measured" run: wake-ups of 60 us after each signal, unknown to the model being calibrated
    lab = PinnedProgram(
        plan.inst, plan.mapping, plan.signals, barrier=plan.barrier, sync_ns=60_000, sources=source_flags(plan)
    )
    run = lab.run(None, iters, period, record=True, cost_fn=lambda i: costs[i][:, None])
    rel = run.release[:, 0][:, None]
    start, finish = run.start[:, :, 0] - rel, run.finish[:, :, 0] - rel
    keep = [i for i in range(iters) if i != 7]  # one iteration lost from the trace
    cal = Calibration(
        "Synth", "here", "now", iters, int(period), {}, [s.name for s in plan.inst.subs],
        np.rint(finish - start)[keep].astype(np.int64).tolist(),
        np.rint(start)[keep].astype(np.int64).tolist(),
        keep,
    )  # fmt: skip
    measured = measured_costs(cal, plan)
    assert measured is not None and measured.includes_waits
    assert (measured.costs >= np.rint(finish - start)[keep] - 1).all()  # never less than the execution itself
    replay = PinnedProgram(
        plan.inst, plan.mapping, plan.signals, barrier=plan.barrier, sync_ns=0, sources=source_flags(plan)
    ).run(None, len(keep), period, cost_fn=lambda i: measured.costs[i][:, None])
    latency = finish.max(axis=1)[keep]
    assert np.allclose(replay.end[:, 0] - replay.release[:, 0], latency, atol=2)
    # drawn at random, whole iterations: the prediction is made of the traced latencies
    pred = predict_latency(plan, iterations=2000, seed=2, measured=measured, period_ns=int(period), bin_ns=1)
    assert pred.p50_ns == pytest.approx(np.quantile(latency, 0.5), rel=0.02)
    assert pred.max_ns <= latency.max() + 100 and pred.min_ns >= latency.min() - 100  # ns: integer rounding
    assert "waits" in pred.model
