"""Deploy overhead against a warm SSH target (`chainlab deploy`): upload, cached build, start, collect, for
samples/xray.chain over the network-namespace link of the test lab host, excluding the measured run itself.
Target: < 3 s.

    backend/.venv/bin/python bench/deploy/bench_deploy.py [--repeat 5]      (root: it creates the netns lab)

Prints the time per phase of each warm deployment and the ratio of the overhead to the 3 s anchor.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
sys.path[:0] = [str(REPO / "backend"), str(REPO / "backend" / "tests" / "deploy")]

from lab import lab_host  # noqa: E402

from chainlab.run import RunOptions, run_chain  # noqa: E402
from chainlab.run.stats import read_latencies  # noqa: E402

ANCHOR_S = 3.0


def xray_ir(lab) -> dict:
    out = subprocess.run(
        ["node", str(REPO / "language/bin/chainlab.js"), "export", str(REPO / "samples/xray.chain"), "--json"],
        capture_output=True,
        text=True,
        check=True,
    )
    ir = json.loads(out.stdout)
    lab1 = next(t for t in ir["targets"] if t["name"] == "lab1")
    lab1.update(lab.target("lab1", throttle=lab1["throttle"], root=f"{lab.root}/chainlab"))
    return ir


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    ap.add_argument("--iterations", type=int, default=3)
    args = ap.parse_args()
    with lab_host() as lab, tempfile.TemporaryDirectory() as runs:
        os.environ["CHAINLAB_KNOWN_HOSTS"] = str(lab.known_hosts)
        ir = xray_ir(lab)
        options = RunOptions(
            target="lab1", model_file="samples/xray.chain", iterations=args.iterations, runs_root=Path(runs)
        )
        run_chain(ir, "XRay", options)  # warm: uploads and builds once
        totals = []
        print(f"XRay on the lab host {lab.host} (warm, cached build), {args.iterations} measured iterations excluded")
        for i in range(args.repeat):
            dep = run_chain(ir, "XRay", options)
            lat = read_latencies(Path(dep.scenarios[0]["dir"]) / "latencies.csv")
            measured_s = (lat.sum() / 1e9) if lat.size else 0.0
            total = sum(dep.phases_s.values())
            overhead = total - measured_s
            totals.append(overhead)
            print(
                f"  #{i + 1}: overhead {overhead:.3f} s ("
                + ", ".join(f"{k} {v:.3f}" for k, v in dep.phases_s.items())
                + f"; cached build: {dep.cached_build})"
            )
        med = statistics.median(totals)
        print(
            f"deploy overhead median {med:.3f} s = {med / ANCHOR_S:.2f} x the {ANCHOR_S:g} s anchor "
            f"({'met' if med < ANCHOR_S else 'NOT met'})"
        )


if __name__ == "__main__":
    main()
