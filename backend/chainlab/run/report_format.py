"""The words and numbers of a run's report files as the editor's plot panel writes them (extension/src/plot-data.ts,
number-format.ts): one number format (3 significant digits, a·10⁻ⁿ below 10⁻³), the requirements' wording, and the
series in the panel's order with the panel's colours, so cdf.png, report.html and the panel read the same."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from chainlab.run.report import RunReport

#: The editor's series colours, in its order (the prediction first when there is one, then each measured scenario):
#: VS Code's default light charts.blue, orange, green, purple, yellow (extension/webview/plot/theme.ts hands out
#: the same --vscode-charts-* in the same order); a failed requirement is drawn in charts.red, a met one in the
#: editor's foreground.
SERIES_COLOURS = ("#1a85ff", "#d18616", "#388a34", "#652d90", "#bf8803")
FAIL_COLOUR = "#e51400"
FOREGROUND = "#3b3b3b"

_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def format_number(value: float | None) -> str:
    """3 significant digits, trailing zeros dropped; a·10⁻ⁿ below 10⁻³; '–' for no number (None, NaN).

    Parameters
    ----------
    value
        Any number of the report.

    Returns
    -------
    str
        As the editor's formatNumber writes it: ``1.12``, ``200``, ``8.57·10⁻⁵``, ``–``.
    """
    if value is None or not math.isfinite(value):
        return "–"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    if magnitude >= 1e-3:
        rounded = float(f"{magnitude:.3g}")
        return sign + (f"{rounded:.6f}".rstrip("0").rstrip(".") if rounded < 1e21 else f"{rounded:e}")
    mantissa, exponent = f"{magnitude:.2e}".split("e")
    digits = f"{float(mantissa):g}"
    power = f"10{str(int(exponent)).translate(_SUPERSCRIPT)}"
    return f"{sign}{'' if digits == '1' else digits + '·'}{power}"


def format_ms(value_ms: float | None) -> str:
    """A latency in ms: ``128 ms``."""
    return f"{format_number(value_ms)} ms"


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


def format_probability(value: float | None) -> str:
    """A probability; below 10⁻¹² (rounding noise of sums) ``< 10⁻¹²``."""
    if value is not None and 0 < value < 1e-12:
        return "< 10⁻¹²"
    return format_number(value)


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
