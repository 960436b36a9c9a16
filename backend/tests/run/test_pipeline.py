"""Runs end to end on this machine through the one pipeline: plan -> calibrate -> pin -> generate -> build (cached)
-> a session of scenarios on the local transport -> one RunReport with its files."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.plan import RUN_PREDICTION_DRAWS
from chainlab.rpc.contract import validate_reply
from chainlab.run import RunOptions, run_chain
from chainlab.run.calibration import apply_calibration, load_calibration

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
pytestmark = pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("cmake") is None or not CLI.exists(),
    reason="needs node, the built CLI and cmake",
)


@pytest.fixture(autouse=True)
def own_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CHAINLAB_CACHE", str(tmp_path / "cache"))


def _ir(path: str) -> dict:
    out = subprocess.run(
        ["node", str(CLI), "export", str(REPO / path), "--json"], capture_output=True, text=True, check=True
    )
    return json.loads(out.stdout)


def test_a_run_writes_its_report_files_and_answers_the_contracts_reply(tmp_path: Path) -> None:
    ir = _ir("samples/chains/appendix-a.chain")
    seen: list[str] = []
    options = RunOptions(iterations=300, out_dir=tmp_path / "out", progress=lambda f, m: seen.append(f"{f} {m}"))
    r = run_chain(ir, "App", options)
    [base] = r.scenarios
    assert r.status == "ok" and base["completed"] == 300 and base["measured"]["samples"] == 300
    # the prediction is drawn often enough that its own p99 does not move with the seed, however short the run
    assert r.predicted["stats"]["samples"] == RUN_PREDICTION_DRAWS
    assert base["measured"]["p50_ns"] <= base["measured"]["p99_ns"] <= base["measured"]["max_ns"]
    assert 0 <= base["ks"] <= 1 and r.predicted["stats"]["mean_ns"] > 0
    out = tmp_path / "out"
    for name in ("baseline/latencies.csv", "baseline/run.json", "plan.json", "predicted.csv", "cdf.png", "cdf.svg"):
        assert (out / name).exists(), name
    assert json.loads((out / "report.json").read_text()) == json.loads(json.dumps(r.to_json()))
    validate_reply("run/local", json.loads(json.dumps(r.to_json())))
    header = json.loads((out / "baseline" / "run.json").read_text())
    assert header["checksum"] == base["checksum"] and header["plan"]["heuristic"] == r.plan["heuristic"]
    assert seen[-1].startswith("1.0 baseline: 300/300 iterations")
    again = run_chain(ir, "App", RunOptions(iterations=50, out_dir=tmp_path / "out2"))
    assert again.cached_build and "cached build" in again.summary


def test_calibration_streams_progress_is_kept_beside_the_model_and_reused(tmp_path: Path) -> None:
    ir = _ir("samples/chains/appendix-a.chain")
    model = tmp_path / "app.chain"  # only its folder matters: the calibration is kept beside it
    seen: list[tuple[float, str]] = []
    options = RunOptions(
        iterations=60,
        calibrate=40,
        out_dir=tmp_path / "a",
        model_file=str(model),
        progress=lambda f, m: seen.append((f, m)),
    )
    r = run_chain(ir, "App", options)
    stored = tmp_path / ".chainlab" / "calibration" / "App@here.json"
    assert r.calibrated and r.calibration == str(stored) and stored.exists()
    # the calibration run counts up first, as the first 40 of 100 iterations of the bar, which never goes back
    assert (0.4, "calibration: 40/40 iterations") in seen and seen[-1] == (1.0, "baseline: 60/60 iterations")
    assert [f for f, _ in seen] == sorted(f for f, _ in seen)
    cal = load_calibration(stored, "App", "here")
    assert cal is not None and cal.iterations == 40 and len(cal.durations_ns) == 40
    assert set(cal.sub_boxes) == {t["sub_box"] for t in r.scenarios[0]["tasks"]}
    calibrated = apply_calibration(ir, cal)
    for b in calibrated["boxes"]:
        assert b["etp"]["kind"] == "pmf" and abs(sum(p for _, p in b["etp"]["points"]) - 1) < 1e-9
    assert {b["name"]: b["cost_ns"] for b in calibrated["boxes"]}["Source"] != 1_300_000
    validate_ir(calibrated)
    again = run_chain(ir, "App", RunOptions(iterations=30, out_dir=tmp_path / "b", model_file=str(model)))
    assert again.calibrated and again.calibration == str(stored)
    assert "predicted from the sub-box times measured in" in again.summary
    without = run_chain(ir, "App", RunOptions(iterations=30, out_dir=tmp_path / "d"))
    assert not without.calibrated and "--calibrate N measures them" in without.summary


def test_a_run_reports_each_sub_box_as_it_ran(tmp_path: Path) -> None:
    ir = _ir("samples/chains/appendix-a.chain")
    r = run_chain(ir, "App", RunOptions(iterations=50, out_dir=tmp_path / "out"))
    [base] = r.scenarios
    assert (tmp_path / "out" / "baseline" / "tasks.csv").exists() and base["tasks"]
    for t in base["tasks"]:
        assert 0 <= t["start_ns"] <= t["end_ns"] and t["samples"] == 50
        assert t["duration_p50_ns"] <= t["duration_p99_ns"] and t["thread"] >= 0
    # the last sub-box ends when the iteration does: the median end is the median latency, within a little
    assert max(t["end_ns"] for t in base["tasks"]) == pytest.approx(base["measured"]["p50_ns"], rel=0.5)


def test_a_rerun_into_the_same_folder_never_reports_the_previous_runs_files(tmp_path: Path) -> None:
    ir = _ir("samples/chains/appendix-a.chain")
    run_chain(ir, "App", RunOptions(iterations=40, out_dir=tmp_path / "out"))
    r = run_chain(ir, "App", RunOptions(iterations=20, out_dir=tmp_path / "out"))
    assert r.scenarios[0]["completed"] == 20
    rows = (tmp_path / "out" / "baseline" / "latencies.csv").read_text().strip().splitlines()
    assert len(rows) == 21


def test_targets_are_checked_before_anything_runs(tmp_path: Path) -> None:
    ir = _ir("samples/xray.chain")
    with pytest.raises(ModelError, match="no target named"):
        run_chain(ir, "XRay", RunOptions(target="nowhere", out_dir=tmp_path / "x"))
    with pytest.raises(ModelError, match="unknown scenario"):
        run_chain(ir, "XRay", RunOptions(scenarios=("fast",), out_dir=tmp_path / "x"))
    assert not (tmp_path / "x").exists()
