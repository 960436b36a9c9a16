"""Local runs end to end: plan -> generate -> build (cached) -> run -> statistics, report and plots."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.plan import RUN_PREDICTION_DRAWS
from chainlab.run import ks_distance, latency_stats, run_local
from chainlab.run.calibration import apply_calibration, load_calibration
from chainlab.run.local import summary_text, target_cores

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("cmake") is None or not CLI.exists(),
    reason="needs node, the built CLI and cmake",
)


def _ir(path: str) -> dict:
    out = subprocess.run(
        ["node", str(CLI), "export", str(REPO / path), "--json"], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_run_writes_latencies_report_and_plots(tmp_path: Path) -> None:
    ir = _ir("samples/chains/appendix-a.chain")
    seen: list[float] = []
    r = run_local(
        ir,
        "App",
        iterations=300,
        out_dir=tmp_path / "out",
        cache=tmp_path / "cache",
        progress=lambda f, m: seen.append(f),
    )
    assert r.status == "ok" and r.completed == 300 and r.measured["samples"] == 300
    # the prediction is drawn often enough that its own p99 does not move with the seed, however short the run
    assert r.predicted is not None and r.predicted["samples"] == RUN_PREDICTION_DRAWS
    assert r.measured["p50_ns"] <= r.measured["p99_ns"] <= r.measured["max_ns"]
    assert 0 <= r.ks <= 1 and r.predicted and r.predicted["mean_ns"] > 0
    for name in ("latencies.csv", "run.json", "plan.json", "predicted.csv", "cdf.png", "cdf.svg", "report.json"):
        assert (tmp_path / "out" / name).exists(), name
    header = json.loads((tmp_path / "out" / "run.json").read_text())
    assert header["checksum"] == r.checksum and header["plan"]["heuristic"] == r.heuristic
    assert seen and seen[-1] == 1.0
    again = run_local(ir, "App", iterations=50, out_dir=tmp_path / "out2", cache=tmp_path / "cache")
    assert again.cached_build


def test_calibration_is_measured_as_the_chain_runs_kept_beside_the_model_and_reused(tmp_path: Path) -> None:
    ir = _ir("samples/chains/appendix-a.chain")
    model = tmp_path / "app.chain"  # only its folder matters: the calibration is kept beside it
    r = run_local(
        ir, "App", iterations=60, calibrate=40, out_dir=tmp_path / "a", cache=tmp_path / "c", model_file=str(model)
    )
    stored = tmp_path / ".chainlab" / "calibration" / "App@here.json"
    assert r.calibrated and r.calibration == str(stored) and stored.exists()
    cal = load_calibration(stored, "App", "here")
    assert cal is not None and cal.iterations == 40 and len(cal.durations_ns) == 40
    assert set(cal.sub_boxes) == {t["sub_box"] for t in r.tasks}
    calibrated = apply_calibration(ir, cal)
    for b in calibrated["boxes"]:
        assert b["etp"]["kind"] == "pmf" and abs(sum(p for _, p in b["etp"]["points"]) - 1) < 1e-9
    assert {b["name"]: b["cost_ns"] for b in calibrated["boxes"]}["Source"] != 1_300_000
    validate_ir(calibrated)
    again = run_local(ir, "App", iterations=30, out_dir=tmp_path / "b", cache=tmp_path / "c", model_file=str(model))
    assert again.calibrated and again.calibration == str(stored)
    assert "predicted from the sub-box times measured in" in summary_text(again)
    without = run_local(ir, "App", iterations=30, out_dir=tmp_path / "d", cache=tmp_path / "c")
    assert not without.calibrated and "--calibrate N measures them" in summary_text(without)


def test_a_run_reports_each_sub_box_as_it_ran(tmp_path: Path) -> None:
    ir = _ir("samples/chains/appendix-a.chain")
    r = run_local(ir, "App", iterations=50, out_dir=tmp_path / "out", cache=tmp_path / "cache")
    assert (tmp_path / "out" / "tasks.csv").exists() and r.tasks
    for t in r.tasks:
        assert 0 <= t["start_ns"] <= t["end_ns"] and t["samples"] == 50
        assert t["duration_p50_ns"] <= t["duration_p99_ns"] and t["thread"] >= 0
    # the last sub-box ends when the iteration does: the median end is the median latency, within a little
    assert max(t["end_ns"] for t in r.tasks) == pytest.approx(r.measured["p50_ns"], rel=0.5)


def test_a_damaged_calibration_is_refused_with_its_path(tmp_path: Path) -> None:
    bad = tmp_path / "App@here.json"
    bad.write_text("{not json")
    with pytest.raises(ModelError, match=r"App@here\.json: not a chainlab calibration"):
        load_calibration(bad, "App", "here")


def test_targets_map_threads_onto_rt_cores() -> None:
    ir = _ir("samples/xray.chain")
    assert target_cores(ir, "here") == [0]
    with pytest.raises(ModelError, match="ssh target"):
        target_cores(ir, "lab1")
    with pytest.raises(ModelError, match="no target named"):
        target_cores(ir, "nowhere")


def test_statistics_and_ks() -> None:
    lat = np.array([1, 2, 3, 4], dtype=np.int64) * 1000
    s = latency_stats(lat)
    assert s["mean_ns"] == 2500 and s["max_ns"] == 4000
    assert ks_distance(lat, [(1000, 0.25), (2000, 0.25), (3000, 0.25), (4000, 0.25)]) == pytest.approx(0)
    assert ks_distance(lat, [(10_000, 1.0)]) == pytest.approx(1)
