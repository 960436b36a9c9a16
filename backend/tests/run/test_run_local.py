"""Local runs end to end: plan -> generate -> build (cached) -> run -> statistics, report and plots."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import numpy as np
import pytest

from chainlab.errors import ModelError
from chainlab.run import ks_distance, latency_stats, run_local
from chainlab.run.local import calibrated_ir, target_cores

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
    assert r.measured["p50_ns"] <= r.measured["p99_ns"] <= r.measured["max_ns"]
    assert 0 <= r.ks <= 1 and r.predicted and r.predicted["mean_ns"] > 0
    for name in ("latencies.csv", "run.json", "plan.json", "predicted.csv", "cdf.png", "cdf.svg", "report.json"):
        assert (tmp_path / "out" / name).exists(), name
    header = json.loads((tmp_path / "out" / "run.json").read_text())
    assert header["checksum"] == r.checksum and header["plan"]["heuristic"] == r.heuristic
    assert seen and seen[-1] == 1.0
    again = run_local(ir, "App", iterations=50, out_dir=tmp_path / "out2", cache=tmp_path / "cache")
    assert again.cached_build


def test_calibration_feeds_measured_costs_into_the_plan(tmp_path: Path) -> None:
    ir = _ir("samples/chains/appendix-a.chain")
    r = run_local(ir, "App", iterations=100, calibrate=5, out_dir=tmp_path, cache=tmp_path / "cache")
    assert r.calibrated and (tmp_path / "calibration.csv").exists()
    cal = calibrated_ir(ir, "App", tmp_path / "calibration.csv")
    costs = {b["name"]: b["cost_ns"] for b in cal["boxes"]}
    assert costs["Source"] != 1_300_000 and all(c >= 1 for c in costs.values())
    for b in cal["boxes"]:
        assert b["etp"]["kind"] == "pmf" and abs(sum(p for _, p in b["etp"]["points"]) - 1) < 1e-9
    from chainlab.ir import validate_ir

    validate_ir(cal)


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
