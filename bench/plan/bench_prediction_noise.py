"""How much a run's predicted p99 moves with the Monte Carlo seed alone (target: under 1 % of the p99).

    backend/.venv/bin/python bench/plan/bench_prediction_noise.py                 # fig3-5, 300 calibrated iterations
    backend/.venv/bin/python bench/plan/bench_prediction_noise.py --seeds 20 --calibrate 500

It calibrates the thesis' Figure 3.5 chain on this machine once (as *Calibrate and run* does: every sub-box timed
as the chain runs), then predicts the run from that calibration with SEEDS seeds for several numbers of draws, and
prints the spread of the predicted p99 across the seeds ((max - min) / median) and the time of one prediction. The
anchors: the issue measured 88-111 ms (about 23 %) at 2,000 draws on a 16-core machine and 104.9-109.6 ms (about
4 %) at 10,000; a run's prediction is drawn with RUN_PREDICTION_DRAWS.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

repo = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(repo / "backend"))

from chainlab.plan import RUN_PREDICTION_DRAWS, PlanOptions, plan_for_cores, predict_latency  # noqa: E402
from chainlab.run import RunOptions, run_chain  # noqa: E402
from chainlab.run.calibration import apply_calibration, load_calibration, measured_costs  # noqa: E402

TARGET_SPREAD = 0.01  # the p99's own spread across seeds, as a fraction of it


def exported_ir(model: Path) -> dict:
    cli = repo / "language" / "bin" / "chainlab.js"
    return json.loads(subprocess.run(["node", str(cli), "export", str(model)], check=True, capture_output=True).stdout)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=12)
    parser.add_argument("--calibrate", type=int, default=300, help="calibration iterations")
    args = parser.parse_args()
    ir = exported_ir(repo / "samples" / "chains" / "fig3-5.chain")
    with tempfile.TemporaryDirectory() as tmp:
        t0 = time.perf_counter()
        model = Path(tmp) / "fig3-5.chain"  # the calibration is kept beside it
        options = RunOptions(iterations=20, calibrate=args.calibrate, out_dir=Path(tmp) / "run", model_file=str(model))
        run_chain(ir, "Fig35", options)
        print(f"calibration of Fig35 on here: {args.calibrate} iterations in {time.perf_counter() - t0:.1f} s")
        cal = load_calibration(Path(tmp) / ".chainlab" / "calibration" / "Fig35@here.json", "Fig35", "here")
    assert cal is not None
    cores = next(t["rt_cores"] for t in ir["targets"] if t["name"] == "here")  # where the run was calibrated
    plan = plan_for_cores(apply_calibration(ir, cal), "Fig35", cores, PlanOptions())
    period_ns = plan.chain.period_ns or 0
    measured = measured_costs(cal, plan)
    if measured is None:
        sys.exit("the calibration did not match the plan: nothing to measure")
    print(f"{'draws':>7s} {'p99 min ms':>10s} {'p99 max ms':>10s} {'spread':>8s} {'vs 1 %':>7s} {'ms/prediction':>14s}")
    for draws in (1_000, 2_000, RUN_PREDICTION_DRAWS, 4 * RUN_PREDICTION_DRAWS):
        p99s, times = [], []
        for seed in range(args.seeds):
            t = time.perf_counter()
            p = predict_latency(plan, iterations=draws, seed=seed, measured=measured, period_ns=period_ns)
            times.append(time.perf_counter() - t)
            p99s.append(p.p99_ns / 1e6)
        spread = (max(p99s) - min(p99s)) / statistics.median(p99s)
        mark = " <- runs" if draws == RUN_PREDICTION_DRAWS else ""
        print(
            f"{draws:7d} {min(p99s):10.2f} {max(p99s):10.2f} {spread:8.1%} {spread / TARGET_SPREAD:6.1f}x "
            f"{statistics.median(times) * 1e3:14.1f}{mark}"
        )


if __name__ == "__main__":
    main()
