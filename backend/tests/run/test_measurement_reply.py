"""What a run's reply carries for the editor: per scenario the measured statistics, the plot's histogram and the
measured ETP (the editor writes it as `etp pmf { … }` and plots the histogram; it computes no statistics of its
own), and the prediction's statistics."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from chainlab.deploy.experiment import Deployment, ScenarioRun
from chainlab.deploy.report import results
from chainlab.run.stats import latency_histogram_ms, latency_stats, measured_etp, pmf_quantile, pmf_stats

ROOT = Path(__file__).resolve().parents[3]


def skewed(n: int = 2000) -> np.ndarray:
    """2,000 frames between 20 and 30 ms, skewed towards 20 (deterministic)."""
    return np.array([round(20e6 + 10e6 * ((i * 7919) % n / n) ** 2) for i in range(n)], dtype=np.int64)


def test_measured_etp_twenty_bins_on_the_10_us_grid_with_their_counts():
    lat = skewed()
    etp = measured_etp(lat)
    assert 5 < len(etp) <= 20
    assert sum(n for _, n in etp) == lat.size
    assert all(v % 10_000 == 0 and lat.min() <= v <= lat.max() + 10_000 for v, _ in etp)
    assert [v for v, _ in etp] == sorted(v for v, _ in etp)
    assert etp[0] == (20_250_000, 447)  # the first 0.5 ms bin holds the skew


def test_measured_etp_of_equal_latencies_is_one_point():
    assert measured_etp(np.full(50, 12_345_678, dtype=np.int64)) == [(12_350_000, 50)]
    assert measured_etp(np.zeros(0, dtype=np.int64)) == []


def test_histogram_percentiles_match_the_raw_latencies_within_a_bin():
    lat = skewed()
    points = latency_histogram_ms(lat)
    assert sum(p for _, p in points) == pytest.approx(1.0, abs=1e-9)
    ordered = np.sort(lat)
    for q in (0.5, 0.99):
        exact = ordered[int(np.ceil(q * lat.size)) - 1] / 1e6
        assert abs(pmf_quantile([(v, p) for v, p in points], q) - exact) <= 0.05 + 1e-9


def test_prediction_stats():
    points = [(10, 0.25), (30, 0.5), (20, 0.25)]
    assert pmf_stats(points) == {"mean_ns": 22.5, "p50_ns": 20.0, "p99_ns": 30.0, "max_ns": 30.0}
    assert pmf_stats([]) == {}


def test_the_reply_of_a_run_carries_what_the_editor_shows(tmp_path: Path):
    ir = json.loads((ROOT / "tests/golden/samples/xray.ir.json").read_text())
    lat = skewed()
    for scenario in ("baseline", "congested"):
        (tmp_path / scenario).mkdir()
        rows = ["iteration,start_ns,end_ns"] + [
            f"{i},{10**9 + i * 33_300_000},{10**9 + i * 33_300_000 + int(v)}" for i, v in enumerate(lat)
        ]
        (tmp_path / scenario / "latencies.csv").write_text("\n".join(rows) + "\n")
    dep = Deployment(
        "XRay",
        "here",
        "local",
        str(tmp_path),
        "",
        {},
        {},
        [ScenarioRun(s, "ok", str(tmp_path / s), lat.size, lat.size) for s in ("baseline", "congested", "throttled")],
    )
    predicted = [(21_000_000, 0.5), (24_000_000, 0.5)]
    res = results(dep, ir, predicted)
    baseline, _congested, throttled = res["scenarios"]
    assert baseline["measured"] == latency_stats(lat)
    assert baseline["etp"] == measured_etp(lat) and baseline["histogram_ms"] == latency_histogram_ms(lat)
    assert "etp" not in throttled and throttled["measured"] == {"samples": 0}  # nothing was measured there
    assert res["predicted"]["stats"] == pmf_stats(predicted)
    # the end-to-end analysis of the report used the same measured ETP the editor writes
    [system] = baseline["ptts"]
    assert system["ptts"] == "System" and "p99_ms" in system
    json.dumps(res)  # the reply is JSON
