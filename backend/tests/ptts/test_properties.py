"""Property tests (hypothesis) of the exact analysis."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from ptts_cases import chain, component, pmf

from chainlab.ptts import analyze
from chainlab.ptts.api import compute, prepare
from chainlab.ptts.exact import exact_latency
from chainlab.ptts.quotient import quotient_latency

US = 1000


@st.composite
def chains(draw, max_roots: int = 3000, point_etps: bool = False):
    n = draw(st.integers(1, 4))
    periods = [draw(st.integers(1, 60)) for _ in range(n)]
    assume(math.lcm(*periods) // periods[0] <= max_roots)
    comps = []
    for i, d in enumerate(periods):
        offset = draw(st.integers(0, 2 * d))
        if point_etps:
            pts = [(draw(st.integers(0, 80)), 1.0)]
        else:
            vals = draw(st.lists(st.integers(0, 80), min_size=1, max_size=4, unique=True))
            ws = [draw(st.integers(1, 9)) for _ in vals]
            pts = [(v, w / sum(ws)) for v, w in zip(vals, ws)]
        comps.append(component(f"C{i}", d * US, offset * US, pmf([(v * US, p) for v, p in pts])))
    order = draw(st.sampled_from(["production-first", "consumption-first"]))
    return chain("prop", comps, order=order)


SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much]
)


@SETTINGS
@given(chains())
def test_probabilities_sum_to_one_and_support_is_bounded(ir):
    r = compute(ir)
    d = r.distribution
    assert abs(d.total - 1.0) < 1e-12
    assert np.all(d.probs > 0) and np.all(np.diff(d.values_ns) > 0)
    comps = ir["components"]
    mins = [min(p[0] for p in c["etp"]["points"]) for c in comps]
    maxs = [max(p[0] for p in c["etp"]["points"]) for c in comps]
    waits = sum(c["period_ns"] for c in comps[1:])
    assert d.min_ns >= sum(mins)
    assert d.max_ns <= sum(maxs) + waits
    assert 0.0 <= r.loss.probability <= 1.0


@SETTINGS
@given(chains(), st.integers(1, 500))
def test_shifting_every_offset_changes_nothing(ir, shift):
    a = compute(ir)
    for c in ir["components"]:
        c["offset_ns"] += shift * US
    b = compute(ir)
    np.testing.assert_array_equal(a.distribution.values_ns, b.distribution.values_ns)
    np.testing.assert_allclose(a.distribution.probs, b.distribution.probs, atol=1e-15)
    assert abs(a.loss.probability - b.loss.probability) < 1e-15


@SETTINGS
@given(chains(), st.sampled_from([3, 7, 1000]))
def test_scaling_the_time_unit_changes_nothing(ir, factor):
    a = compute(ir)
    for c in ir["components"]:
        c["period_ns"] *= factor
        c["offset_ns"] *= factor
        c["etp"]["points"] = [[t * factor, p] for t, p in c["etp"]["points"]]
    b = compute(ir)
    np.testing.assert_array_equal(a.distribution.values_ns * factor, b.distribution.values_ns)
    np.testing.assert_allclose(a.distribution.probs, b.distribution.probs, atol=1e-15)
    assert abs(a.loss.probability - b.loss.probability) < 1e-15
    assert a.prepared.chain.roots == b.prepared.chain.roots


@SETTINGS
@given(chains(max_roots=300, point_etps=True))
def test_point_etps_give_a_deterministic_latency_per_root(ir):
    r = analyze(ir, per_root=True)
    assert len(r["per_root"]) == r["roots"]
    for root in r["per_root"]:
        assert len(root["distribution"]) == 1 and root["distribution"][0][1] == 1.0


@SETTINGS
@given(chains(max_roots=2000))
def test_quotient_method_equals_per_root_enumeration(ir):
    p = prepare(ir)
    q = quotient_latency(p.chain, p.hops)
    e = exact_latency(p.chain, p.hops).distribution
    np.testing.assert_array_equal(q.values_ns, e.values_ns)
    np.testing.assert_allclose(q.probs, e.probs, atol=1e-14)
