"""Offset exploration (Figure 5.14): parallel sweep equals individual analyses."""

from __future__ import annotations

import pytest
from ptts_cases import MS, config, loc

from chainlab.ptts import analyze, explore


def test_offset_sweep_of_c2_in_config_e():
    ir = config("e")
    ir["requirements"] = [{"kind": "deadline", "op": "<=", "bound_ns": 90 * MS, "probability": 0.9, "loc": loc(9)}]
    r = explore(ir, ["C2"], step_ns=2 * MS, objective="p99", workers=2)
    assert r["workers"] == 2
    assert [p["offsets_ms"]["C2"] for p in r["points"]] == [0, 2, 4, 6, 8, 10, 12, 14, 16]
    for p in r["points"][::4]:
        ir2 = config("e")
        ir2["components"][2]["offset_ns"] = p["offsets_ns"]["C2"]
        a = analyze(ir2)
        assert p["mean_ms"] == pytest.approx(a["mean_ms"])
        assert p["p99_ms"] == a["percentiles"]["99"]
    assert r["best"]["p99_ms"] == min(p["p99_ms"] for p in r["points"])
    means = [p["mean_ms"] for p in r["points"]]
    assert means != sorted(means) and means != sorted(means, reverse=True)  # not monotonic in the offset
    best_deadline = explore(ir, ["C2"], step_ns=2 * MS, objective="deadline", workers=1)["best"]
    assert best_deadline["p_deadline"] == max(p["p_deadline"] for p in r["points"])


def test_default_step_and_two_components():
    r = explore(config("e"), ["C1", "C2"], objective="mean", workers=2)
    assert 1 < len(r["points"]) <= 400
    assert r["best"]["mean_ms"] == min(p["mean_ms"] for p in r["points"])
