"""What a run's numbers point to: each rule of chainlab.run.diagnosis on results shaped as chainlab.run.report
makes them (the real shape is checked against the contract in test_report and the deploy tests)."""

from __future__ import annotations

from typing import Any

from chainlab.run.diagnosis import diagnose


def row(scenario: str, p50: tuple[float, float], p99: tuple[float, float], **extra: Any) -> dict[str, Any]:
    quantiles = {"50": {"measured": p50[0], "predicted": p50[1]}, "99": {"measured": p99[0], "predicted": p99[1]}}
    return {"scenario": scenario, "measured": {"samples": 100}, "quantiles_ms": quantiles, "ks": 0.5, **extra}


def test_a_prediction_within_ten_percent_holds() -> None:
    lines = diagnose({"scenarios": [row("baseline", (10.5, 10.0), (12.0, 11.5))]}, calibrated=True)
    assert lines == [
        "baseline: measured is 5% slower (10.5 vs 10 ms) than predicted at the median and 4% slower (12 vs 11.5 ms)"
        " at p99; KS 0.5",
        "the prediction holds: median and p99 within 10 % of the measurement",
    ]


def test_nominal_costs_point_to_calibration_and_calibrated_ones_to_the_time_between_sub_boxes() -> None:
    slower = {"scenarios": [row("baseline", (12.0, 8.6), (14.0, 9.0))]}
    assert "--calibrate 300" in diagnose(slower, calibrated=False)[1]
    assert diagnose(slower, calibrated=True)[1].startswith(
        "each sub-box took what calibration measured, so the extra time is spent between sub-boxes"
    )
    faster = {"scenarios": [row("baseline", (6.3, 8.6), (7.0, 9.0))]}
    lines = diagnose(faster, calibrated=True)
    assert lines[0].startswith("baseline: measured is 27% faster (6.3 vs 8.6 ms) than predicted at the median")
    assert lines[1].startswith(
        "each sub-box took what calibration measured, so the waits between sub-boxes (wake-ups after a signal, the "
        "release timer) are shorter than modelled"
    )


def test_a_sub_box_slower_than_in_its_calibration_run_is_named() -> None:
    tasks = [
        {"sub_box": "f6.0", "duration_p50_ns": 3_000_000},
        {"sub_box": "f6.1", "duration_p50_ns": 1_050_000},
    ]
    results = {"scenarios": [row("baseline", (12.0, 8.6), (14.0, 9.0), tasks=tasks)]}
    lines = diagnose(results, calibrated=True, calibrated_p50={"f6.0": 2_000_000, "f6.1": 1_000_000})
    assert lines[1].startswith("f6.0 runs 50% slower than in the calibration run (3 vs 2 ms, median)")
    assert not any(line.startswith("f6.1") for line in lines)


def test_a_tail_longer_than_the_median_points_to_platform_jitter() -> None:
    lines = diagnose({"scenarios": [row("baseline", (10.0, 10.0), (20.0, 11.0))]}, calibrated=True)
    assert lines[1].startswith("the measured tail is longer than predicted")


def test_interference_and_the_throttlers_effect() -> None:
    throttle = {"wall_ns": 1_000, "cores": [{"suspended_ns": 900}]}
    results = {
        "scenarios": [
            row("baseline", (10.0, 10.0), (11.0, 11.0), increase_pct=0.0),
            row("congested", (11.5, 10.0), (13.0, 11.0), increase_pct=15.4),
            row("throttled", (10.4, 10.0), (11.5, 11.0), increase_pct=3.8, throttle=throttle),
        ]
    }
    lines = diagnose(results, calibrated=True)
    assert lines[-2:] == [
        "best-effort work on the be-cores slows the chain by +15.4 % (mean)",
        "the throttler keeps it to +3.8 %, holding best-effort work 90% of the time",
    ]


def test_an_overloaded_scenario_is_said_first_and_not_compared() -> None:
    results = {"scenarios": [row("baseline", (900.0, 10.0), (2000.0, 11.0), overloaded=True)]}
    assert diagnose(results, calibrated=False) == ["baseline: overloaded, the numbers measure a backlog"]
