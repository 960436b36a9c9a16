"""The report of a run: each scenario's statistics against the prediction, the PTTS systems re-analysed with the
measured chain, overload, status and the diagnosis, in the contract's RunReport shape (a statistic that is not
defined is null)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np

from chainlab.finite_json import dumps
from chainlab.plan import PlanOptions, make_plan, plan_to_json
from chainlab.plan.predict import LatencyPrediction
from chainlab.rpc.contract import validate_reply
from chainlab.run.report import RunReport, fill_results, overloaded
from chainlab.run.session import ScenarioRun
from chainlab.run.stats import latency_histogram_ms, latency_stats, measured_etp, pmf_latency_stats

ROOT = Path(__file__).resolve().parents[3]
PERIOD = 33_300_000


def skewed(n: int = 2000) -> np.ndarray:
    """2,000 frames between 20 and 30 ms, skewed towards 20 (deterministic)."""
    return np.array([round(20e6 + 10e6 * ((i * 7919) % n / n) ** 2) for i in range(n)], dtype=np.int64)


def prediction(points: list[tuple[int, float]]) -> LatencyPrediction:
    mean = sum(v * p for v, p in points)
    return LatencyPrediction(
        model="m",
        samples=10_000,
        nominal_ns=0,
        mean_ns=mean,
        std_ns=0.0,
        min_ns=points[0][0],
        p50_ns=0,
        p90_ns=0,
        p99_ns=0,
        max_ns=points[-1][0],
        period_ns=PERIOD,
        overloaded=False,
        points=points,
    )


def write_run(folder: Path, lat: np.ndarray) -> None:
    folder.mkdir()
    rows = ["iteration,start_ns,end_ns"] + [
        f"{i},{10**9 + i * PERIOD},{10**9 + i * PERIOD + int(v)}" for i, v in enumerate(lat)
    ]
    (folder / "latencies.csv").write_text("\n".join(rows) + "\n")


def test_the_report_carries_what_the_editor_shows(tmp_path: Path) -> None:
    ir = json.loads((ROOT / "tests/golden/samples/xray.ir.json").read_text())
    lat = skewed()
    for scenario in ("baseline", "congested"):
        write_run(tmp_path / scenario, lat)
    runs = [ScenarioRun(s, "ok", str(tmp_path / s), lat.size, lat.size) for s in ("baseline", "congested", "throttled")]
    points = [(21_000_000, 0.5), (24_000_000, 0.5)]
    report = RunReport("failed", "XRay", "here", "local", str(tmp_path), period_ns=PERIOD, iterations=lat.size)
    fill_results(report, runs, ir, prediction(points), None, {})
    baseline, _congested, throttled = report.scenarios
    assert baseline["measured"] == latency_stats(lat)
    assert baseline["etp"] == measured_etp(lat) and baseline["histogram_ms"] == latency_histogram_ms(lat)
    assert "etp" not in throttled and throttled["measured"] == {"samples": 0}  # nothing was measured there
    assert report.predicted["points"] == points and report.predicted["stats"] == pmf_latency_stats(points, 10_000)
    # the chain's `require latency p99 < 25 ms`, judged on the prediction and on each measurement
    assert [r["passed"] for r in report.predicted["requirements"]] == [True]
    assert [r["value_ms"] for r in baseline["requirements"]] == [baseline["quantiles_ms"]["99"]["measured"]]
    assert report.status == "ok" and report.checksums_equal and report.diagnosis
    # the end-to-end analysis of the report used the same measured ETP the editor writes
    [system] = baseline["ptts"]
    assert system["ptts"] == "System" and "p99_ms" in system
    # the predicted percentiles of every scenario are the prediction's statistics: one number everywhere
    assert baseline["quantiles_ms"]["99"]["predicted"] * 1e6 == report.predicted["stats"]["p99_ns"]
    report.plan = plan_to_json(make_plan(ir, "XRay", PlanOptions()))
    on_the_wire = json.loads(json.dumps(report.to_json()))
    validate_reply("run/local", {**on_the_wire, "preflight": {"target": "here", "ok": True, "facts": {}, "checks": []}})


def test_the_first_scenario_that_did_not_end_ok_is_the_reports_status(tmp_path: Path) -> None:
    write_run(tmp_path / "baseline", skewed(100))
    runs = [ScenarioRun("baseline", "stopped", str(tmp_path / "baseline"), 100, 200)]
    report = RunReport("failed", "XRay", "here", "local", str(tmp_path), period_ns=PERIOD, iterations=200)
    fill_results(report, runs, {"ptts": []}, prediction([(21_000_000, 1.0)]), None, {})
    assert report.status == "stopped"


def test_a_growing_backlog_is_overloaded_and_a_steady_chain_is_not() -> None:
    rng = np.random.default_rng(1)
    steady = rng.normal(20e6, 1e6, 500).astype(np.int64)
    backlog = (20e6 + np.arange(500) * 5e6).astype(np.int64)  # 5 ms more per frame: never catches up
    assert not overloaded(steady, PERIOD)
    assert overloaded(backlog, PERIOD)
    assert not overloaded(backlog, None)  # free-running: no period to keep up with


def test_an_undefined_statistic_is_null_on_the_wire_never_a_bare_nan(tmp_path: Path) -> None:
    write_run(tmp_path / "baseline", skewed(100))
    runs = [ScenarioRun("baseline", "ok", str(tmp_path / "baseline"), 100, 100)]
    report = RunReport("failed", "XRay", "here", "local", str(tmp_path), period_ns=PERIOD, iterations=100)
    fill_results(report, runs, {"ptts": []}, prediction([(21_000_000, 1.0)]), None, {})
    report.scenarios[0]["ks"] = math.nan  # as ks_distance gives it for an empty sample: not defined
    data = report.to_json()
    assert data["scenarios"][0]["ks"] is None and report.scenarios[0]["ks"] != report.scenarios[0]["ks"]
    assert json.loads(dumps(data))["scenarios"][0]["ks"] is None
