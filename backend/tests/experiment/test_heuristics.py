"""`experiment heuristics` on a handful of small chains: the tables are the rows' numbers, each chain's row depends
on its seed only (the same in one process and on a LocalCluster), a resumed experiment recomputes nothing, and one
plan runs on this machine through the deploy path."""

from __future__ import annotations

import csv
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from chainlab.errors import ChainlabError
from chainlab.experiment.heuristics import Experiment, _run_on_target, run_experiment
from chainlab.experiment.plans import (
    BASELINE,
    PLANS,
    ChainSetup,
    chain_hash,
    column,
    plan_options,
    synthetic_ir,
    synthetic_row,
)
from chainlab.plan import make_plan

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
SMALL = {"chains": 3, "seed": 7, "boxes": 20, "threads": 2, "samples": 200}


def export_ir(path: Path) -> dict[str, Any]:
    out = subprocess.run(["node", str(CLI), "export", str(path), "--json"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    return json.loads(out.stdout)


@pytest.fixture(scope="module")
def small(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out = tmp_path_factory.mktemp("exp")
    reply = run_experiment(Experiment(**SMALL, out=out, scheduler="process"))
    return reply


def csv_rows(path: Path) -> list[dict[str, str]]:
    with path.open() as f:
        return list(csv.DictReader(f))


def test_rows_are_the_planners_numbers(small: dict[str, Any]) -> None:
    rows = csv_rows(Path(small["out"]) / "results.csv")
    assert [int(r["chain_seed"]) for r in rows] == [7, 8, 9]
    setup = ChainSetup(SMALL["boxes"], SMALL["threads"], SMALL["samples"])
    ir = synthetic_ir(setup, 8)
    for h, m in (("barrier", "simple"), ("reduced", "reuse")):
        plan = make_plan(ir, "Synth", plan_options(h, m, SMALL["threads"], 8, SMALL["samples"]))
        assert plan.latency is not None
        assert int(rows[1][column(h, m, "mean_ns")]) == round(plan.latency.mean_ns)
        assert int(rows[1][column(h, m, "p99_ns")]) == plan.latency.p99_ns
        assert int(rows[1][column(h, m, "arena_bytes")]) == plan.allocation.arena_bytes


def test_tables_are_computed_from_the_rows(small: dict[str, Any]) -> None:
    rows = [
        {k: (v if k in ("chain", "chain_hash") else int(v)) for k, v in r.items() if k not in ("key", "model_hash")}
        for r in csv_rows(Path(small["out"]) / "results.csv")
    ]
    tables = small["tables"]
    # Table II shape: the first chain (seed 7), in µs and KiB
    first = rows[0]
    for entry, (h, m) in zip(tables["table2"], PLANS):
        assert (entry["heuristic"], entry["memory"]) == (h, m)
        assert entry["mean_us"] == first[column(h, m, "mean_ns")] / 1e3
        assert entry["std_us"] == first[column(h, m, "std_ns")] / 1e3
        assert entry["arena_kib"] == first[column(h, m, "arena_bytes")] / 1024
    # the aggregate: median and quartiles of each chain's ratio to its simple/naive plan
    for entry, plan in zip(tables["aggregate"], PLANS):
        for stat in ("mean_ns", "std_ns", "p99_ns", "arena_bytes"):
            ratio = [r[column(*plan, stat)] / r[column(*BASELINE, stat)] for r in rows]
            assert entry[stat]["median_ratio"] == pytest.approx(float(np.median(ratio)), rel=1e-12)
            assert entry[stat]["p25_ratio"] == pytest.approx(float(np.percentile(ratio, 25)), rel=1e-12)
            assert entry[stat]["max_ratio"] == pytest.approx(max(ratio), rel=1e-12)
        assert entry["chains"] == 3
    baseline = tables["aggregate"][0]
    assert all(baseline[s]["median_ratio"] == 1.0 for s in ("mean_ns", "std_ns", "p99_ns", "arena_bytes"))
    # the naive allocator gives every buffer its own place; reuse never needs more
    for r in rows:
        naive = {r[column(h, "simple", "arena_bytes")] for h, m in PLANS if m == "simple"}
        assert len(naive) == 1  # every buffer its own place, whatever the schedule
        assert all(r[column(h, "reuse", "arena_bytes")] <= min(naive) for h, m in PLANS if m == "reuse")
    # Table III: the reduced heuristic on 4, 8 and 16 threads, both allocators
    assert [(t["threads"], t["memory"]) for t in tables["table3"]] == [
        (n, m) for n in (4, 8, 16) for m in ("simple", "reuse")
    ]
    md = (Path(small["out"]) / "tables.md").read_text()
    assert md == small["summary"] == tables["markdown"]
    assert f"{first[column('reduced', 'reuse', 'mean_ns')] / 1e3:,.0f}" in md
    assert "| reduced | reuse |" in md and "Table III" in md
    for f in ("boxplot.png", "boxplot.svg"):
        assert (Path(small["out"]) / f).stat().st_size > 1000


def test_a_chains_row_depends_on_its_seed_only() -> None:
    setup = ChainSetup(20, 2, 200)
    a, b, c = synthetic_row(setup, 3), synthetic_row(setup, 3), synthetic_row(setup, 4)
    assert a == b
    assert a["chain_hash"] != c["chain_hash"]


def test_local_cluster_rows_equal_one_process_rows(small: dict[str, Any], tmp_path: Path) -> None:
    reply = run_experiment(Experiment(**SMALL, out=tmp_path, scheduler=None))
    assert reply["engine"].startswith("local")
    strip = [{k: v for k, v in r.items() if k != "key"} for r in csv_rows(tmp_path / "results.csv")]
    here = [{k: v for k, v in r.items() if k != "key"} for r in csv_rows(Path(small["out"]) / "results.csv")]
    # the cluster writes rows as they finish: compare as sets of exact lines
    assert sorted(map(json.dumps, strip)) == sorted(map(json.dumps, here))


def test_scheduler_and_worker_processes_give_the_same_rows(small: dict[str, Any], tmp_path: Path) -> None:
    sys.path.insert(0, str(Path(__file__).parents[1] / "sweep"))
    from dask_processes import DaskProcesses

    cluster = DaskProcesses(workers=2)
    try:
        reply = run_experiment(Experiment(**SMALL, out=tmp_path, scheduler=cluster.address))
    finally:
        cluster.stop()
    assert reply["engine"] == f"{cluster.address} (2 worker(s))"
    assert sorted((tmp_path / "results.csv").read_text().splitlines()) == sorted(
        (Path(small["out"]) / "results.csv").read_text().splitlines()
    )
    assert (tmp_path / "tables.md").read_text() == (Path(small["out"]) / "tables.md").read_text()


def test_resume_recomputes_nothing_and_adds_only_new_chains(tmp_path: Path) -> None:
    exp = Experiment(**{**SMALL, "chains": 2}, out=tmp_path, scheduler="process")
    run_experiment(exp)
    before = (tmp_path / "results.csv").read_bytes()
    with pytest.raises(ChainlabError, match="already exists"):
        run_experiment(exp)  # without --resume nothing is overwritten
    assert (tmp_path / "results.csv").read_bytes() == before
    again = run_experiment(Experiment(**{**SMALL, "chains": 2}, out=tmp_path, scheduler="process", resume=True))
    assert again["chains_resumed"] == 2 and again["engine"].startswith("none")
    assert (tmp_path / "results.csv").read_bytes() == before
    more = run_experiment(Experiment(**{**SMALL, "chains": 3}, out=tmp_path, scheduler="process", resume=True))
    after = (tmp_path / "results.csv").read_bytes()
    assert more["chains_resumed"] == 2 and more["chains_done"] == 3
    assert after.startswith(before) and after.count(b"\n") == before.count(b"\n") + 1


def test_ctrl_c_keeps_the_finished_chains(tmp_path: Path) -> None:
    calls = iter(range(100))
    stopped = run_experiment(
        Experiment(**{**SMALL, "chains": 5}, out=tmp_path, scheduler="process"),
        cancelled=lambda: next(calls) >= 2,  # as if Ctrl-C came while the third chain was due
    )
    assert stopped["status"] == "stopped" and stopped["chains_done"] == 2
    assert len(csv_rows(tmp_path / "results.csv")) == 2
    done = run_experiment(Experiment(**{**SMALL, "chains": 5}, out=tmp_path, scheduler="process", resume=True))
    assert done["status"] == "ok" and done["chains_resumed"] == 2 and done["chains_done"] == 5


def test_the_model_chain_gives_table_one(tmp_path: Path) -> None:
    ir = export_ir(REPO / "samples" / "chains" / "fig3-1.chain")
    reply = run_experiment(Experiment(**{**SMALL, "chains": 1}, out=tmp_path, scheduler="process"), (ir, "Fig31"))
    table1 = reply["tables"]["table1"]
    assert [(e["heuristic"], e["memory"]) for e in table1] == list(PLANS)
    plan = make_plan(ir, "Fig31", plan_options("reduced", "reuse", SMALL["threads"], SMALL["seed"], SMALL["samples"]))
    assert plan.latency is not None
    assert table1[-1]["mean_us"] == round(plan.latency.mean_ns) / 1e3
    assert "Table I shape: chain Fig31" in reply["summary"]
    key = csv_rows(tmp_path / "results.csv")[0]["key"]
    assert key == f"model-Fig31-{chain_hash(ir)}-t2-s7"


def test_one_plan_runs_here_through_the_deploy_path(tmp_path: Path) -> None:
    ir = export_ir(REPO / "samples" / "chains" / "fig3-1.chain")
    exp = Experiment(**{**SMALL, "chains": 1}, out=tmp_path, target="here", iterations=5)
    row = _run_on_target(exp, ir, "Fig31", "reduced", "reuse", None)
    assert row["status"] == "ok" and row["samples"] == 5
    assert 0 < row["mean_ns"] <= row["max_ns"] and row["predicted_mean_ns"] > 0
    assert Path(row["dir"], "latencies.csv").exists()
