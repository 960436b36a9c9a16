"""The Monte Carlo simulator: physics, engines, convergence to the exact result, loss rate."""

from __future__ import annotations

import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from ptts_brute import random_chain, to_ir
from ptts_cases import MS, chain, component, config, fig52, pmf, uniform

from chainlab.ptts import analyze, simulate
from chainlab.ptts.api import prepare
from chainlab.ptts.simulate import physics_events, physics_vector, sample


def test_out_of_order_production_overwrites_physically():
    # C0 triggers at 0 and 10; the first takes 15, the second 2: the older container lands last.
    times = [np.array([0, 10]), np.array([13, 16, 19])]
    draws = [np.array([15, 2]), np.array([1, 1, 1])]
    for engine in (physics_vector, physics_events):
        sink_t, sink_d, reads = engine(times, draws, True)
        assert list(reads[1]) == [1, 0, 0]  # newer data at 13, then the older container overwrote it
        assert list(sink_t) == [14, 17, 20] and list(sink_d) == [1, 0, 0]


def test_equal_instants_follow_the_order_rule():
    times = [np.array([0]), np.array([5])]
    draws = [np.array([5]), np.array([0])]
    for engine in (physics_vector, physics_events):
        assert list(engine(times, draws, True)[2][1]) == [0]  # production first: read at 5
        assert list(engine(times, draws, False)[2][1]) == [-1]  # consumption first: empty buffer


@pytest.mark.parametrize("seed", range(8))
def test_vector_and_event_engines_agree_on_the_same_draws(seed):
    rng = random.Random(seed)
    periods, offsets, etps = random_chain(rng, in_order=seed % 2 == 0)
    p = prepare(to_ir(periods, offsets, etps, seed % 3 != 0))
    a = sample(p.chain, 300, np.random.default_rng(seed), "independent", "vector")
    b = sample(p.chain, 300, np.random.default_rng(seed), "independent", "event")
    np.testing.assert_array_equal(a.latency, b.latency)
    np.testing.assert_array_equal(a.delivered, b.delivered)
    c = sample(p.chain, 300, np.random.default_rng(seed), "trace", "vector")
    d = sample(p.chain, 300, np.random.default_rng(seed), "trace", "event")
    np.testing.assert_array_equal(c.latency, d.latency)


def test_thesis_example_simulation_matches_exact():
    s = simulate(fig52(), iterations=10_000, seed=1)
    assert s["iterations"] == 10_000 and s["samples"] == 10_000
    assert s["ks_distance"] <= s["dkw_epsilon"]
    assert s["ks_within_band"] is True
    assert abs(s["mean_ms"] - 200.0) < 2.0
    band = s["cdf_band"]
    assert all(lo <= f <= hi for _, f, lo, hi in band)


def test_simulated_loss_rate_matches_exact_loss():
    ir = chain(
        "lossy",
        [
            component("C0", 10 * MS, 0, uniform(0, 9 * MS, MS)),
            component("C1", 7 * MS, 3 * MS, pmf([(1 * MS, 0.5), (6 * MS, 0.5)])),
            component("C2", 12 * MS, 1 * MS, pmf([(2 * MS, 1.0)])),
        ],
    )
    exact = analyze(ir)
    assert exact["in_order"] and 0.05 < exact["loss_probability"] < 0.5
    s = simulate(ir, iterations=40_000, seed=5)
    lo, hi = s["loss_interval"]
    assert lo <= exact["loss_probability"] <= hi
    assert s["ks_distance"] <= s["dkw_epsilon"]


@st.composite
def in_order_chains(draw):
    n = draw(st.integers(2, 3))
    comps = []
    for i in range(n):
        d = draw(st.integers(3, 40))
        lo = draw(st.integers(0, 30))
        vals = sorted(set(draw(st.lists(st.integers(lo, lo + d), min_size=1, max_size=3))))
        ws = [draw(st.integers(1, 5)) for _ in vals]
        comps.append(
            component(
                f"C{i}",
                d * MS,
                draw(st.integers(0, d - 1)) * MS,
                pmf([(v * MS, w / sum(ws)) for v, w in zip(vals, ws)]),
            )
        )
    ir = chain("conv", comps)
    assume(prepare(ir).chain.roots <= 5000)
    return ir


@settings(
    max_examples=6,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much],
)
@given(in_order_chains())
def test_simulation_converges_where_production_is_in_order(ir):
    small = simulate(ir, iterations=400, seed=2)
    large = simulate(ir, iterations=25_600, seed=3)
    assert large["ks_distance"] <= 1.5 * large["dkw_epsilon"]  # DKW at 95 % with margin: never flaky
    assert large["ks_distance"] < small["ks_distance"] or large["ks_distance"] <= large["dkw_epsilon"]
    assert large["dkw_epsilon"] < small["dkw_epsilon"]


def test_trace_mode_and_config_c():
    s = simulate(config("c"), iterations=5_000, seed=4, mode="trace")
    assert s["mode"] == "trace" and s["samples"] == 5_000
    assert s["ks_distance"] < 0.05
    assert s["loss_rate"] == 0.0


def test_bad_simulation_arguments():
    from chainlab.errors import ModelError

    with pytest.raises(ModelError):
        simulate(fig52(), mode="nope")
    with pytest.raises(ModelError):
        simulate(fig52(), iterations=0)


def test_out_of_order_chain_simulation_matches_physical_brute_force():
    from fractions import Fraction

    from ptts_brute import UNIT, brute_force

    periods, offsets, etps = [4, 3], [0, 1], [[(0, Fraction(1, 2)), (6, Fraction(1, 2))], [(1, Fraction(1))]]
    lat, loss, _ = brute_force(periods, offsets, etps, True, before=2, after=2)
    assert brute_force(periods, offsets, etps, True, before=3, after=3)[:2] == (lat, loss)  # window is wide enough
    ir = to_ir(periods, offsets, etps)
    exact = analyze(ir)
    assert exact["in_order"] is False and exact["warnings"] and exact["loss_exact"] is False
    s = simulate(ir, iterations=40_000, seed=8)
    xs = sorted(lat)
    cdf, acc = {}, 0.0
    for x in xs:
        acc += float(lat[x])
        cdf[x] = acc
    sim_cdf, acc = {}, 0.0
    for x_ms, p in s["distribution"]:
        acc += p
        sim_cdf[round(x_ms * 1e6) // UNIT] = acc
    assert set(sim_cdf) == set(x for x in xs if lat[x] > 0)
    assert max(abs(cdf[x] - sim_cdf[x]) for x in sim_cdf) <= s["dkw_epsilon"]
    lo, hi = s["loss_interval"]
    assert lo <= float(loss) <= hi
    assert s["ks_distance"] > 0.05  # the tree model is not the physics here
