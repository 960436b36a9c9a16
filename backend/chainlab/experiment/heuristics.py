"""`chainlab experiment heuristics`: the synthetic experiment of papers 002/003 on chainlab's planner.

N seeded synthetic chains (`synth`, seeds S .. S+N-1), each planned with the eight heuristic x allocator pairs of
the papers' tables (plans.py); per chain and plan the predicted mean, sigma, p99 and arena. One sweep point is one
chain with all its plans (~0.5-1 s, ships a seed and returns one row), run by the sweep engine (chainlab.sweep: in
this process, on a LocalCluster or on a Dask scheduler). Rows go to OUT/results.csv as they finish (key, the
experiment's hash, the chain's hash, the numbers); a resumed experiment recomputes none of them, and Ctrl-C keeps
them. Then the summaries (tables.py) go to OUT/tables.md and the box plots (plot.py) to OUT/boxplot.png/.svg.

The model chain (the X-ray chain of samples/xray.chain for Table I) is planned here the same way and stored in the
same file. Table III (reduced with 4, 8 and 16 threads) is planned on the Table II chain (seed S).

With a target, every plan of the model chain and of each synthetic chain also runs there through the run pipeline
(chainlab.run, baseline scenario only), one after the other (measurements must not share the
machine), into OUT/measured.csv (resumed the same way) and the runs' own folders under OUT/runs/.
"""

from __future__ import annotations

import copy
import hashlib
import json
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from chainlab.deploy.names import check_target
from chainlab.deploy.targets import resolve_target
from chainlab.errors import ModelError
from chainlab.experiment.plans import (
    PLANS,
    ChainSetup,
    chain_hash,
    chain_row,
    row_fields,
    synthetic_ir,
    synthetic_row,
    thread_rows,
)
from chainlab.experiment.plot import boxplot
from chainlab.experiment.tables import (
    PAPER_TABLE1,
    PAPER_TABLE2,
    aggregate,
    aggregate_md,
    one_chain,
    one_chain_md,
    table3_md,
)
from chainlab.files import write_atomic
from chainlab.plan import PlanOptions
from chainlab.progress import ProgressFn
from chainlab.run import RunOptions, interrupt, run_chain
from chainlab.sweep import RowStore, SweepCancelled, run_sweep

#: Bumped when a row's meaning changes: a results.csv of another version is refused, not mixed.
VERSION = 1
MEASURED_FIELDS = ["chain", "heuristic", "memory", "status", "samples", "mean_ns", "std_ns", "p99_ns", "max_ns"]
MEASURED_FIELDS += ["predicted_mean_ns", "predicted_p99_ns", "threads", "dir"]


@dataclass(frozen=True)
class Experiment:
    chains: int = 250
    seed: int = 0
    boxes: int = 100
    threads: int = 4
    samples: int = 1000
    out: Path = Path("experiment-heuristics")
    resume: bool = False
    scheduler: str | None = None  # None: LocalCluster; "process": here; "tcp://HOST:PORT"
    target: str | None = None
    iterations: int = 200

    @property
    def setup(self) -> ChainSetup:
        return ChainSetup(self.boxes, self.threads, self.samples)

    def experiment_hash(self) -> str:
        """What every row of results.csv depends on besides its chain (the chain count and seed do not: a resumed
        experiment may ask for more chains)."""
        text = json.dumps({"experiment": "heuristics", "version": VERSION, **asdict(self.setup)}, sort_keys=True)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def run_experiment(
    exp: Experiment,
    model: tuple[dict[str, Any], str] | None = None,
    *,
    model_file: str | None = None,
    progress: ProgressFn | None = None,
    cancelled: Callable[[], bool] = interrupt.interrupted,
) -> dict[str, Any]:
    """The whole experiment (see the module's docstring); model = (IR, chain) of Table I. Returns the reply of
    `experiment/heuristics`: status ok | stopped, the tables as data and as Markdown, the files written."""
    if exp.chains < 1 or exp.boxes < 6 or exp.threads < 1:
        raise ModelError("the experiment needs at least 1 chain, 6 boxes per chain and 1 thread")
    if exp.target is not None:  # an unknown target is refused before any planning
        check_target(resolve_target(model[0] if model else {"targets": []}, exp.target))
    t0 = time.perf_counter()
    out = exp.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    report = progress or (lambda _f, _m: None)
    setup = exp.setup
    seeds = list(range(exp.seed, exp.seed + exp.chains))
    share = 0.5 if exp.target else 1.0  # of the progress bar: planning, then measuring
    engine: list[str] = []
    status = "ok"
    with RowStore(out / "results.csv", exp.experiment_hash(), fields=row_fields(), resume=exp.resume) as store:
        model_row = None
        model_key = _model_key(exp, model)
        if model is not None:
            ir, chain = model
            model_row = store.rows().get(model_key)
            if model_row is None:
                model_row = chain_row(ir, chain, threads=exp.threads, seed=exp.seed, samples=exp.samples)
                store.append(model_key, model_row)
        resumed = sum(setup.key(s) in store for s in seeds)
        try:
            rows = run_sweep(
                synthetic_row,
                setup,
                seeds,
                key=setup.key,
                cluster=exp.scheduler,
                store=store,
                progress=lambda done, total: report(share * done / total, f"{done}/{total} chains planned"),
                cancelled=cancelled,
                on_engine=lambda e: engine.append(f"{e.engine} ({e.workers} worker(s))"),
            )
        except SweepCancelled as stop:
            rows = [r for r in stop.rows if r is not None]
            status = "stopped"
    planned_s = time.perf_counter() - t0
    measured: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
    if exp.target and status == "ok":
        measured, status = _measure(exp, model, model_key, rows, model_file, report, cancelled, share)
    tables = _tables(exp, model, model_key, model_row, rows, measured)
    files = _write(exp, out, tables, rows)
    return {
        "status": status,
        "out": str(out),
        "chains": exp.chains,
        "chains_done": len(rows),
        "chains_resumed": resumed,
        "engine": engine[0] if engine and resumed < len(seeds) else "none (every chain was in results.csv)",
        "wall_s": round(time.perf_counter() - t0, 3),
        "planning_s": round(planned_s, 3),
        "tables": tables,
        "summary": tables["markdown"],
        "files": files,
    }


def _model_key(exp: Experiment, model: tuple[dict[str, Any], str] | None) -> str:
    """The model chain's key in results.csv: its name and hash, so that an edited model is planned again."""
    return f"model-{model[1]}-{chain_hash(model[0])}-t{exp.threads}-s{exp.seed}" if model else ""


def _measure(
    exp: Experiment,
    model: tuple[dict[str, Any], str] | None,
    model_key: str,
    rows: list[dict[str, Any]],
    model_file: str | None,
    report: ProgressFn,
    cancelled: Callable[[], bool],
    share: float,
) -> tuple[dict[str, dict[tuple[str, str], dict[str, Any]]], str]:
    """Every plan of every chain on the target, one run at a time; OUT/measured.csv, resumed."""
    assert exp.target is not None
    targets = model[0].get("targets", []) if model else []
    platforms = model[0].get("platforms", []) if model else []
    jobs: list[tuple[str, dict[str, Any], str, str | None]] = []  # (key prefix, IR, chain, model file)
    if model is not None:
        jobs.append((model_key, model[0], model[1], model_file))
    for row in rows:
        ir = synthetic_ir(exp.setup, int(row["chain_seed"]))
        # the model file's targets (and their platforms), so that --target names one of them
        ir["targets"] = copy.deepcopy(targets)
        ir["platforms"] += [
            copy.deepcopy(p) for p in platforms if p["name"] not in {q["name"] for q in ir["platforms"]}
        ]
        jobs.append((exp.setup.key(int(row["chain_seed"])), ir, row["chain"], None))
    measured: dict[str, dict[tuple[str, str], dict[str, Any]]] = {}
    total = len(jobs) * len(PLANS)
    status = "ok"
    mhash = f"{exp.experiment_hash()}-{exp.target}-i{exp.iterations}"
    with RowStore(exp.out.resolve() / "measured.csv", mhash, fields=MEASURED_FIELDS, resume=True) as store:
        done = 0
        for prefix, ir, chain, file in jobs:
            for h, m in PLANS:
                key = f"{prefix}/{h}/{m}"
                stored = store.rows().get(key)
                if stored is not None:
                    row = stored
                else:
                    if cancelled():
                        return measured, "stopped"
                    report(share + (1 - share) * done / total, f"measuring {chain} {h}/{m} on {exp.target}")
                    row = _run_on_target(exp, ir, chain, h, m, file)
                    if row["status"] != "ok":  # stopped or failed: not kept, a resumed experiment runs it again
                        return measured, "stopped" if row["status"] == "stopped" else row["status"]
                    store.append(key, row)
                measured.setdefault(prefix, {})[(h, m)] = row
                done += 1
    return measured, status


def _run_on_target(
    exp: Experiment, ir: dict[str, Any], chain: str, heuristic: str, memory: str, file: str | None
) -> dict[str, Any]:
    assert exp.target is not None
    options = RunOptions(
        target=exp.target,
        iterations=exp.iterations,
        plan=PlanOptions(heuristic=heuristic, memory=memory, threads=exp.threads),
        runs_root=exp.out.resolve() / "runs",
        model_file=file,
    )
    res = run_chain(ir, chain, options).to_json()
    scenario: dict[str, Any] = res["scenarios"][0] if res["scenarios"] else {"status": "failed", "dir": ""}
    got: dict[str, Any] = scenario.get("measured") or {}
    pred = res["predicted"]["stats"]
    return {
        "chain": chain,
        "heuristic": heuristic,
        "memory": memory,
        "status": scenario["status"],
        "samples": got.get("samples", 0),
        "mean_ns": round(got["mean_ns"]) if got.get("samples") else None,
        "std_ns": round(got["std_ns"]) if got.get("samples") else None,
        "p99_ns": got.get("p99_ns"),
        "max_ns": got.get("max_ns"),
        "predicted_mean_ns": round(pred["mean_ns"]) if pred.get("mean_ns") is not None else None,
        "predicted_p99_ns": round(pred["p99_ns"]) if pred.get("p99_ns") is not None else None,
        "threads": exp.threads,
        "dir": scenario["dir"],
    }


def _tables(
    exp: Experiment,
    model: tuple[dict[str, Any], str] | None,
    model_key: str,
    model_row: dict[str, Any] | None,
    rows: list[dict[str, Any]],
    measured: dict[str, dict[tuple[str, str], dict[str, Any]]],
) -> dict[str, Any]:
    first = next((r for r in rows if r["chain_seed"] == exp.seed), None)
    table1 = one_chain(model_row, measured.get(model_key)) if model and model_row else None
    table2 = one_chain(first, measured.get(exp.setup.key(exp.seed))) if first else None
    agg = aggregate(rows) if rows else []
    table3 = []
    if first is not None:
        ir = synthetic_ir(exp.setup, exp.seed)
        table3 = thread_rows(ir, ir["chains"][0]["name"], seed=exp.seed, samples=exp.samples)
    md = [
        f"# Heuristics x allocators: papers 002/003 on chainlab's planner ({len(rows)} of {exp.chains} synthetic "
        f"chains of {exp.boxes} boxes, seeds {exp.seed}..{exp.seed + exp.chains - 1}, {exp.threads} threads)",
        "",
        "Predicted by chainlab's planner (Monte Carlo over the cost model, no cache or memory-bandwidth term), "
        "not measured, unless a 'measured' column says so. Memory 'naive' is the planner's `simple` allocator. "
        "Paper columns: papers 002/003, measured on a Core i7 860 (100,000 iterations).",
    ]
    if table1 is not None and model is not None:
        md += ["", f"## Table I shape: chain {model[1]} ({model_row['sub_boxes'] if model_row else '?'} sub-boxes)", ""]
        md += one_chain_md(table1, PAPER_TABLE1)
    if table2 is not None and first is not None:
        md += ["", f"## Table II shape: synthetic chain seed {exp.seed} (hash {first['chain_hash']})", ""]
        md += one_chain_md(table2, PAPER_TABLE2)
    if agg:
        md += [
            "",
            f"## All {len(rows)} chains: ratio to the chain's simple/naive plan, median (p25–p75)",
            "",
            *aggregate_md(agg),
        ]
    if table3:
        md += ["", f"## Table III shape: reduced heuristic, 4/8/16 threads, synthetic chain seed {exp.seed}", ""]
        md += table3_md(table3)
    return {
        "table1": table1,
        "table2": table2,
        "aggregate": agg,
        "table3": table3,
        "markdown": "\n".join(md) + "\n",
    }


def _write(exp: Experiment, out: Path, tables: dict[str, Any], rows: list[dict[str, Any]]) -> list[str]:
    files = [out / "results.csv"]
    write_atomic(out / "tables.md", tables["markdown"])
    files.append(out / "tables.md")
    if (out / "measured.csv").exists():
        files.append(out / "measured.csv")
    if rows:
        chains = f"{len(rows)} synthetic chains ({exp.boxes} boxes, {exp.threads} threads)"
        title = f"{chains}: predicted mean latency and arena"
        files += boxplot(rows, out / "boxplot", title)
    return [str(f) for f in files]
