#!/usr/bin/env python3
"""Sampler overhead and crossing-to-suspension delay of chainlab-throttle (its speed and effect).

Usage: python3 bench/throttle/bench_sampler.py [BUILD_DIR] [--seconds N]
  BUILD_DIR holds throttle/chainlab-throttle and throttle/chainlab-hog (default runtime-c/build).
Runs the hog on core 1, S = 100 us, T = 900 us, for each mechanism with
  periodic sampling (the thesis: a sample every S, the sampler pinned to core 0), and
  overflow sampling (MemGuard-like: the hog notifies when a window of S reached the threshold; the
  daemon sleeps otherwise; with fifo-hold the handler holds its own core).
Targets: daemon CPU < 2 % of a core per monitored core, crossing -> suspension p99 <= 1 sample interval.
Periodic delay = the sample interval containing the crossing + the time to apply (an upper bound);
overflow delay = measured from the hog's crossing time stamp to the suspension in force.
Prints a JSON summary and a table with ratios to the targets.
"""

from __future__ import annotations

import csv
import itertools
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


TARGET_CPU_PCT, TARGET_DELAY_US = 2.0, 100.0


def run(
    th: Path, hog: Path, tmp: Path, seconds: float, mech: str, threshold: str, sampling: str = "periodic"
) -> dict[str, object]:
    shm, trace = tmp / f"hog-{mech}-{sampling}.shm", tmp / f"trace-{mech}-{sampling}.csv"
    hogp = subprocess.Popen(
        ["taskset", "-c", "1", str(hog), f"--shm={shm}", "--size=1048576"], stdout=subprocess.DEVNULL
    )
    try:
        for _ in range(200):
            if shm.exists():
                break
            time.sleep(0.01)
        args = [
            str(th),
            "source=coop",
            f"shm={shm}",
            "cores=1",
            "sample=100us",
            "suspend=900us",
            f"read_threshold={threshold}",
            f"mechanism={mech}",
            "sampler_cpu=0",
            f"duration={int(seconds * 1000)}ms",
            f"trace={trace}",
            "trace_cap=200000",
            f"sampling={sampling}",
        ]
        if mech == "sigstop":
            args.append(f"pids={hogp.pid}")
        if mech == "freeze":
            args += [
                f"pids={hogp.pid}",
                f"cgroup=/sys/fs/cgroup/unified/chainlab-bench-{os.getpid()}",
                "cgroup_create=true",
            ]
        out = subprocess.run(args, capture_output=True, text=True, timeout=seconds + 30)
        if out.returncode:
            return {"mechanism": mech, "error": out.stderr.strip()}
        summary = json.loads(out.stdout)
    finally:
        hogp.terminate()
        hogp.wait(timeout=10)
    rows = list(csv.DictReader(trace.open()))
    ts = [int(r["t_ns"]) for r in rows]
    intervals = [(b - a) / 1e3 for a, b in itertools.pairwise(ts)]
    act = [int(r["act_ns"]) / 1e3 for r in rows if r["change"] == "1"]
    # a crossing inside sample k is seen at the end of sample k: delay ≤ interval + time to apply
    delay = [iv + int(r["act_ns"]) / 1e3 for iv, r in zip(intervals, rows[1:]) if r["change"] == "1"]
    core0 = summary["cores"][0]
    if sampling == "overflow":  # measured per crossing by the daemon
        d = core0.get("crossing_delay_ns")
        delay = [d["p50"] / 1e3, d["p99"] / 1e3, d["max"] / 1e3] if d else []
    elif "hold_delay_ns" in core0:  # fifo-hold: the core is held when the thread spins, not when it was asked
        delay = [iv + core0["hold_delay_ns"]["p50"] / 1e3 for iv, r in zip(intervals, rows[1:]) if r["change"] == "1"]
    core = summary["cores"][0]
    crossing = (
        {"p50": delay[0], "p99": delay[1], "max": delay[2]}
        if sampling == "overflow" and delay
        else {"p50": pct(delay, 50), "p99": pct(delay, 99), "max": max(delay) if delay else None}
    )
    return {
        "mechanism": mech,
        "sampling": sampling,
        "threshold": threshold,
        "rounds": summary["rounds"],
        # the daemon's CPU: detecting crossings (the sampler) + suspending/resuming (sigstop, freeze with overflow
        # sampling; periodic sampling does both in its one thread); fifo-hold's spinning is the suspension itself
        "sampler_cpu_pct_per_core": round(
            100 * (summary["sampler_cpu_ns"] + summary.get("mechanism_cpu_ns", 0)) / summary["wall_ns"], 2
        ),
        "detection_cpu_pct": round(100 * summary["sampler_cpu_ns"] / summary["wall_ns"], 2),
        "interval_us": {
            "mean": round(statistics.fmean(intervals), 1),
            "p50": pct(intervals, 50),
            "p99": pct(intervals, 99),
            "max": max(intervals),
        }
        if intervals
        else None,
        "suspensions": core["suspensions"],
        "suspended_fraction": round(core["suspended_ns"] / summary["wall_ns"], 3),
        "apply_us": {"p50": pct(act, 50), "p99": pct(act, 99), "max": max(act) if act else None},
        "crossing_to_suspension_us": crossing,
        # fifo-hold: from the sampler's request to the hold thread spinning on the core
        "hold_delay_us": {k: v / 1e3 for k, v in core["hold_delay_ns"].items() if k != "n"}
        if "hold_delay_ns" in core
        else None,
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
        results = []
        for sampling in ("periodic", "overflow"):
            results.append(
                run(th, hog, Path(d), seconds, "none", "1000GB/s", sampling)
            )  # watching only, never crossing
            for mech in ("sigstop", "freeze", "fifo-hold"):
                results.append(run(th, hog, Path(d), seconds, mech, "1GB/s", sampling))
    print(
        json.dumps(
            {"sample_us": 100, "timer_floor": bare, "seconds": seconds, "cpus": os.cpu_count(), "results": results},
            indent=1,
        )
    )
    print(
        f"\n{'sampling':9} {'mechanism':9} {'threshold':9} {'CPU %':>7} "
        f"{'x target':>8} {'detect %':>8} {'p99 us':>8} {'x target':>8} {'suspended':>9}"
    )
    for r in results:
        if "error" in r:
            print(f"{r.get('sampling', ''):9} {r['mechanism']:9} error: {r['error']}")
            continue
        p99 = r["crossing_to_suspension_us"]["p99"]
        p99_text = (
            f"{p99:8.1f} {p99 / TARGET_DELAY_US:8.2f}"
            if isinstance(p99, (int, float)) and p99 == p99
            else f"{'-':>8} {'-':>8}"
        )
        print(
            f"{r['sampling']:9} {r['mechanism']:9} {r['threshold']:9} {r['sampler_cpu_pct_per_core']:7.2f} "
            f"{r['sampler_cpu_pct_per_core'] / TARGET_CPU_PCT:8.2f} {r['detection_cpu_pct']:8.2f} "
            f"{p99_text} {r['suspended_fraction']:9.3f}"
        )
    print(
        "CPU % = the daemon (detection + suspending/resuming; "
        "fifo-hold's holding is the suspension itself); detect % = the sampler alone"
    )
    print(
        f"targets: CPU < {TARGET_CPU_PCT} % per monitored core, crossing -> suspension p99 <= {TARGET_DELAY_US} us; "
        f"timer floor of this machine (a bare 100 us timer loop): {bare}"
    )


if __name__ == "__main__":
    main()
