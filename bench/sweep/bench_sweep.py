"""Bench of the sweep engine (chainlab.sweep): exact PTTS analyses per second in one process, on a LocalCluster of
this machine, and on a Dask scheduler with workers started as separate processes (not a test).

Run: backend/.venv/bin/python bench/sweep/bench_sweep.py [--workers N] [--workload light|heavy|both] [--json]

Each workload is an `explore` grid of the case study's ConfigE (thesis Table 5.3): offsets of GPU and Wall times
candidate periods of Wall, every point one exact analysis (chainlab.ptts.explore.analyse_point, the function the
CLI's sweeps run). `light` keeps Wall near 16.6 ms (short hyper-periods, ~0.3 ms a point); `heavy` adds 16.67 ms
(a long hyper-period, eq. 5.15 ~1e6, several ms a point). Throughput counts the sweep only; the start of the
cluster (LocalCluster: its processes; separate: connecting) is printed apart. Scaling efficiency is
throughput / (one-process throughput x workers). The rows are checked equal in all three modes.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "backend"))
sys.path.insert(0, str(ROOT / "backend" / "tests" / "ptts"))

from ptts_cases import MS, config  # noqa: E402

from chainlab.ptts.explore import Shared, _resolved_ir, analyse_point, point_key  # noqa: E402
from chainlab.sweep.cluster import local_workers  # noqa: E402
from chainlab.sweep.engine import run_sweep  # noqa: E402

WORKLOADS = {
    "light": {"step_ns": MS // 4, "periods": [16_600_000, 16_700_000]},
    "heavy": {"step_ns": MS // 2, "periods": [16_600_000, 16_670_000]},
}


def grid(workload: str) -> tuple[Shared, list[dict[str, Any]]]:
    spec = WORKLOADS[workload]
    ir = _resolved_ir(config("e"), None)
    names = [c["name"] for c in ir["components"]]  # Sensor, GPU, Wall
    gpu, wall = names[1], names[2]
    points = []
    for period in spec["periods"]:
        for a in range(0, 16_600_000, spec["step_ns"]):
            for b in range(0, period, spec["step_ns"]):
                points.append({"offsets_ns": {gpu: a, wall: b}, "periods_ns": {wall: period}})
    return Shared(ir, 160 * MS, "<=", 10**12), points


def timed(shared: Shared, points: list[dict[str, Any]], cluster: str) -> dict[str, Any]:
    marks: dict[str, float] = {}
    engines = []

    def on_engine(engine: Any) -> None:
        marks["engine"] = time.perf_counter()
        engines.append(engine)

    started = time.perf_counter()
    rows = run_sweep(analyse_point, shared, points, key=point_key, cluster=cluster, on_engine=on_engine)
    ended = time.perf_counter()
    # the engine runs the first point here before it opens the cluster (fail fast, batch sizing): the start is
    # from the call to on_engine minus that one point's time
    begin = marks.get("engine", started)
    return {
        "rows": rows,
        "engine": engines[0].engine if engines else "process",
        "workers": engines[0].workers if engines else 1,
        "start_s": begin - started,
        "sweep_s": ended - begin,
        "per_s": (len(points) - 1) / (ended - begin) if cluster != "process" else len(points) / (ended - started),
    }


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def separate_cluster(workers: int) -> tuple[str, list[subprocess.Popen[bytes]]]:
    dask = Path(sys.executable).parent / "dask"
    port = free_port()
    address = f"tcp://127.0.0.1:{port}"
    quiet: dict[str, Any] = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
    procs = [subprocess.Popen([str(dask), "scheduler", "--host", "127.0.0.1", "--port", str(port)], **quiet)]
    for _ in range(workers):
        procs.append(
            subprocess.Popen([str(dask), "worker", address, "--nthreads", "1", "--host", "127.0.0.1"], **quiet)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--workers", type=int, default=local_workers(), help="workers of the separate cluster")
    parser.add_argument("--workload", choices=[*WORKLOADS, "both"], default="both")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    load = os.getloadavg()
    results: dict[str, Any] = {"cores": local_workers(), "load_before": load, "workloads": {}}
    address, procs = separate_cluster(args.workers)
    try:
        for workload in [*WORKLOADS] if args.workload == "both" else [args.workload]:
            shared, points = grid(workload)
            here = timed(shared, points, "process")
            local = timed(shared, points, "local")
            remote = timed(shared, points, address)
            assert local["rows"] == here["rows"] and remote["rows"] == here["rows"], "rows differ between engines"
            out = {"points": len(points)}
            for name, r in (("process", here), ("local", local), ("separate", remote)):
                out[name] = {
                    "workers": r["workers"],
                    "analyses_per_s": r["per_s"],
                    "start_s": r["start_s"],
                    "sweep_s": r["sweep_s"],
                    "efficiency": r["per_s"] / (here["per_s"] * r["workers"]),
                }
            results["workloads"][workload] = out
    finally:
        stop(procs)
    results["load_after"] = os.getloadavg()
    if args.json:
        print(json.dumps(results, indent=2))
        return
    print(f"{results['cores']} cores; load average before {load[0]:.2f}, after {results['load_after'][0]:.2f}")
    print(
        f"{'workload':8} {'engine':9} {'workers':>7} {'points':>7} {'start s':>8} {'sweep s':>8} {'analyses/s':>11} "
        f"{'efficiency':>10}"
    )
    for workload, out in results["workloads"].items():
        for name in ("process", "local", "separate"):
            r = out[name]
            print(
                f"{workload:8} {name:9} {r['workers']:7d} {out['points']:7d} {r['start_s']:8.2f} {r['sweep_s']:8.2f} "
                f"{r['analyses_per_s']:11.1f} {r['efficiency']:10.2f}"
            )


if __name__ == "__main__":
    main()
