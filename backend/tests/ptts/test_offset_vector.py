"""The latency distributions of many offsets of one component in one pass are the bits of each offset's own
analysis, and equal the brute-force physics."""

from __future__ import annotations

import copy
import math
import random

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from ptts_brute import UNIT, brute_force, random_chain, to_ir
from ptts_cases import MS, chain, component, config, pmf

from chainlab.ptts.api import Prepared, prepare
from chainlab.ptts.dist import Distribution
from chainlab.ptts.exact import exact_latency
from chainlab.ptts.offset_vector import per_root_over_offsets, phase_hop, quotient_over_last_offsets
from chainlab.ptts.quotient import quotient_latency


def at_offset(ir: dict, j: int, offset_ns: int) -> Prepared:
    moved = copy.deepcopy(ir)
    moved["components"][j]["offset_ns"] = offset_ns
    return prepare(moved)


def bits(d: Distribution) -> tuple[list[int], list[str]]:
    return d.values_ns.tolist(), [float(p).hex() for p in d.probs]


def one_pass(ir: dict, j: int, offsets_ns: list[int], method: str) -> list[Distribution]:
    """The pass over the offsets, from the chain at the first offset (all offsets on its grid unit)."""
    here = at_offset(ir, j, offsets_ns[0])
    chain = here.chain
    assert all(at_offset(ir, j, o).chain.unit_ns == chain.unit_ns for o in offsets_ns)
    offsets = np.array(offsets_ns, dtype=np.int64) // chain.unit_ns
    phase = {i: phase_hop(chain, i) for i in (j - 1, j) if 0 <= i < chain.n - 1}
    if method == "per-root":
        got = per_root_over_offsets(chain, here.hops, j, offsets, phase)
        assert got is not None
        return got
    return quotient_over_last_offsets(chain, here.hops, offsets, phase[chain.n - 2])


def own(ir: dict, j: int, offset_ns: int, method: str) -> Distribution:
    p = at_offset(ir, j, offset_ns)
    return exact_latency(p.chain, p.hops).distribution if method == "per-root" else quotient_latency(p.chain, p.hops)


def assert_same_bits(ir: dict, j: int, offsets_ns: list[int], method: str) -> None:
    got = one_pass(ir, j, offsets_ns, method)
    assert len(got) == len(offsets_ns)
    for o, d in zip(offsets_ns, got):
        assert bits(d) == bits(own(ir, j, o, method)), (j, o, method)


@pytest.mark.parametrize("seed", range(24))
def test_every_component_of_small_chains_gives_the_bits_of_each_offset_and_the_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    periods, offsets, etps = random_chain(rng, in_order=seed % 3 != 0)
    production_first = seed % 2 == 0
    ir = to_ir(periods, offsets, etps, production_first)
    for j, d in enumerate(periods):
        values = [v * UNIT for v in range(2 * d + 1)]
        assert_same_bits(ir, j, values, "per-root")
        if j == len(periods) - 1:
            assert_same_bits(ir, j, values, "quotient")
        if seed % 3 == 0:
            continue  # out of order: the brute force needs a wider window; the bits above already say it all
        for v, d_got in zip(values[::3], one_pass(ir, j, values[::3], "per-root")):
            moved = list(offsets)
            moved[j] = v // UNIT
            want = brute_force(periods, moved, etps, production_first)[0]
            got = {int(t) // UNIT: float(p) for t, p in zip(d_got.values_ns, d_got.probs)}
            assert set(got) == {k for k, p in want.items() if p > 0}
            assert all(abs(got[k] - float(p)) < 1e-12 for k, p in want.items() if p > 0)


def test_the_case_study_at_many_offsets_of_the_middle_and_the_last_component() -> None:
    ir = config("e")  # C1, C2 16.6 ms, C0 66.6 ms: per-root; C2 at 16.7 ms: the quotient method
    ir["components"][1]["offset_ns"] = 3 * MS
    assert_same_bits(ir, 1, [k * 200_000 for k in range(0, 83, 3)], "per-root")
    assert_same_bits(ir, 2, [k * 200_000 for k in range(0, 83, 2)], "per-root")
    ir["components"][2]["period_ns"] = 16_700_000
    assert_same_bits(ir, 2, [k * 100_000 for k in range(0, 167, 5)], "quotient")
    assert_same_bits(ir, 2, [k * 100_000 for k in range(0, 167, 5)], "per-root")


def test_a_chain_whose_roots_do_not_fit_one_pass_is_left_to_the_single_analysis() -> None:
    ir = config("c")  # 1,388,611 trees: the per-root rows of one offset exceed the row budget
    here = prepare(ir)
    phase = {1: phase_hop(here.chain, 1)}
    offsets = np.array([0, 1], dtype=np.int64)
    assert per_root_over_offsets(here.chain, here.hops, 2, offsets, phase) is None


@st.composite
def chains_and_offsets(draw: st.DrawFn) -> tuple[dict, int, list[int]]:
    n = draw(st.integers(2, 4))
    periods = [draw(st.integers(1, 40)) for _ in range(n)]
    assume(math.lcm(*periods) // periods[0] <= 2000)
    comps = []
    for i, d in enumerate(periods):
        vals = draw(st.lists(st.integers(0, 80), min_size=1, max_size=4, unique=True))
        ws = [draw(st.integers(1, 9)) for _ in vals]
        etp = pmf([(v * 1000, w / sum(ws)) for v, w in zip(vals, ws)])
        comps.append(component(f"C{i}", d * 1000, draw(st.integers(0, 2 * d)) * 1000, etp))
    order = draw(st.sampled_from(["production-first", "consumption-first"]))
    j = draw(st.integers(0, n - 1))
    offsets = draw(st.lists(st.integers(0, 3 * periods[j]), min_size=1, max_size=12))
    return chain("prop", comps, order=order), j, [o * 1000 for o in offsets]


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(chains_and_offsets())
def test_random_chains_give_the_bits_of_each_offsets_own_analysis(case: tuple[dict, int, list[int]]) -> None:
    ir, j, offsets = case
    assume(all(at_offset(ir, j, o).chain.unit_ns == 1000 for o in offsets))
    assert_same_bits(ir, j, offsets, "per-root")
    if j == len(ir["components"]) - 1:
        assert_same_bits(ir, j, offsets, "quotient")
