"""The words and numbers of a run's report files as the editor's plot panel writes them (extension/src/plot-data.ts):
the one number format (chainlab.number_format, re-exported here), the requirements' wording, and the series in the
panel's order with the panel's colours, so cdf.png, report.html and the panel read the same."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chainlab.number_format import format_ms, format_number, format_probability
from chainlab.run.report import RunReport

__all__ = [
    "FAIL_COLOUR",
    "FOREGROUND",
    "SERIES_COLOURS",
    "Series",
    "format_ms",
    "format_number",
    "format_probability",
    "judged_requirements",
    "plot_series",
    "requirement_margin",
    "requirement_text",
    "requirement_value",
]


#: The editor's series colours, in its order (the prediction first when there is one, then each measured scenario):
#: VS Code's default light charts.blue, orange, green, purple, yellow (extension/webview/plot/theme.ts hands out
#: the same --vscode-charts-* in the same order); a failed requirement is drawn in charts.red, a met one in the
#: editor's foreground.
SERIES_COLOURS = ("#1a85ff", "#d18616", "#388a34", "#652d90", "#bf8803")
FAIL_COLOUR = "#e51400"
FOREGROUND = "#3b3b3b"


def _level(percent: float) -> str:
    """A level as the model writes it (99.99, not 3 significant digits)."""
    return f"{percent:.10g}"


def requirement_text(r: dict[str, Any]) -> str:
    """A requirement as the panel words it: ``latency p99 < 25 ms``, ``latency ≤ 30 ms with probability ≥ 99 %``."""
    op = "≤" if r["op"] == "<=" else "<"
    if r["kind"] == "percentile":
        return f"latency p{_level(r['percentile'])} {op} {format_ms(r['bound_ms'])}"
    if r["kind"] == "deadline":
        return f"latency {op} {format_ms(r['bound_ms'])} with probability ≥ {_level(r['required_probability'] * 100)} %"
    return f"loss {op} {format_number(r.get('limit'))}"


def requirement_value(r: dict[str, Any]) -> str:
    """What was found: ``p99 = 12.3 ms``, ``P(> 30 ms) = 0.05, allowed 0.01``."""
    if r["kind"] == "percentile":
        return f"p{_level(r['percentile'])} = {format_ms(r.get('value_ms'))}"
    if r["kind"] == "deadline":
        miss = format_probability(max(0.0, 1 - r.get("probability", r["value"])))
        allowed = format_probability(1 - r["required_probability"])
        return f"P(> {format_ms(r['bound_ms'])}) {'' if miss.startswith('<') else '= '}{miss}, allowed {allowed}"
    return f"loss = {format_probability(r.get('value'))}"


def requirement_margin(r: dict[str, Any]) -> str:
    """How far a percentile is from its bound, and on which side (the other kinds: in their value)."""
    if r["kind"] != "percentile" or not r.get("bound_ms"):
        return "–"
    bound, value = r["bound_ms"], r["value_ms"]
    side = "below" if value <= bound else "over"
    gap = abs(bound - value)
    return f"{format_ms(gap)} ({format_number(100 * gap / bound)} %) {side} the bound"


@dataclass(frozen=True)
class Series:
    """One curve of the plot: its name and legend entry as the panel writes them, its colour, its scenario."""

    name: str
    legend: str
    colour: str
    scenario: dict[str, Any] | None = None


def plot_series(report: RunReport) -> list[Series]:
    """The curves the panel draws for this report, in its order and colours: the prediction (when there is one),
    then every scenario that measured something, KS in its legend entry."""
    names: list[tuple[str, str, dict[str, Any] | None]] = []
    if report.predicted.get("points"):
        names.append(("predicted", "predicted", None))
    for s in report.scenarios:
        if s["measured"].get("samples") and s.get("histogram_ms"):
            ks = s.get("ks")
            legend = f"measured {s['scenario']}" + ("" if ks is None else f" — KS {format_number(ks)} vs predicted")
            names.append((f"measured {s['scenario']}", legend, s))
    return [
        Series(name, legend, SERIES_COLOURS[i % len(SERIES_COLOURS)], scenario)
        for i, (name, legend, scenario) in enumerate(names)
    ]


def judged_requirements(report: RunReport) -> list[tuple[str, dict[str, Any]]]:
    """Every requirement verdict of the run with the series it was judged on, the prediction's first."""
    out = [("predicted", r) for r in report.predicted.get("requirements", [])]
    for s in report.scenarios:
        out += [(f"measured {s['scenario']}", r) for r in s.get("requirements", [])]
    return out
