"""What a run's numbers point to, in words: measured against predicted latency (by how much, and the
likely cause: nominal model costs, a chain slower than calibrated, platform jitter in the tail) and the effect of
best-effort work and of the throttler. The CLI prints it under the scenario table; report.html shows it."""

from __future__ import annotations

from typing import Any

from chainlab.number_format import format_ms, format_number

#: Differences below these are "as predicted" (the fidelity target of the issue tracker: p50/p99 within 10 %).
CLOSE = 0.10
#: A tail that grows this much more than the median points to jitter the model does not have.
TAIL_EXTRA = 0.25
#: Best-effort work that slows the chain's mean by less than this is not worth a line.
INTERFERENCE_PCT = 5.0
#: A sub-box this much slower (median) than in the calibration run is named.
SLOWER_BOX = 0.20


def _pct(measured: float, predicted: float) -> float:
    return (measured - predicted) / predicted if predicted else float("inf")


def _slower_boxes(row: dict[str, Any], calibrated_p50: dict[str, float]) -> list[str]:
    """The sub-boxes that ran clearly slower than in the calibration run, the largest excess first."""
    slower = []
    for t in row.get("tasks") or []:
        before = calibrated_p50.get(t["sub_box"])
        if before and t["duration_p50_ns"] > before * (1 + SLOWER_BOX):
            slower.append((t["duration_p50_ns"] - before, t["sub_box"], t["duration_p50_ns"], before))
    return [
        f"{name} runs {now / before - 1:.0%} slower than in the calibration run ({format_number(now / 1e6)} vs "
        f"{format_ms(before / 1e6)}, median): calibrate again if the target changed, else look for what shares its core"
        for _, name, now, before in sorted(slower, reverse=True)[:3]
    ]


def _compared(measured: float, predicted: float) -> str:
    d = _pct(measured, predicted)
    return f"{abs(d):.0%} {'slower' if d > 0 else 'faster'} ({format_number(measured)} vs {format_ms(predicted)})"


def _between_sub_boxes(slower: bool) -> str:
    if slower:
        return (
            "each sub-box took what calibration measured, so the extra time is spent between sub-boxes (wake-ups "
            "after a signal, the release timer, threads sharing a core): check that nothing else runs on the "
            "rt-cores, then calibrate again"
        )
    return (
        "each sub-box took what calibration measured, so the waits between sub-boxes (wake-ups after a signal, the "
        "release timer) are shorter than modelled: the plan has slack; calibrate again if the target was busy "
        "while it was calibrated"
    )


def _prediction_lines(row: dict[str, Any], calibrated: bool, calibrated_p50: dict[str, float]) -> list[str]:
    q = row.get("quantiles_ms") or {}
    p50, p99 = q.get("50"), q.get("99")
    if not p50 or not p99 or p50["predicted"] is None or p99["predicted"] is None:
        return []
    d50, d99 = _pct(p50["measured"], p50["predicted"]), _pct(p99["measured"], p99["predicted"])
    ks = row.get("ks")
    lines = [
        f"{row['scenario']}: measured is {_compared(p50['measured'], p50['predicted'])} than predicted at the median "
        f"and {_compared(p99['measured'], p99['predicted'])} at p99"
        + (f"; KS {format_number(ks)}" if ks is not None else "")
    ]
    if abs(d50) <= CLOSE and abs(d99) <= CLOSE:
        lines.append("the prediction holds: median and p99 within 10 % of the measurement")
        return lines
    if abs(d50) > CLOSE:
        if not calibrated:
            lines.append(
                "the prediction uses the model's nominal costs (the `cost` of each box): calibrate (--calibrate 300, "
                "or Calibrate and run) to measure every sub-box on this target and predict with those times"
            )
        else:
            lines += _slower_boxes(row, calibrated_p50) or [_between_sub_boxes(d50 > 0)]
    if d99 - d50 > TAIL_EXTRA:
        lines.append(
            "the measured tail is longer than predicted: jitter of the platform (interrupts, other processes, a "
            "virtual machine's scheduling) that the model does not have; isolate the rt-cores to shorten it"
        )
    return lines


def _interference_lines(rows: list[dict[str, Any]]) -> list[str]:
    by = {r["scenario"]: r for r in rows if (r.get("measured") or {}).get("samples")}
    congested, throttled = by.get("congested"), by.get("throttled")
    lines = []
    if congested and congested.get("increase_pct", 0) >= INTERFERENCE_PCT:
        lines.append(f"best-effort work on the be-cores slows the chain by {congested['increase_pct']:+.1f} % (mean)")
        if throttled and "increase_pct" in throttled:
            t = throttled.get("throttle") or {}
            cores = t.get("cores") or []
            held = ""
            if cores and t.get("wall_ns"):
                share = sum(c["suspended_ns"] for c in cores) / (t["wall_ns"] * len(cores))
                held = f", holding best-effort work {share:.0%} of the time"
            lines.append(f"the throttler keeps it to {throttled['increase_pct']:+.1f} %{held}")
    return lines


def diagnose(results: dict[str, Any], calibrated: bool, calibrated_p50: dict[str, float] | None = None) -> list[str]:
    """Sentences on an experiment's results (chainlab.run.report), the most telling first. calibrated_p50:
    each sub-box's median time in the calibration run the prediction used."""
    rows = results["scenarios"]
    lines = [f"{r['scenario']}: overloaded, the numbers measure a backlog" for r in rows if r.get("overloaded")]
    sound = [r for r in rows if (r.get("measured") or {}).get("samples") and not r.get("overloaded")]
    reference = next((r for r in sound if r["scenario"] == "baseline"), sound[0] if sound else None)
    if reference:
        lines += _prediction_lines(reference, calibrated, calibrated_p50 or {})
    return lines + _interference_lines(rows)
