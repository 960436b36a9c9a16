"""What the CLI prints of a run: the plan that ran, one row per scenario (measured, and the prediction's row under
it), what the numbers say, the phases and where the report is."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainlab.number_format import format_duration, format_ms, format_number, format_probability
from chainlab.run.report import RunReport

_HEAD = (
    f"{'':10} {'mean ms':>8} {'sigma':>7} {'p50':>8} {'p99':>8} {'max':>8} {'+mean%':>7} {'KS':>5} "
    f"{'BE GB/s':>7} {'susp%':>6} {'e2e p99':>8} {'loss':>9}  iterations"
)


def _cell(value: float | None, width: int, text: Callable[[float], str] = format_number) -> str:
    """A number of the table in the one number format, or '-' where there is none (no best-effort work, no ptts)."""
    if value is None or value != value:  # None or NaN
        return f"{'-':>{width}}"
    return f"{text(value):>{width}}"


def _ms(stats: dict[str, Any]) -> str:
    return " ".join(
        _cell(stats[k] / 1e6, w)
        for k, w in (("mean_ns", 8), ("std_ns", 7), ("p50_ns", 8), ("p99_ns", 8), ("max_ns", 8))
    )


def _signed(value: float) -> str:
    return ("+" if value > 0 else "") + format_number(value)


def _row(r: dict[str, Any]) -> str:
    m = r["measured"]
    if not m.get("samples"):
        why = f": {r['error'][:200]}" if r.get("error") else ""
        return f"{r['scenario']:10} no iteration measured ({r['status']}{why})"
    susp = "-"
    t = r.get("throttle")
    if t and t.get("wall_ns") and t.get("cores"):
        susp = format_number(100 * sum(c["suspended_ns"] for c in t["cores"]) / (t["wall_ns"] * len(t["cores"])))
    e2e = next((p for p in r.get("ptts", []) if "p99_ms" in p), None)
    be = r["be_bytes_per_s"] / 1e9 if r.get("be_bytes_per_s") else None
    return (
        f"{r['scenario']:10} {_ms(m)} {_cell(r.get('increase_pct', 0), 7, _signed)} "
        f"{_cell(r.get('ks'), 5)} {_cell(be, 7)} {susp:>6} "
        f"{_cell(e2e and e2e['p99_ms'], 8)} {_cell(e2e and e2e['loss'], 9, format_probability)}  "
        f"{r['completed']}/{r['iterations']}" + ("" if r["status"] == "ok" else f" {r['status'].upper()}")
    )


def summary_table(report: RunReport) -> list[str]:
    """The scenarios, measured, with the prediction's row last (the numbers the editor's plot shows)."""
    lines = [_HEAD, "-" * len(_HEAD), *(_row(r) for r in report.scenarios)]
    p = report.predicted["stats"]
    if p.get("samples"):
        lines.append(f"{'predicted':10} {_ms(p)}")
    if not report.checksums_equal:
        lines.append("WARNING: the scenarios computed different checksums")
    return lines


def _header(report: RunReport) -> list[str]:
    plan = report.plan
    release = f"released every {format_ms(report.period_ns / 1e6)}" if report.period_ns else "free-running source"
    cached = ", cached build" if report.cached_build else ""
    lines = [
        f"chain {report.chain} on {report.target} ({report.kind}): {plan.get('heuristic')}/{plan.get('memory')}, "
        f"{len(plan.get('threads') or [])} thread(s) on cores {plan.get('cores')}, {release}{cached}"
    ]
    if "arena_bytes" in plan:
        lines.append(f"  memory: arena {plan['arena_bytes']} B (sum of buffers {plan['sum_bytes']} B)")
    lines.append(
        f"  predicted from the sub-box times measured in {report.calibration}"
        if report.calibration
        else "  predicted from the model's costs: --calibrate N measures them on the target first"
    )
    return lines


def summary_text(report: RunReport, preflight_lines: list[str] | None = None) -> str:
    lines = [*_header(report), *(preflight_lines or []), "", *summary_table(report)]
    if report.diagnosis:
        lines += ["", "what the numbers say:", *(f"  - {line}" for line in report.diagnosis)]
    for r in report.scenarios:
        if r.get("overloaded"):
            lines.append(
                f"OVERLOADED in {r['scenario']}: the latency grew through the run (a backlog): the chain needs more "
                "than one source period per frame on these cores; the numbers measure the backlog, not the chain"
            )
        if r.get("status") == "partial" and r.get("error") and r["measured"].get("samples"):  # else in its row
            lines.append(f"PARTIAL {r['scenario']}: {r['error'][:300]}")
    phases = ", ".join(f"{k} {format_duration(v * 1e9, 's')}" for k, v in report.phases_s.items())
    lines += [f"phases: {phases}", f"report: {report.out_dir}/report.html"]
    return "\n".join(lines)
