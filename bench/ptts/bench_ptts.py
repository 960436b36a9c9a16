"""Bench of the exact PTTS analysis against the thesis' Tables 5.2 and 5.4 (not a test).

Run: backend/.venv/bin/python bench/ptts/bench_ptts.py [--quick] [--json]

For configs a, b, c (Table 5.1; c with C2 = 16.67 ms, the printed 16.77 is a typo), the case
study d, e, f (Table 5.3) and the thesis example (Fig. 5.2) it prints the tree count, the
analysis time (median of several runs), the peak traced memory, the ratio to the thesis' time,
and the time of a 10,000-iteration simulation (vectorised and discrete-event engines) divided
by the exact analysis time. It also times the per-root enumeration (every tree as numpy rows)
for comparison with the phase-class (quotient) method that `analyze` picks.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "backend"))
sys.path.insert(0, str(ROOT / "backend" / "tests" / "ptts"))

from ptts_cases import config, fig52  # noqa: E402

from chainlab.ptts import analyze, simulate  # noqa: E402
from chainlab.ptts.api import prepare  # noqa: E402
from chainlab.ptts.exact import exact_latency  # noqa: E402
from chainlab.ptts.loss import partner_shifts, per_root_loss  # noqa: E402

THESIS_MS = {"a": 36, "b": 3041, "c": 297620, "d": 30, "e": 30, "f": 30}


def median_time(fn, runs: int) -> float:
    fn()  # warm-up (imports, caches)
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t)
    return statistics.median(times)


def peak_memory(fn) -> int:
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def per_root_time(ir) -> float:
    p = prepare(ir)
    t = time.perf_counter()
    exact_latency(p.chain, p.hops)
    shifts = partner_shifts(p.chain)
    if shifts:
        per_root_loss(p.chain, p.hops, shifts)
    return time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--quick", action="store_true", help="fewer runs, skip the event-engine simulations")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    runs = 3 if args.quick else 9
    cases = [(k, config(k)) for k in "abcdef"] + [("thesis", fig52())]
    rows = []
    for key, ir in cases:
        res = analyze(ir)
        t_exact = median_time(lambda ir=ir: analyze(ir), runs)
        mem = peak_memory(lambda ir=ir: analyze(ir))
        t_root = per_root_time(ir)
        sim_v = median_time(
            lambda ir=ir: simulate(ir, iterations=10_000, seed=1, compare_exact=False), max(1, runs // 3)
        )
        sim_e = None
        if not args.quick:
            t = time.perf_counter()
            simulate(ir, iterations=10_000, seed=1, mode="trace", engine="event", compare_exact=False)
            sim_e = time.perf_counter() - t
        rows.append(
            {
                "case": key,
                "trees": res["roots"],
                "method": res["trees"]["method"],
                "analysis_ms": t_exact * 1e3,
                "peak_mib": mem / 2**20,
                "thesis_ms": THESIS_MS.get(key),
                "speedup_vs_thesis": (THESIS_MS[key] / (t_exact * 1e3)) if key in THESIS_MS else None,
                "per_root_enumeration_ms": t_root * 1e3,
                "sim10k_vector_ms": sim_v * 1e3,
                "sim10k_event_trace_ms": sim_e * 1e3 if sim_e is not None else None,
                "sim_vector_over_exact": sim_v / t_exact,
                "sim_event_over_exact": (sim_e / t_exact) if sim_e is not None else None,
                "loss": res["loss_probability"],
                "mean_ms": res["mean_ms"],
            }
        )
    if args.json:
        print(json.dumps(rows, indent=1))
        return
    head = (
        f"{'case':7} {'trees':>8} {'method':8} {'exact ms':>9} {'peak MiB':>8} {'thesis ms':>9} {'x thesis':>9} "
        f"{'per-root ms':>11} {'sim10k vec':>10} {'sim10k evt':>10} "
        f"{'vec/exact':>9} {'evt/exact':>9}"
    )
    print(head)
    print("-" * len(head))
    for r in rows:
        fmt = lambda v, f: f.format(v) if v is not None else "-"  # noqa: E731
        print(
            f"{r['case']:7} {r['trees']:>8} {r['method']:8} {r['analysis_ms']:9.2f} {r['peak_mib']:8.2f} "
            f"{fmt(r['thesis_ms'], '{:9d}'):>9} {fmt(r['speedup_vs_thesis'], '{:9.0f}'):>9} "
            f"{r['per_root_enumeration_ms']:11.1f} "
            f"{r['sim10k_vector_ms']:10.1f} {fmt(r['sim10k_event_trace_ms'], '{:10.0f}'):>10} "
            f"{r['sim_vector_over_exact']:9.1f} {fmt(r['sim_event_over_exact'], '{:9.0f}'):>9}"
        )
    print(
        "\nexact: analyze() (distribution, statistics, loss, loss pairs); per-root: every latency tree as numpy rows;"
    )
    print(
        "sim10k vec: 10,000 independent roots, vectorised physics; "
        "sim10k evt: 10,000 consecutive roots, discrete-event heap."
    )


if __name__ == "__main__":
    main()
