"""The CLI's run summary writes its numbers in the one number format (chainlab.number_format), as the editor does."""

from __future__ import annotations

from chainlab.run.report import RunReport
from chainlab.run.report_text import summary_text


def _report() -> RunReport:
    stats = {"samples": 3, "mean_ns": 110.2e6, "std_ns": 1.5e6, "p50_ns": 110.2e6, "p99_ns": 123.456e6, "max_ns": 130e6}
    scenario = {
        "scenario": "baseline",
        "status": "ok",
        "completed": 3,
        "iterations": 3,
        "measured": stats,
        "increase_pct": 2.345,
        "ks": 0.1234,
        "ptts": [{"ptts": "P", "p99_ms": 250.04, "loss": 0.00008568801313628905}],
    }
    return RunReport(
        "ok",
        "C",
        "here",
        "local",
        "/tmp/run",
        iterations=3,
        period_ns=66_600_000,
        scenarios=[scenario],
        phases_s={"build": 12.345, "run baseline": 0.25},
    )


def test_the_summary_uses_the_one_number_format() -> None:
    text = summary_text(_report())
    row = next(line for line in text.splitlines() if line.startswith("baseline"))
    assert row.split()[1:6] == ["110", "1.5", "110", "123", "130"]
    assert " +2.35 " in row and " 0.123 " in row and " 250 " in row
    assert " 8.57·10⁻⁵ " in row  # not 8.6e-05
    assert "released every 66.6 ms" in text
    assert "phases: build 12.3 s, run baseline 0.25 s" in text


def test_a_partial_scenario_says_why_under_the_table() -> None:
    report = _report()
    why = "the chain on lab was stopped by a signal chainlab did not send and exited normally: 3 iterations kept"
    report.scenarios[0].update(status="partial", error=why)
    lines = summary_text(report).splitlines()
    assert f"PARTIAL baseline: {why}" in lines
    report.scenarios[0]["measured"] = {"samples": 0}  # nothing measured: its row says why, once
    assert not any(line.startswith("PARTIAL") for line in summary_text(report).splitlines())
