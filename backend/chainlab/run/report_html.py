"""report.html of a run: the editor's plot view of the run as one self-contained page.

The page carries everything inline, so it works opened from disk or sent by mail, offline: the plot view's script
and style (built from the editor's own plot code into chainlab/resources/report), the run's RunReport as JSON, which
the script turns into the panel's view (CDF, CCDF, PMF, markers, verdicts, statistics, scenarios, phases), and a
summary of the numbers with the CDF figure for a reader without scripts. Its CSP allows that one script by its hash
and loads nothing.
"""

from __future__ import annotations

import base64
import hashlib
import html
import logging
import math
from typing import Any

from chainlab.finite_json import dumps
from chainlab.resources import report_assets
from chainlab.run.report import RunReport
from chainlab.run.report_format import (
    format_ms,
    format_number,
    judged_requirements,
    requirement_margin,
    requirement_text,
    requirement_value,
)

log = logging.getLogger(__name__)

_STATIC_HEAD = ("", "status", "iterations", "mean ms", "p50 ms", "p99 ms", "max ms", "KS")


def embedded_json(report: RunReport) -> str:
    """The RunReport as the page embeds it: JSON in which no ``<`` can close the script element around it."""
    return dumps(report.to_json(), ensure_ascii=False).replace("<", "\\u003c")  # to_json: NaN is null


def _cells(tag: str, cells: list[str] | tuple[str, ...]) -> str:
    return "<tr>" + "".join(f"<{tag}>{html.escape(c)}</{tag}>" for c in cells) + "</tr>"


def _stats_row(name: str, status: str, count: str, stats: dict[str, Any], ks: float | None) -> list[str]:
    ms = [format_number(stats.get(k, math.nan) / 1e6) for k in ("mean_ns", "p50_ns", "p99_ns", "max_ns")]
    return [name, status, count, *ms, format_number(ks)]


def _summary_table(report: RunReport) -> str:
    rows = [_cells("th", _STATIC_HEAD)]
    for r in report.scenarios:
        status = "ok" if r["status"] == "ok" else r["status"].upper()
        status += ", overloaded" if r.get("overloaded") else ""
        count = f"{r['completed']:,} / {r['iterations']:,}"
        rows.append(_cells("td", _stats_row(f"measured {r['scenario']}", status, count, r["measured"], r.get("ks"))))
    p = report.predicted["stats"]
    if p.get("samples"):
        rows.append(_cells("td", _stats_row("predicted", "", f"{p['samples']:,} draws", p, None)))
    return f'<table class="stats">{"".join(rows)}</table>'


def _verdicts(report: RunReport) -> str:
    judged = judged_requirements(report)
    if not judged:
        return ""
    rows = [_cells("th", ("requirement", "found", "verdict", "margin"))]
    for series, r in judged:
        verdict = "✓ PASS" if r["passed"] else "✗ FAIL"
        rows.append(
            _cells("td", (requirement_text(r), f"{series}: {requirement_value(r)}", verdict, requirement_margin(r)))
        )
    return f'<table class="verdicts">{"".join(rows)}</table>'


def _bullets(lines: list[str], cls: str) -> str:
    return f'<ul class="{cls}">{"".join(f"<li>{html.escape(line)}</li>" for line in lines)}</ul>' if lines else ""


def _static_summary(report: RunReport, figure_svg: str) -> str:
    """What a reader without scripts gets: the numbers, verdicts, diagnosis, phases and the CDF figure."""
    overloaded = [r["scenario"] for r in report.scenarios if r.get("overloaded")]
    warning = (
        f'<div class="warning" role="alert">⚠ Overloaded: {html.escape(", ".join(overloaded))}. The latency grew '
        "through the run (a backlog), so these numbers measure queueing, not the chain.</div>"
        if overloaded
        else ""
    )
    phases = "".join(_cells("td", (k, f"{format_number(v)} s")) for k, v in report.phases_s.items())
    figure = f'<figure class="chart">{figure_svg}</figure>' if figure_svg else ""
    return (
        f'<div class="static-summary">{warning}{figure}{_verdicts(report)}{_summary_table(report)}'
        f"{_bullets(report.diagnosis, 'notes')}"
        f'<h3>Phases</h3><table class="details">{phases}</table></div>'
    )


def _facts(report: RunReport) -> str:
    """The run in one line: how it ended, where and how it ran, what the prediction is based on."""
    plan = report.plan
    threads = len(plan.get("threads") or [])
    cores = ", ".join(str(c) for c in plan.get("cores") or [])
    release = f"released every {format_ms(report.period_ns / 1e6)}" if report.period_ns else "free-running source"
    status = "ok" if report.status == "ok" else report.status.upper()
    parts = [
        f"status {status}",
        f"{report.kind} run of {report.iterations:,} iterations",
        f"plan {plan.get('heuristic', '–')}/{plan.get('memory', '–')}, {threads} thread(s) on cores {cores or '–'}",
        release,
        "predicted from calibrated sub-box times" if report.calibration else "predicted from the model's costs",
    ]
    if not report.checksums_equal:
        parts.append("the scenarios computed different checksums")
    return "; ".join(parts)


def _svg_body(svg: str) -> str:
    """An SVG file's <svg> element, without the XML declaration and doctype that cannot stand inside HTML."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else ""


def report_html(report: RunReport, figure_svg: str = "") -> str:
    """The run's report as one self-contained HTML page.

    Parameters
    ----------
    report
        The run's report (its RunReport, as report.json has it).
    figure_svg
        The CDF as an SVG file (cdf.svg), shown to a reader without scripts; empty: none.

    Returns
    -------
    str
        The page: its script draws the editor's plot view from the embedded report.
    """
    title = f"chain {report.chain} on {report.target}"
    try:
        script, style = report_assets()
    except FileNotFoundError as e:  # the numbers are worth a page without its plot: the summary is shown instead
        log.warning("%s", e)
        script, style = "", ""
    digest = base64.b64encode(hashlib.sha256(script.encode("utf-8")).digest()).decode("ascii")
    csp = f"default-src 'none'; script-src 'sha256-{digest}'; style-src 'unsafe-inline'; img-src data: blob:"
    summary = _static_summary(report, _svg_body(figure_svg))
    body = f"<noscript>{summary}</noscript>" if script else summary
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta http-equiv="Content-Security-Policy" content="{csp}">
<title>chainlab: {html.escape(title)}</title>
<style>{style}</style>
</head><body class="chainlab-report">
<header class="report-header"><h1>{html.escape(title)}</h1><p>{html.escape(_facts(report))}</p></header>
<div id="plot">{body}</div>
<script type="application/json" id="chainlab-report">{embedded_json(report)}</script>
<script>{script}</script>
</body></html>
"""
