"""A chain's latency requirements judged on a run: on each scenario's measured latencies and on the prediction, with
the value the plot marks (the measured quantile as the scenarios report it, the predicted one as the prediction's)."""

from __future__ import annotations

import numpy as np

from chainlab.run.requirements import chain_requirements, judge_measured, judge_predicted
from chainlab.run.stats import pmf_quantile

P99 = {"kind": "percentile", "percentile": 99, "op": "<", "bound_ns": 25_000_000, "loc": {"line": 3}}
DEADLINE = {"kind": "deadline", "op": "<=", "bound_ns": 22_000_000, "probability": 0.5}
LOSS = {"kind": "loss", "op": "<", "limit": 1e-4}
IR = {"chains": [{"name": "C", "requirements": [P99, DEADLINE, LOSS]}, {"name": "D", "requirements": []}]}


def test_the_chains_latency_requirements_are_judged_loss_is_a_ptts_systems() -> None:
    assert chain_requirements(IR, "C") == [P99, DEADLINE]
    assert chain_requirements(IR, "D") == [] and chain_requirements(IR, "nowhere") == []


def test_measured_latencies_pass_or_fail_with_the_quantile_the_scenario_reports() -> None:
    lat = np.arange(20_000_000, 30_000_000, 10_000, dtype=np.int64)  # 1000 frames, 20..30 ms
    p99, deadline = judge_measured([P99, DEADLINE], lat)
    assert p99["value_ms"] == float(np.percentile(lat, 99)) / 1e6 and not p99["passed"] and p99["pass"] is False
    assert p99["bound_ms"] == 25 and p99["probability"] == 0.5 and p99["loc"] == {"line": 3}
    assert deadline["value"] == deadline["probability"] == 0.201 and not deadline["passed"]
    assert deadline["required_probability"] == 0.5 and "loc" not in deadline
    [fast] = judge_measured([P99], lat - 10_000_000)
    assert fast["passed"]
    assert judge_measured([P99], np.zeros(0, dtype=np.int64)) == []


def test_the_prediction_is_judged_on_its_distribution() -> None:
    points = [(20_000_000, 0.6), (24_000_000, 0.39), (26_000_000, 0.01)]
    p99, deadline = judge_predicted([P99, DEADLINE], points)
    assert p99["value_ms"] == pmf_quantile(points, 0.99) / 1e6 == 24 and p99["passed"]
    assert abs(p99["probability"] - 0.99) < 1e-12
    assert deadline["probability"] == 0.6 and deadline["passed"]
    assert judge_predicted([P99], []) == []
