"""Bench of the sweep engine (chainlab.sweep): exact PTTS analyses per second in one process, on a LocalCluster of
this machine, and on a Dask scheduler with workers started as separate processes (not a test).

Run: backend/.venv/bin/python bench/sweep/bench_sweep.py [--workload light|heavy|both] [--rows runs|points]
     [--repeat N] [--json]

Each workload is an `explore` grid of the case study's ConfigE (thesis Table 5.3): offsets of GPU and Wall times
candidate periods of Wall, every point one exact analysis: `--rows runs` (default) as the CLI's sweeps run them,
the points that differ in Wall's offset in one pass (chainlab.ptts.offset_runs.analyse_points), `--rows points` one
by one (chainlab.ptts.explore_points.analyse_point); the same rows. `light` keeps Wall near 16.6 ms (short
hyper-periods); `heavy` adds 16.67 ms (a long hyper-period, eq. 5.15 ~1e6, ms a point one by one). Throughput
counts the sweep only, from its start to its last row; the start of the cluster (LocalCluster: its processes;
separate: connecting) and its stop (closing a LocalCluster once every row is in) are printed apart. Scaling
efficiency is throughput / (one-process throughput x workers). Each mode runs `--repeat` times (3), interleaved,
after one uncounted sweep in this process; a row shows the median run and a ratio the median of the repetitions'
ratios. The rows are checked equal in all modes.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "backend"))
sys.path.insert(0, str(ROOT / "backend" / "tests" / "ptts"))

from cpu_meter import CpuMeter  # noqa: E402
from ptts_cases import MS, config  # noqa: E402

from chainlab.ptts.api import prepare  # noqa: E402
from chainlab.ptts.cost import eq_5_15  # noqa: E402
from chainlab.ptts.explore import _resolved_ir  # noqa: E402
from chainlab.ptts.explore_points import Shared, analyse_point, point_ir, point_key  # noqa: E402
from chainlab.ptts.offset_runs import analyse_points, run_label  # noqa: E402
from chainlab.sweep.cluster import local_workers  # noqa: E402
from chainlab.sweep.engine import run_sweep  # noqa: E402

WORKLOADS = {
    "light": {"step_ns": MS // 4, "periods": [16_600_000, 16_700_000]},
    "heavy": {"step_ns": MS // 2, "periods": [16_600_000, 16_670_000]},
}
# analyses/s with two workers (light), and the two-worker and one-worker rates against one process
TARGETS = {"light_per_s": 10_000.0, "heavy_speedup": 1.8, "one_worker_efficiency": 0.95}


def grid(workload: str) -> tuple[Shared, list[dict[str, Any]], dict[int, float]]:
    """The workload's Shared, its points, and eq. 5.15 of each candidate period (the engine's cost of a point)."""
    spec = WORKLOADS[workload]
    ir = _resolved_ir(config("e"), None)
    names = [c["name"] for c in ir["components"]]  # Sensor, GPU, Wall
    gpu, wall = names[1], names[2]
    points = []
    ops: dict[int, float] = {}
    for period in spec["periods"]:
        ops[period] = float(eq_5_15(prepare(point_ir(ir, {"offsets_ns": {}, "periods_ns": {wall: period}})).chain)[0])
        for a in range(0, 16_600_000, spec["step_ns"]):
            for b in range(0, period, spec["step_ns"]):
                points.append({"offsets_ns": {gpu: a, wall: b}, "periods_ns": {wall: period}})
    return Shared(ir, 160 * MS, "<=", 10**12), points, ops


def timed(
    workload: str, cluster: str, workers: int | None = None, runs: bool = True, roots: list[int] | None = None
) -> dict[str, Any]:
    """One sweep of the workload (a fresh Shared: no structure carried over from an earlier mode); runs: the rows
    of runs of one varying offset in one pass each (what `explore` does), else point by point. roots: the separate
    cluster's processes."""
    shared, points, ops = grid(workload)
    engines: list[Any] = []
    kind = "process" if cluster == "process" else "separate" if "://" in cluster else "local"
    meter = CpuMeter(kind, roots or [])

    def on_engine(engine: Any) -> None:
        engines.append(engine)
        meter.on_engine(engine)

    wall = next(iter(points[0]["periods_ns"]))
    last_row = [0.0]

    def progress(done: int, total: int) -> None:
        meter.progress(done, total)
        if done == total and not last_row[0]:
            last_row[0] = time.perf_counter()

    started = time.perf_counter()
    rows = run_sweep(
        analyse_point,
        shared,
        points,
        key=point_key,
        cluster=cluster,
        workers=workers,
        cost=lambda p: ops[p["periods_ns"][wall]],
        on_engine=on_engine,
        progress=progress,
        many=analyse_points if runs else None,
        together=run_label if runs else None,
    )
    ended = time.perf_counter()
    engine = engines[0]
    # the cluster's start (before the sweep's work on it) and its stop (after the last row) are shown apart
    sweep_s = last_row[0] - started - engine.start_s
    return {
        "rows": rows,
        "workers": engine.workers,
        "points": len(points),
        "start_s": engine.start_s,
        "sweep_s": sweep_s,
        "stop_s": ended - last_row[0],
        "per_s": len(points) / sweep_s,
        "client_ms_per_point": meter.client_s / len(points) * 1e3,
        "cluster_ms_per_point": meter.cluster_s / len(points) * 1e3,
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def separate_cluster(workers: int) -> tuple[str, list[subprocess.Popen[bytes]]]:
    dask = Path(sys.executable).parent / "dask"
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet: dict[str, Any] = {
        "stdout": subprocess.DEVNULL,
        "stderr": subprocess.DEVNULL,
        "start_new_session": True,
        "env": {**os.environ, "DASK_CONFIG": str(Path(__file__).parent / "dask-worker.yaml")},  # as README says
    }
    procs = [
        subprocess.Popen(
            [str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port)],
            **quiet,
        )
    ]
    for _ in range(workers):
        procs.append(
            subprocess.Popen(
                [
                    str(dask),
                    "worker",
                    address,
                    "--nthreads",
                    "1",
                    "--host",
                    "127.0.0.1",
                ],
                **quiet,
            )
        )
    from distributed import Client

    with Client(address, timeout=60, set_as_default=False) as client:
        client.wait_for_workers(workers, timeout=120)
    return address, procs


def stop(procs: list[subprocess.Popen[bytes]]) -> None:
    for p in reversed(procs):
        if p.poll() is None:
            os.killpg(p.pid, signal.SIGTERM)
    for p in procs:
        p.wait(30)


MODES = (
    ("process", "process", None),
    ("local-1", "local", 1),
    ("local-2", "local", 2),
    ("separate", None, None),
)


def run_workload(workload: str, address: str, roots: list[int], runs: bool, repeat: int) -> dict[str, Any]:
    """Every mode `repeat` times, interleaved (process, local-1, local-2, separate, process, ...), after one sweep in
    this process that is not counted (its first imports and caches would be charged to whichever mode came first).
    A mode's row is its median run by analyses/s; the ratios against one process are medians of each repetition's
    own ratio, so a slow minute of the machine counts against both sides of it."""
    here = timed(workload, "process", runs=runs)
    measured: dict[str, list[dict[str, Any]]] = {name: [] for name, _c, _w in MODES}
    for _ in range(repeat):
        for name, cluster, workers in MODES:
            r = timed(workload, cluster or address, workers, runs, roots)
            assert r["rows"] == here["rows"], f"rows differ between process and {name}"
            del r["rows"]
            measured[name].append(r)
    process_rates = [r["per_s"] for r in measured["process"]]
    out: dict[str, Any] = {"points": here["points"], "repeat": repeat}
    for name, _c, _w in MODES:
        runs_of = measured[name]
        r = sorted(runs_of, key=lambda x: x["per_s"])[len(runs_of) // 2]
        ratios = [x["per_s"] / p for x, p in zip(runs_of, process_rates)]
        out[name] = {
            "workers": r["workers"],
            "analyses_per_s": r["per_s"],
            "analyses_per_s_all": [x["per_s"] for x in runs_of],
            "vs_process": statistics.median(ratios),
            "start_s": r["start_s"],
            "sweep_s": r["sweep_s"],
            "stop_s": r["stop_s"],
            # worker-seconds a point costs on the cluster beyond its time in one process
            "overhead_ms": (r["workers"] / r["per_s"] - 1 / statistics.median(process_rates)) * 1e3,
            "efficiency": statistics.median(ratios) / r["workers"],
            "cpu_ms_per_point": {"client": r["client_ms_per_point"], "cluster": r["cluster_ms_per_point"]},
        }
    return out


def target_ratios(results: dict[str, Any]) -> dict[str, float]:
    """Each target's measured value over the target (>= 1: met), from the median runs and ratios."""
    ratios: dict[str, float] = {}
    for workload, out in results["workloads"].items():
        if workload == "light":
            two = min(out["local-2"]["analyses_per_s"], out["separate"]["analyses_per_s"])
            ratios["light: two workers >= 10,000 analyses/s"] = two / TARGETS["light_per_s"]
        if workload == "heavy":
            speedup = min(out["local-2"]["vs_process"], out["separate"]["vs_process"])
            ratios["heavy: two workers >= 1.8x one process"] = speedup / TARGETS["heavy_speedup"]
        one = out["local-1"]["vs_process"]
        ratios[f"{workload}: one-worker cluster >= 0.95 of one process"] = one / TARGETS["one_worker_efficiency"]
    return ratios


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workload", choices=[*WORKLOADS, "both"], default="both")
    parser.add_argument("--json", action="store_true")
    parser.add_argument(
        "--rows", choices=["runs", "points"], default="runs", help="runs of one offset in one pass, or point by point"
    )
    parser.add_argument("--repeat", type=int, default=3, help="runs of each mode, interleaved (medians are shown)")
    args = parser.parse_args()
    load = os.getloadavg()
    results: dict[str, Any] = {
        "rows": args.rows,
        "cores": local_workers(),
        "load_before": load,
        "workloads": {},
    }
    address, procs = separate_cluster(2)
    try:
        for workload in [*WORKLOADS] if args.workload == "both" else [args.workload]:
            results["workloads"][workload] = run_workload(
                workload, address, [p.pid for p in procs], args.rows == "runs", max(1, args.repeat)
            )
    finally:
        stop(procs)
    results["load_after"] = os.getloadavg()
    results["targets"] = target_ratios(results)
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(
        f"{results['cores']} cores; load average before {load[0]:.2f}, after {results['load_after'][0]:.2f}; "
        f"rows: {args.rows}; each mode {max(1, args.repeat)} times, interleaved: the median run"
    )
    head = f"{'workload':8} {'engine':9} {'workers':>7} {'points':>7} {'start s':>8} {'sweep s':>8} {'stop s':>7}"
    head += f" {'analyses/s':>11} {'all runs':>20} {'x process':>9}"
    print(f"{head} {'overhead ms/pt':>14} {'efficiency':>10} {'cpu ms/pt client+cluster':>24}")
    for workload, out in results["workloads"].items():
        for name, _c, _w in MODES:
            r = out[name]
            print(
                f"{workload:8} {name:9} {r['workers']:7d} {out['points']:7d} {r['start_s']:8.2f} {r['sweep_s']:8.2f} "
                f"{r['stop_s']:7.2f} "
                f"{r['analyses_per_s']:11.1f} {'/'.join(f'{x:.0f}' for x in r['analyses_per_s_all']):>20} "
                f"{r['vs_process']:9.2f} {r['overhead_ms']:14.3f} {r['efficiency']:10.2f} "
                f"{r['cpu_ms_per_point']['client']:11.3f} + {r['cpu_ms_per_point']['cluster']:.3f}"
            )
    for target, ratio in results["targets"].items():
        print(f"target {target}: {ratio:.2f} of it ({'met' if ratio >= 1 else 'missed'})")


if __name__ == "__main__":
    main()
