#!/usr/bin/env python3
"""Sampler overhead and crossing-to-suspension delay of chainlab-throttle (issue 5, "Speed and effect").

Usage: python3 bench/throttle/bench_sampler.py [BUILD_DIR] [--seconds N]
  BUILD_DIR holds throttle/chainlab-throttle and throttle/chainlab-hog (default runtime-c/build).
Runs the hog on core 1, the sampler pinned to core 0, S = 100 us. Prints a JSON summary.
"""
from __future__ import annotations

import csv
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    s = sorted(values)
    return s[min(len(s) - 1, int(p / 100 * len(s)))]


def run(th: Path, hog: Path, tmp: Path, seconds: float, mech: str, threshold: str) -> dict[str, object]:
    shm, trace = tmp / f"hog-{mech}.shm", tmp / f"trace-{mech}.csv"
    hogp = subprocess.Popen(["taskset", "-c", "1", str(hog), f"--shm={shm}", "--size=1048576"], stdout=subprocess.DEVNULL)
    try:
        for _ in range(200):
            if shm.exists():
                break
            time.sleep(0.01)
        args = [str(th), "source=coop", f"shm={shm}", "cores=1", "sample=100us", "suspend=900us",
                f"read_threshold={threshold}", f"mechanism={mech}", "sampler_cpu=0", f"duration={int(seconds * 1000)}ms",
                f"trace={trace}", "trace_cap=200000"]
        if mech == "sigstop":
            args.append(f"pids={hogp.pid}")
        if mech == "freeze":
            args += [f"pids={hogp.pid}", f"cgroup=/sys/fs/cgroup/unified/chainlab-bench-{os.getpid()}", "cgroup_create=true"]
        out = subprocess.run(args, capture_output=True, text=True, timeout=seconds + 30)
        if out.returncode:
            return {"mechanism": mech, "error": out.stderr.strip()}
        summary = json.loads(out.stdout)
    finally:
        hogp.terminate()
        hogp.wait(timeout=10)
    rows = list(csv.DictReader(trace.open()))
    ts = [int(r["t_ns"]) for r in rows]
    intervals = [(b - a) / 1e3 for a, b in zip(ts, ts[1:])]
    act = [int(r["act_ns"]) / 1e3 for r in rows if r["change"] == "1"]
    # a crossing inside sample k is seen at the end of sample k: delay ≤ interval + time to apply
    delay = [iv + int(r["act_ns"]) / 1e3 for iv, r in zip(intervals, rows[1:]) if r["change"] == "1"]
    core0 = summary["cores"][0]
    if "hold_delay_ns" in core0:  # fifo-hold: the core is held when the thread spins, not when it was asked
        delay = [iv + core0["hold_delay_ns"]["p50"] / 1e3 for iv, r in zip(intervals, rows[1:]) if r["change"] == "1"]
    core = summary["cores"][0]
    return {
        "mechanism": mech, "threshold": threshold, "rounds": summary["rounds"],
        "sampler_cpu_pct_per_core": round(100 * summary["sampler_cpu_ns"] / summary["wall_ns"], 2),
        "interval_us": {"mean": round(statistics.fmean(intervals), 1), "p50": pct(intervals, 50), "p99": pct(intervals, 99),
                        "max": max(intervals)},
        "suspensions": core["suspensions"], "suspended_fraction": round(core["suspended_ns"] / summary["wall_ns"], 3),
        "apply_us": {"p50": pct(act, 50), "p99": pct(act, 99), "max": max(act) if act else None},
        "crossing_to_suspension_us": {"p50": pct(delay, 50), "p99": pct(delay, 99), "max": max(delay) if delay else None},
        # fifo-hold: from the sampler's request to the hold thread spinning on the core
        "hold_delay_us": {k: v / 1e3 for k, v in core["hold_delay_ns"].items() if k != "n"} if "hold_delay_ns" in core else None,
    }


def main() -> None:
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    seconds = float(sys.argv[sys.argv.index("--seconds") + 1]) if "--seconds" in sys.argv else 2.0
    if "--seconds" in sys.argv:
        args = [a for a in args if a != sys.argv[sys.argv.index("--seconds") + 1]]
    build = Path(args[0] if args else "runtime-c/build")
    th, hog = build / "throttle/chainlab-throttle", build / "throttle/chainlab-hog"
    with tempfile.TemporaryDirectory(prefix="chainlab-bench-") as d:
        floor = Path(d) / "timer_floor"
        subprocess.run(["cc", "-O2", "-o", str(floor), str(Path(__file__).with_name("timer_floor.c"))], check=True)
        bare = subprocess.run([str(floor)], capture_output=True, text=True, check=True).stdout.strip()
        results = [run(th, hog, Path(d), seconds, "none", "1000GB/s")]        # sampling only
        for mech in ("sigstop", "freeze", "fifo-hold"):
            results.append(run(th, hog, Path(d), seconds, mech, "1GB/s"))
    print(json.dumps({"sample_us": 100, "timer_floor": bare, "seconds": seconds, "cpus": os.cpu_count(), "results": results}, indent=1))


if __name__ == "__main__":
    main()
