"""Yun et al. (seed 004) worked numbers, NOTES §5.1 items 2-4 and §2.3-2.8."""

from __future__ import annotations

import math

import pytest

from chainlab.throttle import yun

P = 10.0


def test_step_curve_shape() -> None:
    Q = 3.0
    assert yun.alpha_step(2 * Q, Q, P) == pytest.approx(2 * Q)  # 2Q back-to-back burst
    assert yun.alpha_step(P + Q, Q, P) == pytest.approx(2 * Q)  # flat until the next period
    assert yun.alpha_step(P + 2 * Q, Q, P) == pytest.approx(3 * Q)  # then Q per period
    assert yun.alpha_step(2 * P + 2 * Q, Q, P) == pytest.approx(4 * Q)
    for t in [0.5 * k for k in range(1, 200)]:  # α ≤ α^u everywhere
        assert yun.alpha_step(t, Q, P) <= yun.alpha_upper(t, Q, P) + 1e-9
    for k in range(5):  # α^u touches every burst end
        t = k * P + 2 * Q
        assert yun.alpha_step(t, Q, P) == pytest.approx(yun.alpha_upper(t, Q, P))


def test_figure6_tau_crit_saturates_by_30_percent() -> None:
    """τ_crit: C = 30 ms, CM·L = 15 ms, P = 10 ms (Yun §VI, Fig. 6): Eq. (2) saturates at 1.5·C = 45 ms once the
    interfering core's share exceeds 30%. Computed onset: 25% with α^u and just above 25% with the step
    curve (NOTES §5.1 item 2 says the step curve saturates at exactly 30%; our computation disagrees)."""
    for kind in ("step", "upper"):
        for share in (0.30, 0.31, 0.5, 1.0):
            assert yun.stall_response(30, 15, [yun.curve(kind, share * P, P)]) == pytest.approx(45.0)
        assert yun.stall_response(30, 15, [yun.curve(kind, 0.2 * P, P)]) < 45.0
    assert yun.saturation_share(30, 15, P, "upper") == pytest.approx(0.25, abs=2e-4)
    assert 0.25 <= yun.saturation_share(30, 15, P, "step") <= 0.30
    assert yun.stall_response(30, 15, [yun.curve("step", 0.0, P)]) == 30.0  # nothing on the interfering core


def test_eq6_closed_form_matches_curve() -> None:
    """NOTES §5.1 item 3: P = 10, t = 40, 𝒮 = 10 → Q = 1.7712 ms and α^u(40) = 10."""
    q = yun.q_at(40, 10, 100, P)
    assert q == pytest.approx(1.7712, abs=1e-4)
    assert yun.alpha_upper(40, q, P) == pytest.approx(10.0)
    for t, S in ((25, 3), (60, 20), (12, 1)):
        q = yun.q_at(t, S, 1e9, P)
        assert yun.alpha_upper(t, q, P) == pytest.approx(S)
    assert yun.q_at(40, 0, 100, P) is None  # no slack
    assert yun.q_at(40, 10, 5, P) == math.inf  # task's own bound suffices


def test_budget_conventions() -> None:
    """NOTES §5.1 item 4: L = 33 ns; 15000 misses per 10 ms ≈ 5% of the time, 30000 ≈ 10%."""
    L = 33e-6  # ms
    assert 15000 * L / P == pytest.approx(0.0495)
    assert yun.misses(0.495, L) == 15000
    assert yun.misses(0.99, L) == 30000


def test_algorithm1_single_core() -> None:
    L = 33e-6
    tau = yun.Task("crit", C=30, T=100, D=40, CM=15 / L)  # 10 ms of stall allowed by the deadline
    res = yun.max_budget_single([tau], P, L)
    assert res.limiting == "crit"
    assert 0 < res.Q < P
    R = yun.response_time(tau, [], L, [yun.curve("upper", res.Q, P)])
    assert R == pytest.approx(40.0, abs=1e-6)  # the returned Q uses exactly the slack
    assert yun.response_time(tau, [], L, [yun.curve("upper", res.Q * 1.01, P)]) > 40.0
    loose = yun.Task("loose", C=30, T=100, D=50, CM=15 / L)  # the task's own bound suffices: any Q
    assert yun.max_budget_single([loose], P, L).Q == P


def test_algorithm1_q_non_increasing_with_hp_tasks() -> None:
    L = 33e-6
    tasks = [yun.Task("a", 2, 20, 20, 1 / L), yun.Task("b", 5, 50, 30, 2 / L), yun.Task("c", 10, 100, 60, 4 / L)]
    res = yun.max_budget_single(tasks, P, L)
    for i, t in enumerate(tasks):
        assert yun.response_time(t, tasks[:i], L, [yun.curve("upper", res.Q, P)]) <= t.D + 1e-9


def test_static_and_dynamic_several_cores() -> None:
    L = 33e-6
    tau = yun.Task("crit", C=30, T=100, D=40, CM=15 / L)
    single = yun.max_budget_single([tau], P, L)
    static = yun.max_budget_static([tau], P, L, [0.5, 0.5])
    dynamic = yun.max_budget_single([tau], P, L, M=2)
    R = yun.response_time(tau, [], L, [yun.curve("upper", 0.5 * static.Q, P)] * 2)
    assert R <= 40.0 + 1e-6
    assert static.Q > 0 and dynamic.Q > 0
    # two half-share flows of the same global budget stall the task more than one flow: Q shrinks
    assert static.Q <= single.Q * 1.0 + 1e-9
    with pytest.raises(ValueError):
        yun.max_budget_static([tau], P, L, [0.7, 0.7])
    with pytest.raises(ValueError):
        yun.max_budget_single([yun.Task("x", 50, 100, 40, 1)], P, L)
