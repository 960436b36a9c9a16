"""Planner benchmark (its speed targets below): plan synthetic chains with every heuristic and both allocators.

    backend/.venv/bin/python bench/plan/bench_plan.py                 # 100 boxes (< 2 s) and 1,000 boxes (< 30 s)
    backend/.venv/bin/python bench/plan/bench_plan.py --boxes 100 --seed 3 --no-big --json out.json

For each (heuristic, allocator) it prints the wall and CPU time of `make_plan` (the whole flow as
`chainlab plan --json` runs it: instantiation, scheduling, signals, nominal timeline, allocation,
token game and the latency summary), the arena against the lower bound and the sum of all buffers,
the peak active data, the number of signals and the predicted mean latency. CPU time is printed
as well because wall time on a shared machine includes other people's work.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "backend"))

from chainlab.plan import PlanOptions, make_plan
from chainlab.synth import synth_chain_ir

HEURISTICS = ["simple", "barrier", "fixed", "predictable", "reduced"]
MEMORIES = ["simple", "reuse"]
KiB = 1024


def bench_chain(boxes: int, seed: int, threads: int, target_s: float) -> dict:
    ir = synth_chain_ir(boxes, seed, threads=threads)
    rows = []
    print(
        f"\n== {boxes}-box synthetic chain (seed {seed}), {threads} threads; target {target_s:g} s for all "
        f"{len(HEURISTICS) * len(MEMORIES)} plans =="
    )
    print(
        f"{'heuristic':12s} {'memory':6s} {'wall s':>7s} {'cpu s':>7s} {'subs':>5s} "
        f"{'arena KiB':>10s} {'lower KiB':>10s} "
        f"{'sum KiB':>9s} {'arena/lb':>8s} {'peak KiB':>9s} {'signals':>7s} {'mean ms':>8s} {'p99 ms':>8s}"
    )
    for h in HEURISTICS:
        for m in MEMORIES:
            w0, c0 = time.perf_counter(), time.process_time()
            plan = make_plan(ir, "Synth", PlanOptions(heuristic=h, memory=m, seed=seed))
            wall, cpu = time.perf_counter() - w0, time.process_time() - c0
            a = plan.allocation
            lat = plan.latency
            row = {
                "heuristic": h,
                "memory": m,
                "wall_s": round(wall, 4),
                "cpu_s": round(cpu, 4),
                "sub_boxes": len(plan.inst.subs),
                "arena_bytes": a.arena_bytes,
                "lower_bound_bytes": a.lower_bound_bytes,
                "lower_bound_exact": a.lower_bound_exact,
                "sum_bytes": a.sum_bytes,
                "peak_active_bytes": plan.active.peak_bytes,
                "signals": len(plan.signals),
                "latency_mean_ns": round(lat.mean_ns) if lat else None,
                "latency_p99_ns": lat.p99_ns if lat else None,
                "phases_s": plan.timings_s,
            }
            rows.append(row)
            print(
                f"{h:12s} {m:6s} {wall:7.3f} {cpu:7.3f} {len(plan.inst.subs):5d} {a.arena_bytes // KiB:10d} "
                f"{a.lower_bound_bytes // KiB:10d} {a.sum_bytes // KiB:9d} "
                f"{a.arena_bytes / max(1, a.lower_bound_bytes):8.3f} "
                f"{plan.active.peak_bytes // KiB:9d} {len(plan.signals):7d} {lat.mean_ns / 1e6 if lat else 0:8.3f} "
                f"{lat.p99_ns / 1e6 if lat else 0:8.3f}",
                flush=True,
            )
    total_wall = sum(r["wall_s"] for r in rows)
    total_cpu = sum(r["cpu_s"] for r in rows)
    print(
        "time per heuristic (both allocators):  "
        + "  ".join(f"{h} {sum(r['wall_s'] for r in rows if r['heuristic'] == h):.3f} s" for h in HEURISTICS)
    )
    verdict = (
        "OK"
        if total_wall < target_s
        else ("OK on CPU time (wall includes other load)" if total_cpu < target_s else "OVER")
    )
    print(f"total: wall {total_wall:.3f} s, cpu {total_cpu:.3f} s (target < {target_s:g} s): {verdict}")
    return {
        "boxes": boxes,
        "seed": seed,
        "threads": threads,
        "target_s": target_s,
        "total_wall_s": round(total_wall, 3),
        "total_cpu_s": round(total_cpu, 3),
        "rows": rows,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--boxes", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--threads", type=int, default=4)
    parser.add_argument("--big", type=int, default=1000, help="boxes of the large chain")
    parser.add_argument("--no-big", action="store_true")
    parser.add_argument("--json", type=Path, help="write the results as JSON")
    args = parser.parse_args()
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    print(f"python {platform.python_version()} on {platform.machine()}, {os.cpu_count()} CPUs, load average {load:.2f}")
    make_plan(synth_chain_ir(10, 0), "Synth")  # warm up imports
    results = [bench_chain(args.boxes, args.seed, args.threads, 2.0)]
    if not args.no_big:
        results.append(bench_chain(args.big, args.seed, args.threads, 30.0))
    if args.json:
        args.json.write_text(json.dumps({"load_average": load, "results": results}, indent=2))


if __name__ == "__main__":
    main()
