"""Memory allocation: the TFLite Micro greedy-by-size cases, first fit, bounds, and reuse safety."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from plan_helpers import live_overlaps, random_timings

from chainlab.plan import PlanOptions, greedy_by_size, make_plan
from chainlab.plan.memory import clique_lower_bound, first_fit, time_interference
from chainlab.plan.sync import token_game
from chainlab.synth import synth_chain_ir

HEURISTICS = ["simple", "barrier", "fixed", "predictable", "reduced"]


def test_tflite_greedy_basics():
    offsets, peak = greedy_by_size([(10, 0, 1), (20, 2, 3)])
    assert offsets == [0, 0] and peak == 20


def test_tflite_greedy_medium():
    offsets, peak = greedy_by_size([(10, 0, 1), (20, 1, 2), (30, 2, 3), (40, 3, 4), (50, 0, 1)])
    assert offsets == [50, 70, 40, 0, 0] and peak == 90


def test_tflite_overlap_case():
    assert greedy_by_size([(100, 0, 1), (50, 2, 3), (20, 1, 2)])[1] == 120


def test_first_fit_alignment_and_gaps():
    inter = np.array([[0, 1, 0], [1, 0, 1], [0, 1, 0]], dtype=bool)
    offsets = first_fit([100, 10, 50], inter, [0, 1, 2], alignment=64)
    assert offsets == [0, 128, 0]


def test_wrapping_lifetimes_interfere():
    """A buffer written late in iteration i and one written early in i+1: ordered within the iteration but
    the second's next lifetime starts before... they overlap modulo the period, so they interfere."""
    s = np.array([0.0, 50.0])
    e = np.array([40.0, 120.0])  # b lives past the next start of a (100)
    s_next = np.array([100.0, 150.0])
    inter, _ = time_interference(s, e, s_next, margin=0.0)
    assert inter[0, 1] and inter[1, 0]
    e2 = np.array([40.0, 90.0])
    inter2, first = time_interference(s, e2, s_next, margin=0.0)
    assert not inter2[0, 1] and first[0, 1]


def test_clique_bound_exact_small_and_heuristic_large():
    rng = np.random.default_rng(3)
    n = 30
    inter = rng.random((n, n)) < 0.3
    inter = np.triu(inter, 1)
    inter = inter | inter.T
    weights = list(rng.integers(1, 100, n))
    exact, members, is_exact = clique_lower_bound(weights, inter, [])
    assert is_exact
    heur, hm, _ = clique_lower_bound(weights, inter, [], exact_limit=0)
    assert heur <= exact
    for clique in (members, hm):
        assert all(inter[a, b] for a in clique for b in clique if a != b)


@pytest.mark.parametrize("heuristic", HEURISTICS)
def test_synthetic_100_bounds(heuristic):
    ir = synth_chain_ir(100, 11)
    simple = make_plan(ir, "Synth", PlanOptions(heuristic=heuristic, memory="simple", predict=False))
    reuse = make_plan(ir, "Synth", PlanOptions(heuristic=heuristic, memory="reuse", predict=False))
    for plan in (simple, reuse):
        a = plan.allocation
        assert a.lower_bound_bytes <= a.arena_bytes <= a.sum_bytes
        assert a.lower_bound_bytes >= plan.active.peak_bytes
    assert simple.allocation.arena_bytes == simple.allocation.sum_bytes
    assert reuse.allocation.arena_bytes < reuse.allocation.sum_bytes


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    boxes=st.integers(7, 24),
    seed=st.integers(0, 10_000),
    threads=st.integers(1, 4),
    heuristic=st.sampled_from(HEURISTICS),
    reuse_sync=st.booleans(),
    period_ms=st.sampled_from([None, 0.01, 1.0]),
)
def test_reuse_never_overlaps_live_buffers(boxes, seed, threads, heuristic, reuse_sync, period_ms):
    ir = synth_chain_ir(boxes, seed, threads=threads, height=64, width=64, period_ms=period_ms)
    plan = make_plan(
        ir, "Synth", PlanOptions(heuristic=heuristic, memory="reuse", predict=False, reuse_sync=reuse_sync, seed=seed)
    )
    alloc = plan.allocation
    assert alloc.lower_bound_bytes <= alloc.arena_bytes <= alloc.sum_bytes
    # the token game with the memory check, in other interleavings
    for s in range(3):
        report = token_game(plan.inst, plan.thread_plans, plan.signals, iterations=4, seed=s, allocation=alloc)
        assert report.ok, report.message
    # timed executions with execution times varying by a factor of up to 20
    start, finish = random_timings(plan, np.random.default_rng(seed), runs=6, iterations=6)
    assert live_overlaps(plan, start, finish) == []
