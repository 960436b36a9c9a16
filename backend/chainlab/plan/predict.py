"""Predicted latency of a plan, as a distribution usable as a PTTS execution-time profile.

The latency of an iteration is the time from its release (the sources' frame arrival i * period
when the sources are periodic, else the start of its first sub-box) to the end of its last
sub-box, as the thesis measured it ("time stamps before and after its execution", §3.5.1).

Per-sub-box execution times come from `costs.CostSampler` (the box's etp, else its cost with a
small multiplicative jitter, else a kernel estimate): a MODEL until calibration measures them on
the target. The plan's static orders, signals and barriers are then simulated (Monte Carlo,
seeded): pinned plans with `simulate.PinnedProgram` (many runs at once), OS-scheduled plans with
`simulate.simulate_os`. The model has no cache or memory-bandwidth term: it predicts the effect of
the schedule and synchronization, not yet of the memory footprint.

The distribution is binned on an integer ns grid: every sample is rounded UP to the next multiple
of `bin_ns` (default 10 µs), so the ETP never understates a latency.
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass, field, fields
from typing import Any

import numpy as np

from chainlab.plan.costs import CostSampler, MeasuredCostSampler, MeasuredTimes
from chainlab.plan.model import LatencySummary, Plan
from chainlab.plan.simulate import CostFn, PinnedProgram, Timing, simulate_os

DEFAULT_BIN_NS = 10_000
WARMUP = 2
PER_RUN = 8


@dataclass
class LatencyPrediction(LatencySummary):
    """A plan's latency statistics (what Plan.latency keeps) with the distribution they were drawn from."""

    points: list[tuple[int, float]] = field(default_factory=list)  # (ns on the bin grid, probability), sums to 1
    bin_ns: int = DEFAULT_BIN_NS
    p999_ns: int = 0
    iteration_interval_ns: int = 0
    seed: int = 0

    def summary(self) -> LatencySummary:
        """What a plan keeps of it (Plan.latency): the statistics without the distribution."""
        return LatencySummary(**{f.name: getattr(self, f.name) for f in fields(LatencySummary)})

    def to_json(self) -> dict[str, Any]:
        data = asdict(self)
        data["points"] = [[v, p] for v, p in self.points]
        return data


def sampler_for(plan: Plan, jitter: float) -> CostSampler:
    subs = plan.inst.subs
    return CostSampler(
        plan.chain.instances, [s.instance for s in subs], [(s.row_end - s.row_start) / s.height for s in subs], jitter
    )


def source_flags(plan: Plan) -> list[bool]:
    return [not plan.chain.instances[s.instance].inputs for s in plan.inst.subs]


def nominal_timing(plan: Plan, iterations: int, *, period: float | None, sync_ns: float) -> Timing:
    """Mean execution times, deterministic (FIFO for OS-scheduled plans)."""
    mean = np.array([s.mean_cost_ns for s in plan.inst.subs])
    return _timing(plan, mean[:, None], iterations, period=period, sync_ns=sync_ns, record=True, rng=None)


def _timing(
    plan: Plan,
    costs: np.ndarray | None,
    iterations: int,
    *,
    period: float | None,
    sync_ns: float,
    record: bool,
    rng: np.random.Generator | None,
    cost_fn: CostFn | None = None,
) -> Timing:
    if plan.mapping.pinned:
        program = PinnedProgram(
            plan.inst, plan.mapping, plan.signals, barrier=plan.barrier, sync_ns=sync_ns, sources=source_flags(plan)
        )
        return program.run(costs, iterations, period, record=record, cost_fn=cost_fn)
    if costs is None:
        raise ValueError("the OS scheduling simulation takes its costs up front")
    per_iter = np.repeat(costs.T, iterations, axis=0) if costs.shape[1] == 1 else costs.T
    return simulate_os(
        plan.thread_plans,
        plan.signals,
        len(plan.inst.subs),
        per_iter,
        iterations,
        cores=len(plan.cores),
        pinned=False,
        period=period,
        sources=source_flags(plan),
        sync_ns=sync_ns,
        rng=rng,
        policy="fifo" if rng is None else "random",
    )


def iteration_interval(timing: Timing) -> float:
    """Steady-state time between iterations of a free-running (no period) nominal timing."""
    ends = timing.end[:, 0]
    return float((ends[-1] - ends[WARMUP]) / (len(ends) - 1 - WARMUP))


#: Draws of a run's prediction (run/ and deploy/ both): with a calibration, a few thousand left the predicted p99
#: moving by several per cent with the seed alone; bench/plan/bench_prediction_noise.py measures the spread.
RUN_PREDICTION_DRAWS = 10_000


def predict_latency(
    plan: Plan,
    ir: dict[str, Any] | None = None,
    iterations: int | None = None,
    seed: int = 0,
    *,
    bin_ns: int = DEFAULT_BIN_NS,
    jitter: float | None = None,
    nominal: Timing | None = None,
    measured: MeasuredTimes | None = None,
    period_ns: int | None = None,
) -> LatencyPrediction:
    """Monte Carlo latency distribution of the plan (see the module docstring for the model).

    `ir` is accepted for symmetry with the other entry points; the plan already carries the chain.
    `iterations`: number of latency samples (default: the chain's `iterations`, else 1000).
    `nominal`: the plan's nominal timing of WARMUP + PER_RUN iterations if already computed (make_plan).
    `measured`: sub-box times of a calibration run in the plan's order; its iterations are drawn whole instead of
    the model's costs (with the waits measured inside them when `includes_waits`: no sync time is added).
    `period_ns`: the release period the chain runs at when it is not its source's (a run's --period-ns; 0: free
    running); None: the source's.
    """
    del ir
    n_samples = int(iterations or plan.chain.iterations or 1000)
    if n_samples < 1:
        raise ValueError("iterations must be >= 1")
    sync_ns = float(plan.options.sync_ns)
    sampler: CostSampler | MeasuredCostSampler = (
        sampler_for(plan, plan.options.jitter if jitter is None else jitter)
        if measured is None
        else MeasuredCostSampler(measured)
    )
    # measured times that include the waits already hold the signalling delays
    run_sync = 0.0 if measured is not None and measured.includes_waits else sync_ns
    rng = np.random.default_rng(seed)
    release = plan.chain.period_ns if period_ns is None else period_ns
    period = float(release) if release else None
    per_run = PER_RUN
    total_iters = WARMUP + per_run
    runs = math.ceil(n_samples / per_run)
    if plan.mapping.pinned:
        t = _timing(
            plan,
            None,
            total_iters,
            period=period,
            sync_ns=run_sync,
            record=False,
            rng=rng,
            cost_fn=lambda i: sampler.sample(rng, runs),
        )
        lat = (t.end[WARMUP:] - t.release[WARMUP:]).T.reshape(-1)
        engine = "pinned max-plus (vectorized)"
    else:
        chunks = []
        for _ in range(runs):
            costs = sampler.sample(rng, total_iters)
            t = _timing(plan, costs, total_iters, period=period, sync_ns=run_sync, record=False, rng=rng)
            chunks.append(t.end[WARMUP:, 0] - t.release[WARMUP:, 0])
        lat = np.concatenate(chunks)
        engine = "OS scheduling on the core set, random pick among runnable threads (discrete event)"
    lat = lat[:n_samples]
    if nominal is None or nominal.end.shape[0] != total_iters:
        nominal = nominal_timing(plan, total_iters, period=period, sync_ns=sync_ns)
    nominal_ns = round(float(nominal.end[-1, 0] - nominal.release[-1, 0]))
    free_running = nominal if period is None else nominal_timing(plan, total_iters, period=None, sync_ns=sync_ns)
    interval = iteration_interval(free_running)
    binned = np.ceil(np.maximum(lat, 0) / bin_ns).astype(np.int64) * bin_ns
    values, counts = np.unique(binned, return_counts=True)
    probs = counts / counts.sum()
    q = lambda p: math.ceil(float(np.quantile(lat, p, method="higher")))  # noqa: E731
    cost_model = (
        "sub-box times of the calibration run with the waits before them (whole iterations drawn at random)"
        if measured is not None and measured.includes_waits
        else "sub-box times of the calibration run (whole iterations drawn at random)"
        if measured is not None
        else f"sub-box times from box etp, else cost x slice fraction x lognormal jitter (sigma {sampler.jitter:g}), "
        "else a kernel estimate"
    )
    signals = "signal delays as measured" if run_sync != sync_ns else f"signals {sync_ns:g} ns"
    model = f"{engine}; {cost_model}; {signals}; no cache model"
    return LatencyPrediction(
        points=[(int(v), float(p)) for v, p in zip(values, probs)],
        bin_ns=int(bin_ns),
        samples=len(lat),
        mean_ns=float(lat.mean()),
        std_ns=float(lat.std()),
        min_ns=math.floor(lat.min()),
        p50_ns=q(0.5),
        p90_ns=q(0.9),
        p99_ns=q(0.99),
        p999_ns=q(0.999),
        max_ns=math.ceil(lat.max()),
        nominal_ns=nominal_ns,
        period_ns=release or None,
        iteration_interval_ns=round(interval),
        overloaded=bool(period is not None and interval > period * 1.0001),
        seed=seed,
        model=model,
    )
