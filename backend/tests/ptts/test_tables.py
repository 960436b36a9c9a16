"""Tables 5.1-5.4: tree counts, cost estimate, refusal with period proposals, case-study results."""

from __future__ import annotations

import pytest
from ptts_cases import config

from chainlab.errors import TooExpensiveError
from chainlab.ptts import analyze, estimate_cost, propose_periods


@pytest.mark.parametrize("key,trees", [("a", 136), ("b", 13861), ("c", 1388611)])
def test_table_5_2_tree_counts(key, trees):
    cost = estimate_cost(config(key))
    assert cost["roots"] == trees
    assert cost["eq_5_15"] == trees * 2  # ceil(31 ms / 16.x ms) * ceil(2 ms / 16.x ms)
    assert cost["branching"] == [2, 1]


def test_config_c_is_fast_and_exact():
    r = analyze(config("c"))
    assert r["roots"] == 1388611
    # Fast by construction: the phase-class quotient, not 1.4 million trees (timings are in bench/ptts).
    assert r["trees"]["method"] == "quotient"
    assert sum(p for _, p in r["distribution"]) == pytest.approx(1.0, abs=1e-12)
    assert r["min_ms"] == 49.0 and r["max_ms"] == pytest.approx(113.3)
    assert r["loss_probability"] == 0.0 and r["loss_exact"]


def test_case_study_configs_d_e_f():
    d, e, f = (analyze(config(k)) for k in "def")
    assert d["roots"] == 13861 and e["roots"] == 83 and f["roots"] == 167
    assert e["mean_ms"] == pytest.approx(77.8)
    for r in (d, e, f):
        assert r["min_ms"] >= 30 + 11 + 8


def test_refusal_proposes_nearby_periods_and_the_simulator():
    with pytest.raises(TooExpensiveError) as info:
        analyze(config("c"), max_trees=1000)
    err = info.value
    assert "1388611 latency trees" in err.message
    assert "simulat" in err.message
    assert err.proposals and all(p["roots"] <= 1000 for p in err.proposals)
    assert all(p["max_relative_change"] <= 0.02 for p in err.proposals)
    assert any("rounded to 0.1 ms" in p["kind"] for p in err.proposals)
    assert err.to_json()["code"] == "too-expensive"
    assert err.loc is not None


def test_propose_periods_shrink_hyperperiod():
    props = propose_periods(config("c"), 1000)
    assert props
    best = props[0]
    assert best["max_relative_change"] < 0.001
    assert set(best["periods_ns"]) == {"C0", "C1", "C2"}
    # applying a proposal really gives the promised tree count
    ir = config("c")
    for spec in ir["components"]:
        spec["period_ns"] = best["periods_ns"][spec["name"]]
    assert estimate_cost(ir)["roots"] == best["roots"]


def test_operations_limit_refuses():
    with pytest.raises(TooExpensiveError):
        analyze(config("b"), max_operations=10)
