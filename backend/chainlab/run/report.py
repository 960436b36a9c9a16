"""The report of a run (RunReport, the contract's one reply for run/local and deploy/run, and report.json): each
scenario's measured latency against the prediction, the PTTS systems re-analysed with the measured chain, and
what the numbers point to."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from chainlab.errors import ChainlabError
from chainlab.finite_json import finite_or_null
from chainlab.plan import LatencyPrediction
from chainlab.run.calibration import Calibration
from chainlab.run.diagnosis import diagnose
from chainlab.run.requirements import chain_requirements, judge_measured, judge_predicted
from chainlab.run.session import ScenarioRun
from chainlab.run.stats import (
    ks_distance,
    latency_histogram_ms,
    latency_stats,
    measured_etp,
    pmf_latency_stats,
    pmf_quantile,
    read_latencies,
)
from chainlab.run.trace import read_trace, task_summary

QUANTILES = (50, 90, 99, 99.9)


@dataclass
class RunReport:
    """One run of a chain on a target, as the contract's RunReport (see rpc-run.schema.json)."""

    status: str
    chain: str
    target: str
    kind: str
    out_dir: str
    remote_dir: str = ""
    period_ns: int = 0
    iterations: int = 0
    plan: dict[str, Any] = field(default_factory=dict)
    cached_build: bool = False
    calibrated: bool = False
    calibration: str | None = None
    predicted: dict[str, Any] = field(default_factory=lambda: {"points": [], "stats": {"samples": 0}})
    scenarios: list[dict[str, Any]] = field(default_factory=list)
    checksums_equal: bool = True
    diagnosis: list[str] = field(default_factory=list)
    phases_s: dict[str, float] = field(default_factory=dict)
    preflight: dict[str, Any] = field(default_factory=dict)
    files: list[str] = field(default_factory=list)
    summary: str = ""

    def to_json(self) -> dict[str, Any]:
        """As the contract's RunReport: a statistic that is not defined for this run (NaN, the KS distance of an
        empty sample, say) is null, never a bare NaN, which no JSON reader reads (the reply, report.json)."""
        data: dict[str, Any] = finite_or_null(asdict(self))
        return data


def overloaded(lat: np.ndarray, period_ns: int | None) -> bool:
    """A chain released every period that cannot keep up builds a backlog: its latency grows through the run.
    Growth of more than one period between the first and the last tenth of the iterations says so."""
    if not period_ns or lat.size < 20:
        return False
    tenth = lat.size // 10
    return float(np.median(lat[-tenth:]) - np.median(lat[:tenth])) > period_ns


def _ptts_with(ir: dict[str, Any], chain: str, counts: list[tuple[int, int]]) -> list[dict[str, Any]]:
    """Every PTTS chain whose component runs this box chain, analysed exactly with the measured ETP."""
    from chainlab.ptts.api import analyze

    total = sum(n for _, n in counts)
    etp = [(v, n / total) for v, n in counts]
    out = []
    for p in ir.get("ptts", []):
        comp = next((c for c in p["components"] if (c.get("etp") or {}).get("chain") == chain), None)
        if comp is None:
            continue
        if etp and comp.get("period_ns") and max(v for v, _ in etp) > comp["period_ns"]:
            # an overloaded run's backlog is no execution-time profile; analysing it would also take too long
            out.append(
                {"ptts": p["name"], "error": f"the measured latency exceeds {comp['name']}'s period: not analysed"}
            )
            continue
        grid = int(p.get("resolution_ns") or 1_000_000)  # measured ns values onto the analysis grid (rounded up)
        on_grid: dict[int, float] = {}
        for v, q in etp:
            on_grid[-(-v // grid) * grid] = on_grid.get(-(-v // grid) * grid, 0.0) + q
        points = sorted(on_grid.items())

        def resolve(name: str, points: list[tuple[int, float]] = points) -> list[tuple[int, float]]:
            return points if name == chain else []

        try:
            r = analyze(p, resolve_chain=resolve, max_trees=100_000, max_operations=20_000_000)
            out.append(
                {
                    "ptts": p["name"],
                    "mean_ms": r["mean_ms"],
                    "p99_ms": r["percentiles"]["99"],
                    "max_ms": r["max_ms"],
                    "loss": r["loss_probability"],
                    "requirements": r["requirements"],
                }
            )
        except ChainlabError as e:
            out.append({"ptts": p["name"], "error": str(e)})
    return out


def scenario_result(
    s: ScenarioRun, ir: dict[str, Any], chain: str, predicted: list[tuple[int, float]], period_ns: int, threads: Any
) -> dict[str, Any]:
    """One scenario as the contract's ScenarioResult: its statistics against the prediction."""
    csv = Path(s.local_dir) / "latencies.csv"
    lat = read_latencies(csv) if csv.exists() else np.zeros(0, dtype=np.int64)
    stats = latency_stats(lat)
    row: dict[str, Any] = {
        "scenario": s.scenario,
        "dir": s.local_dir,
        "status": s.status,
        "completed": s.completed,
        "iterations": s.iterations,
        "checksum": s.checksum,
        "measured": stats,
        "be_bytes_per_s": s.be_bytes_per_s,
        "throttle": s.throttle,
        "error": s.error,
        "overloaded": overloaded(lat, period_ns),
    }
    if stats.get("samples"):
        row["ks"] = ks_distance(lat, predicted) if predicted else None
        row["quantiles_ms"] = {
            str(q): {
                "measured": float(np.percentile(lat, q)) / 1e6,
                "predicted": pmf_quantile(predicted, q / 100) / 1e6 if predicted else None,
            }
            for q in QUANTILES
        }
        row["etp"] = measured_etp(lat)  # [ns, count]: what the editor writes as `etp pmf { … }`
        row["histogram_ms"] = latency_histogram_ms(lat)
        row["ptts"] = _ptts_with(ir, chain, row["etp"])
        judged = judge_measured(chain_requirements(ir, chain), lat)
        if judged:
            row["requirements"] = judged
    trace = read_trace(Path(s.local_dir) / "tasks.csv")
    if trace is not None:
        row["tasks"] = task_summary(trace, threads)
    return row


def _calibrated_p50(cal: Calibration | None) -> dict[str, float]:
    """Each sub-box's median time in the calibration run the prediction used (none without one)."""
    if cal is None or not cal.durations_ns:
        return {}
    medians = np.median(np.asarray(cal.durations_ns, dtype=float), axis=0)
    return dict(zip(cal.sub_boxes, (float(m) for m in medians)))


def fill_results(
    report: RunReport,
    runs: list[ScenarioRun],
    ir: dict[str, Any],
    prediction: LatencyPrediction,
    calibration: Calibration | None,
    threads: dict[str, int],
) -> None:
    """The report's prediction, scenarios, status and diagnosis from the scenarios that ran."""
    points = [(int(v), float(q)) for v, q in prediction.points]
    report.predicted = {"points": points, "stats": pmf_latency_stats(points, prediction.samples)}
    judged = judge_predicted(chain_requirements(ir, report.chain), points)
    if judged:
        report.predicted["requirements"] = judged
    rows = [scenario_result(s, ir, report.chain, points, report.period_ns, threads) for s in runs]
    base = next((r for r in rows if r["scenario"] == "baseline" and r["measured"].get("samples")), None)
    for row in rows:
        if base and row["measured"].get("samples"):
            row["increase_pct"] = 100 * (row["measured"]["mean_ns"] / base["measured"]["mean_ns"] - 1)
    report.scenarios = rows
    report.checksums_equal = len({r["checksum"] for r in rows if r["checksum"]}) <= 1
    report.status = next((r["status"] for r in rows if r["status"] != "ok"), "ok")
    report.diagnosis = diagnose(report.to_json(), calibration is not None, _calibrated_p50(calibration))
