"""The files of a run's report: report.json (the RunReport), the CDF and PMF as PNG and SVG for the CLI and papers
(the editor's series, colours and legend), and report.html, the view of the editor's plot panel as one
self-contained page."""

from __future__ import annotations

from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from chainlab.files import atomic_writer, write_atomic
from chainlab.finite_json import dumps
from chainlab.run.report import RunReport
from chainlab.run.report_format import (
    FAIL_COLOUR,
    FOREGROUND,
    SERIES_COLOURS,
    Series,
    format_number,
    judged_requirements,
    plot_series,
    requirement_text,
)
from chainlab.run.report_html import report_html
from chainlab.run.stats import read_latencies

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

__all__ = ["SERIES_COLOURS", "write_report"]

#: The percentiles the panel marks on every curve.
MARKERS = ("50", "99", "99.9")


def _drawn_requirements(report: RunReport) -> list[tuple[str, float, bool]]:
    """One line per latency bound, as the panel draws it: PASS only where every series passes."""
    drawn: dict[str, tuple[float, bool]] = {}
    for _series, r in judged_requirements(report):
        if r.get("bound_ms") is None:
            continue
        text = requirement_text(r)
        bound, passed = drawn.get(text, (r["bound_ms"], True))
        drawn[text] = (bound, passed and bool(r["passed"]))
    return [(text, bound, passed) for text, (bound, passed) in drawn.items()]


def _markers(report: RunReport, s: Series) -> list[tuple[str, float]]:
    """The p50/p99/p99.9 of a curve, as the scenarios report them (the prediction's: in every scenario)."""
    if s.scenario is not None:
        quantiles = s.scenario.get("quantiles_ms") or {}
        return [(q, quantiles[q]["measured"]) for q in MARKERS if q in quantiles]
    at: dict[str, Any] = next((r["quantiles_ms"] for r in report.scenarios if r.get("quantiles_ms")), {})
    return [(q, at[q]["predicted"]) for q in MARKERS if at.get(q, {}).get("predicted") is not None]


def _spans_decades(report: RunReport, bounds: list[float]) -> bool:
    """Whether the panel draws this run on a log latency axis: its curves and bounds span more than 100×."""
    values = [p[0] / 1e6 for p in report.predicted["points"]] + bounds
    values += [h[0] for s in plot_series(report) if s.scenario is not None for h in s.scenario["histogram_ms"]]
    positive = [v for v in values if v > 0]
    return bool(positive) and max(positive) / min(positive) > 100


def _curve(ax: Axes, report: RunReport, s: Series, kind: str) -> None:
    width = 2.2 if s.scenario is None else 1.6
    if s.scenario is None:
        points = report.predicted["points"]
        xs, ps = [p[0] / 1e6 for p in points], [p[1] for p in points]
        ax.step(xs, np.cumsum(ps) if kind == "cdf" else ps, where="post", color=s.colour, lw=width, label=s.legend)
    elif kind == "cdf":
        lat = np.sort(read_latencies(Path(s.scenario["dir"]) / "latencies.csv")) / 1e6
        ax.step(lat, np.arange(1, lat.size + 1) / lat.size, where="post", color=s.colour, lw=width, label=s.legend)
    else:
        hist = s.scenario.get("histogram_ms") or []
        ax.step([h[0] for h in hist], [h[1] for h in hist], where="mid", color=s.colour, lw=width, label=s.legend)
    if kind == "cdf":
        for level, ms in _markers(report, s):
            ax.plot([ms], [float(level) / 100], "o", color=s.colour, markeredgecolor="white", markersize=6)


def _figure(report: RunReport, kind: str) -> tuple[Figure, ModuleType]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import FuncFormatter

    fig, ax = plt.subplots(figsize=(7.5, 4.5))
    for s in plot_series(report):
        _curve(ax, report, s, kind)
    drawn = _drawn_requirements(report)
    for text, bound, passed in drawn:
        colour = FOREGROUND if passed else FAIL_COLOUR
        label = f"{text}: {'PASS' if passed else 'FAIL'}"
        ax.axvline(bound, color=colour, linestyle=(0, (6, 4)), linewidth=1.5, label=label)
    log = kind == "cdf" and _spans_decades(report, [bound for _, bound, _ in drawn])
    if log:  # as the panel: curves decades apart are not squashed into a line at 0
        ax.set_xscale("log")
    ax.xaxis.set_major_formatter(FuncFormatter(lambda v, _: format_number(v)))
    ax.set_xlabel("latency (ms, log scale)" if log else "latency (ms)")
    ax.set_ylabel("P(latency ≤ x)" if kind == "cdf" else "probability per bin")
    ax.set_title(f"chain {report.chain} on {report.target}: measured vs predicted ({kind.upper()})", fontsize=11)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8, loc="lower right" if kind == "cdf" else "upper right")
    fig.tight_layout()
    return fig, plt


def write_report(report: RunReport, _ir: dict[str, Any], out: Path) -> None:
    """cdf/pmf (PNG, SVG), report.html and report.json into `out`; report.files names them all.

    Parameters
    ----------
    report
        The run's report, filled (fill_results); its ``files`` gets the paths written.
    _ir
        The model's IR (the requirements are the report's own verdicts).
    out
        The run's folder.
    """
    for kind in ("cdf", "pmf"):
        fig, plt = _figure(report, kind)
        for ext in ("png", "svg"):
            with atomic_writer(out / f"{kind}.{ext}", "wb") as f:  # whole or not at all: never half a picture
                fig.savefig(f, format=ext, dpi=120)
            report.files.append(str(out / f"{kind}.{ext}"))
        plt.close(fig)
    report.files += [str(out / "report.html"), str(out / "report.json")]
    figure = (out / "cdf.svg").read_text(encoding="utf-8")
    write_atomic(out / "report.html", report_html(report, figure))
    write_atomic(out / "report.json", dumps(report.to_json(), indent=1))
