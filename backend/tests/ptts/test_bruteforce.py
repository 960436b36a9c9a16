"""The exact analysis equals exhaustive physical enumeration (exact fractions) on small chains."""

from __future__ import annotations

import random

import numpy as np
import pytest
from ptts_brute import UNIT, brute_force, random_chain, to_ir

from chainlab.ptts.api import compute, prepare
from chainlab.ptts.exact import exact_latency
from chainlab.ptts.loss import partner_shifts, per_root_loss, quotient_loss
from chainlab.ptts.quotient import quotient_latency


def as_dict(dist):
    return {int(v) // UNIT: float(p) for v, p in zip(dist.values_ns, dist.probs)}


CASES = [(seed, pf) for seed in range(40) for pf in (True, False) if (seed + pf) % 2 == 0] + [
    (s, True) for s in range(40, 60)
]


@pytest.mark.parametrize("seed,production_first", CASES)
def test_latency_and_loss_equal_brute_force(seed, production_first):
    rng = random.Random(seed)
    periods, offsets, etps = random_chain(rng)
    lat, loss, per_root = brute_force(periods, offsets, etps, production_first)
    ir = to_ir(periods, offsets, etps, production_first)
    p = prepare(ir)
    assert p.chain.all_in_order
    for dist in (quotient_latency(p.chain, p.hops), exact_latency(p.chain, p.hops).distribution):
        got = as_dict(dist)
        assert set(k for k, v in got.items() if v > 0) == set(k for k, v in lat.items() if v > 0)
        for k, v in lat.items():
            assert got.get(k, 0.0) == pytest.approx(float(v), abs=1e-14)
    r = compute(ir)
    assert r.loss.probability == pytest.approx(float(loss), abs=1e-14)
    shifts = partner_shifts(p.chain)
    if shifts:
        lst = per_root_loss(p.chain, p.hops, shifts)
        roots = sorted(per_root)
        np.testing.assert_allclose(lst.per_root[1], [float(per_root[t]) for t in roots], atol=1e-14)
        assert quotient_loss(p.chain, p.hops, shifts).probability == pytest.approx(float(loss), abs=1e-14)
    else:
        assert loss == 0


def test_some_brute_force_cases_have_loss():
    lossy = 0
    for seed, pf in CASES:
        periods, offsets, etps = random_chain(random.Random(seed))
        lossy += brute_force(periods, offsets, etps, pf)[1] > 0
    assert lossy >= 10


@pytest.mark.parametrize("seed", range(12))
def test_quotient_and_per_root_agree_also_out_of_order(seed):
    rng = random.Random(1000 + seed)
    periods, offsets, etps = random_chain(rng, in_order=False)
    p = prepare(to_ir(periods, offsets, etps, seed % 2 == 0))
    q = quotient_latency(p.chain, p.hops)
    e = exact_latency(p.chain, p.hops).distribution
    np.testing.assert_array_equal(q.values_ns, e.values_ns)
    np.testing.assert_allclose(q.probs, e.probs, atol=1e-15)
    shifts = partner_shifts(p.chain)
    if shifts:
        a = per_root_loss(p.chain, p.hops, shifts)
        b = quotient_loss(p.chain, p.hops, shifts)
        assert (
            sum(x.sum() for x in a.per_root.values()) / p.chain.roots == pytest.approx(b.probability, abs=1e-14)
            or b.probability == 1.0
        )
