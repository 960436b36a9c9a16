"""The deploy report's judgement of a run: a chain that cannot keep up with its source is flagged, not reported as
latency."""

import json
from pathlib import Path

import numpy as np

from chainlab.deploy.report import overloaded, source_period_ns, summary_table

ROOT = Path(__file__).resolve().parents[3]
PERIOD = 33_300_000


def test_source_period_comes_from_the_chains_source_box():
    ir = json.loads((ROOT / "tests/golden/samples/xray.ir.json").read_text())
    assert source_period_ns(ir, "XRay") == PERIOD
    assert source_period_ns(ir, "NoSuchChain") is None


def test_a_growing_backlog_is_overloaded_and_a_steady_chain_is_not():
    rng = np.random.default_rng(1)
    steady = rng.normal(20e6, 1e6, 500).astype(np.int64)
    backlog = (20e6 + np.arange(500) * 5e6).astype(np.int64)  # 5 ms more per frame: never catches up
    assert not overloaded(steady, PERIOD)
    assert overloaded(backlog, PERIOD)
    assert not overloaded(backlog, None)  # free-running: no period to keep up with


def test_the_summary_names_the_overloaded_scenario():
    stats = {"samples": 500, "mean_ns": 9e8, "std_ns": 1e8, "p50_ns": 9e8, "p99_ns": 1.5e9, "max_ns": 1.6e9}
    res = {
        "checksums_equal": True,
        "scenarios": [
            {
                "scenario": "baseline",
                "measured": stats,
                "status": "ok",
                "completed": 500,
                "iterations": 500,
                "overloaded": True,
            },
            {
                "scenario": "congested",
                "measured": stats,
                "status": "ok",
                "completed": 500,
                "iterations": 500,
                "overloaded": False,
            },
        ],
    }
    text = summary_table(res)
    assert "OVERLOADED in baseline" in text and "OVERLOADED in congested" not in text
