"""Papers 002/003 Tables I/II on this machine: the eight heuristic/allocator rows for samples/xray.chain
and one synthetic chain, measured with the generated C programs (all cores of this machine).

    backend/.venv/bin/python bench/runtime/table.py [--iterations 10000] [--chains xray,synth] [--out DIR]

Prints x̄, σ, p99, max and the arena per row, with ratios to the simple/naive row, and checks that
every row computes the same checksum.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "backend"))

from chainlab.experiment.plans import PLANS  # noqa: E402
from chainlab.plan import PlanOptions  # noqa: E402
from chainlab.run import RunOptions, run_chain  # noqa: E402
from chainlab.synth import synth_chain_ir  # noqa: E402

ROWS = list(PLANS)  # the papers' eight rows (heuristic, allocator)


def chain_ir(which: str) -> tuple[dict, str]:
    if which == "xray":
        out = subprocess.run(
            ["node", str(REPO / "language/bin/chainlab.js"), "export", str(REPO / "samples/xray.chain"), "--json"],
            capture_output=True,
            text=True,
            check=True,
        )
        return json.loads(out.stdout), "XRay"
    ir = synth_chain_ir(40, 1)
    return ir, ir["chains"][0]["name"]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--iterations", type=int, default=10_000)
    ap.add_argument("--chains", default="xray,synth")
    ap.add_argument("--out", default="/tmp/chainlab-bench")
    ap.add_argument("--fifo", type=int, default=0, help="SCHED_FIFO priority of the chain's threads (0: normal)")
    ap.add_argument("--rows", default="", help="only these rows, e.g. simple/simple,reduced/reuse")
    ap.add_argument("--period-ms", type=float, default=None, help="release period (default: the chain's; synth: 40 ms)")
    args = ap.parse_args()
    threads = os.cpu_count() or 2
    for which in args.chains.split(","):
        ir, chain = chain_ir(which)
        period = int(args.period_ms * 1e6) if args.period_ms is not None else (None if which == "xray" else 40_000_000)
        if period is None:
            source = "released every chain period"
        elif period == 0:
            source = "free-running (next iteration starts when its first thread is free)"
        else:
            source = f"released every {period / 1e6:g} ms"
        print(
            f"\n{chain} ({which}), {threads} threads on cores 0..{threads - 1}, "
            f"{args.iterations} iterations, source {source}"
        )
        print(
            f"{'heuristic/memory':22} {'mean ms':>9} {'sigma ms':>9} {'p99 ms':>9} {'max ms':>9} {'arena MiB':>10} "
            f"{'mean/s':>7} {'sigma/s':>8} {'mem/s':>6}  checksum"
        )
        base = None
        sums = set()
        for h, m in ROWS:
            if args.rows and f"{h}/{m}" not in args.rows.split(","):
                continue
            options = RunOptions(
                plan=PlanOptions(heuristic=h, memory=m, threads=threads),
                iterations=args.iterations,
                out_dir=Path(args.out) / which / f"{h}-{m}",
                period_ns=period,
                chain_args=("--fifo", str(args.fifo)) if args.fifo else (),
            )
            r = run_chain(ir, chain, options)
            [row] = r.scenarios
            x, arena = row["measured"], r.plan["arena_bytes"]
            if base is None:
                base = (x["mean_ns"], x["std_ns"], arena)
            sums.add(row["checksum"])
            name = f"{h}/{'naive' if m == 'simple' else m}"
            print(
                f"{name:22} {x['mean_ns'] / 1e6:9.3f} {x['std_ns'] / 1e6:9.3f} {x['p99_ns'] / 1e6:9.3f} "
                f"{x['max_ns'] / 1e6:9.3f} "
                f"{arena / 2**20:10.1f} {x['mean_ns'] / base[0]:7.2f} {x['std_ns'] / base[1]:8.2f} "
                f"{arena / base[2]:6.2f}  {row['checksum']}",
                flush=True,
            )
        print("checksums identical across rows:", len(sums) == 1)


if __name__ == "__main__":
    main()
