"""Bad input always ends as a ModelError naming the element and carrying its source location."""

from __future__ import annotations

import contextlib

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from ptts_cases import MS, fig52

from chainlab.errors import ChainlabError, ModelError
from chainlab.ptts import analyze, estimate_cost, explore, simulate


def broken(path: str, value):
    ir = fig52()
    comp = ir["components"][1]
    if path == "etp":
        comp["etp"] = value
    else:
        comp[path] = value
    return ir


def expect_component_error(ir, fragment: str, element: str = "C1", line: int = 5):
    with pytest.raises(ModelError) as info:
        analyze(ir)
    err = info.value
    assert fragment in err.message, err.message
    assert err.element == element
    assert err.loc is not None and err.loc.line == line
    assert str(err).startswith(f"samples/ptts/thesis-fig5-2.chain:{line}:1: error: {element}:")
    return err


def test_empty_component_list():
    ir = fig52()
    ir["components"] = []
    with pytest.raises(ModelError) as info:
        analyze(ir)
    assert "at least one component" in info.value.message
    assert (info.value.element == "Fig52" and info.value.loc.line == 3) or info.value.loc is not None


@pytest.mark.parametrize("period", [0, -58 * MS])
def test_zero_or_negative_period(period):
    expect_component_error(broken("period_ns", period), "period_ns must be positive")


def test_negative_offset():
    expect_component_error(broken("offset_ns", -1), "offset_ns must be at least 0")


def test_pmf_not_summing_to_one():
    expect_component_error(broken("etp", {"kind": "pmf", "points": [[1 * MS, 0.5], [2 * MS, 0.4]]}), "sum to 0.9")


def test_pmf_within_tolerance_is_normalised():
    ir = broken("etp", {"kind": "pmf", "points": [[25 * MS, 0.5], [54 * MS, 0.5 + 5e-10]]})
    assert sum(p for _, p in analyze(ir)["distribution"]) == pytest.approx(1.0, abs=1e-12)


def test_negative_etp_point():
    expect_component_error(broken("etp", {"kind": "pmf", "points": [[-1 * MS, 1.0]]}), "at least 0")
    expect_component_error(broken("etp", {"kind": "point", "value_ns": -5}), "at least 0")
    expect_component_error(broken("etp", {"kind": "uniform", "min_ns": -5, "max_ns": 5, "step_ns": 1}), "at least 0")


@pytest.mark.parametrize(
    "etp,fragment",
    [
        ({"kind": "uniform", "min_ns": 9, "max_ns": 5, "step_ns": 1}, "below min_ns"),
        ({"kind": "uniform", "min_ns": 0, "max_ns": 5, "step_ns": 2}, "not a multiple"),
        ({"kind": "uniform", "min_ns": 0, "max_ns": 5, "step_ns": 0}, "positive"),
        ({"kind": "pmf", "points": []}, "non-empty"),
        ({"kind": "pmf", "points": [[1, 2.0]]}, "must lie in [0, 1]"),
        ({"kind": "pmf", "points": [[1.5, 1.0]]}, "integer"),
        ({"kind": "pmf", "points": [["x", 1.0]]}, "integer"),
        ({"kind": "pmf", "points": [[1, float("nan")]]}, "finite"),
        ({"kind": "pmf", "points": [[1]]}, "pair"),
        ({"kind": "gauss"}, "unknown kind"),
        ("fast", "must be an object"),
        ({"kind": "chain", "chain": "XRay"}, "no chain resolver"),
    ],
)
def test_bad_etps(etp, fragment):
    expect_component_error(broken("etp", etp), fragment)


def test_chain_etp_with_resolver():
    ir = broken("etp", {"kind": "chain", "chain": "XRay"})
    r = analyze(ir, resolve_chain=lambda name: [(25 * MS, 0.5), (54 * MS, 0.5)])
    assert r["roots"] == 203

    def failing(name):
        raise KeyError(name)

    with pytest.raises(ModelError) as info:
        analyze(ir, resolve_chain=failing)
    assert "XRay" in info.value.message and info.value.element == "C1"
    with pytest.raises(ModelError):
        analyze(ir, resolve_chain=lambda name: [(1, 0.3)])


def test_missing_and_mistyped_fields():
    expect_component_error(broken("period_ns", None), "integer")
    expect_component_error(broken("period_ns", "58ms"), "integer")
    expect_component_error(broken("period_ns", True), "integer")
    ir = fig52()
    del ir["components"][1]["etp"]
    expect_component_error(ir, "execution-time profile")
    ir = fig52()
    ir["components"][2]["name"] = "C1"
    with pytest.raises(ModelError):
        analyze(ir)


def test_bad_chain_level_fields():
    for key, value in [("order", "whenever"), ("resolution_ns", 0), ("requirements", "none")]:
        ir = fig52()
        ir[key] = value
        with pytest.raises(ModelError) as info:
            analyze(ir)
        assert info.value.element == "Fig52"
    ir = fig52()
    ir["requirements"][0]["op"] = ">"
    with pytest.raises(ModelError) as info:
        analyze(ir)
    assert info.value.loc.line == 7
    ir = fig52()
    ir["resolution_ns"] = 7 * MS
    with pytest.raises(ModelError) as info:
        analyze(ir)
    assert info.value.element == "C0"
    with pytest.raises(ModelError):
        analyze([1, 2, 3])
    with pytest.raises(ModelError):
        estimate_cost(None)


def test_a_time_beyond_what_the_ir_carries_is_a_model_error_not_an_overflow():
    ir = fig52()
    ir["components"][1]["offset_ns"] = 5.902958103587057e20  # found by the fuzz test below: int64 overflow in a hop
    with pytest.raises(ModelError, match=r"offset_ns must be at most 2\^53 - 1 ns"):
        analyze(ir, max_trees=10_000)
    ir["components"][1]["offset_ns"] = 2**53 - 1
    analyze(ir, max_trees=10**12)  # the longest time the language exports is still analysed


def test_resolution_rounds_etps_up():
    ir = fig52()
    ir["resolution_ns"] = 2 * MS  # divides every period and offset, not every ETP point
    r = analyze(ir)
    assert r["etp_rounded"] is True and r["grid_ns"] == 2 * MS
    assert r["min_ms"] >= 85.0


def test_explore_bad_arguments():
    with pytest.raises(ModelError):
        explore(fig52(), ["C7"])
    with pytest.raises(ModelError):
        explore(fig52(), ["C1"], objective="fastest")
    with pytest.raises(ModelError):
        explore(fig52(), [])


junk = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10**10) | st.floats() | st.text(max_size=5),
    lambda c: st.lists(c, max_size=3) | st.dictionaries(st.text(max_size=8), c, max_size=4),
    max_leaves=8,
)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(["period_ns", "offset_ns", "etp", "name", "loc"]), junk)
def test_fuzzed_components_never_leak_a_traceback(field, value):
    ir = broken(field, value)
    with contextlib.suppress(ChainlabError):
        analyze(ir, max_trees=10_000)


@settings(max_examples=60, deadline=None)
@given(st.sampled_from(["order", "resolution_ns", "components", "requirements", "name"]), junk)
def test_fuzzed_chains_never_leak_a_traceback(field, value):
    ir = fig52()
    ir[field] = value
    try:
        analyze(ir, max_trees=10_000)
        simulate(ir, iterations=50, compare_exact=False)
    except ChainlabError:
        pass
