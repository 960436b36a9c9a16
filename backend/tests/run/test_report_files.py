"""The files of a run's report: the figures in the panel's series and colours, report.json, and report.html, one
self-contained page that embeds the report and the plot view's script."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import numpy as np
from test_report import PERIOD, ROOT, prediction, skewed, write_run

from chainlab.resources import report_assets
from chainlab.run.report import RunReport, fill_results
from chainlab.run.report_files import write_report
from chainlab.run.report_format import FAIL_COLOUR, SERIES_COLOURS
from chainlab.run.session import ScenarioRun


def _run(tmp_path: Path) -> tuple[RunReport, dict[str, Any]]:
    ir = json.loads((ROOT / "tests/golden/samples/xray.ir.json").read_text())
    lat = skewed(400)
    for scenario in ("baseline", "congested"):
        write_run(tmp_path / scenario, lat + (0 if scenario == "baseline" else 6_000_000))
    runs = [ScenarioRun(s, "ok", str(tmp_path / s), lat.size, lat.size) for s in ("baseline", "congested")]
    report = RunReport("ok", "XRay", "here", "local", str(tmp_path), period_ns=PERIOD, iterations=lat.size)
    fill_results(report, runs, ir, prediction([(21_000_000, 0.5), (24_000_000, 0.5)]), None, {})
    report.phases_s = {"prepare": 1.5, "run baseline": 2.0}
    return report, ir


def test_the_report_files_are_written_and_named(tmp_path: Path) -> None:
    report, ir = _run(tmp_path)
    write_report(report, ir, tmp_path)
    names = [Path(f).name for f in report.files]
    assert names == ["cdf.png", "cdf.svg", "pmf.png", "pmf.svg", "report.html", "report.json"]
    assert all((tmp_path / n).stat().st_size > 0 for n in names)
    assert json.loads((tmp_path / "report.json").read_text())["chain"] == "XRay"


def test_the_figure_draws_the_panels_series_in_its_colours(tmp_path: Path) -> None:
    report, ir = _run(tmp_path)
    write_report(report, ir, tmp_path)
    svg = (tmp_path / "cdf.svg").read_text()
    # predicted, measured baseline, measured congested: blue, orange, green, in that order
    at = [svg.find(f"stroke: {c}") for c in SERIES_COLOURS[:3]]
    assert all(i > 0 for i in at) and at == sorted(at)
    assert "measured baseline — KS" in svg and "latency p99 &lt; 25 ms: FAIL" in svg
    assert f"stroke: {FAIL_COLOUR}" in svg  # the congested run misses the p99 < 25 ms


def test_report_html_is_self_contained_and_embeds_the_report(tmp_path: Path) -> None:
    report, ir = _run(tmp_path)
    write_report(report, ir, tmp_path)
    html = (tmp_path / "report.html").read_text()
    assert not re.search(r"\s(src|href)\s*=", html) and "<link" not in html and "@import" not in html
    [embedded] = re.findall(r'<script type="application/json" id="chainlab-report">(.*?)</script>', html, re.S)
    assert json.loads(embedded) == json.loads(json.dumps(report.to_json()))
    script, style = report_assets()
    assert f"<script>{script}</script>" in html and f"<style>{style}</style>" in html
    assert "<noscript>" in html and "<svg" in html  # the numbers and the CDF for a reader without scripts
    text = re.sub(r"<script.*?</script>|<style>.*?</style>|<svg.*?</svg>", "", html, flags=re.S)
    assert not re.search(r"\b(True|False|None|nan|NaN)\b|\{'", text)
    assert np.isfinite(json.loads(embedded)["scenarios"][0]["ks"])
