"""The files of a run's report: the figures in the panel's series and colours, report.json, and report.html, one
self-contained page that embeds the report and the plot view's script; on a full disk (a file-size limit) through the
real CLI: one line naming the file, no half file."""

from __future__ import annotations

import json
import os
import re
import resource
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from test_report import PERIOD, ROOT, prediction, skewed, write_run

from chainlab.resources import report_assets
from chainlab.run.report import RunReport, fill_results
from chainlab.run.report_files import write_report
from chainlab.run.report_format import FAIL_COLOUR, SERIES_COLOURS
from chainlab.run.session import ScenarioRun

CLI = ROOT / "language" / "bin" / "chainlab.js"


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


REPORT_FILES = ["cdf.png", "cdf.svg", "pmf.png", "pmf.svg", "report.html", "report.json"]


def _limited(limit: int) -> Callable[[], None]:
    def apply() -> None:
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))  # the backend ignores SIGXFSZ: write(2) fails

    return apply


@pytest.mark.skipif(
    shutil.which("node") is None or shutil.which("cmake") is None or not CLI.exists(),
    reason="needs node, the built CLI and cmake",
)
def test_a_full_disk_fails_the_run_naming_the_file_and_leaves_no_half_file(tmp_path: Path) -> None:
    env = {**os.environ, "CHAINLAB_CACHE": str(tmp_path / "cache")}
    run = ["node", str(CLI), "run", str(ROOT / "samples/chains/appendix-a.chain"), "--chain", "App"]
    run += ["--iterations", "50"]
    warm = subprocess.run([*run, "-o", str(tmp_path / "warm")], env=env, capture_output=True, text=True, timeout=600)
    assert warm.returncode == 0, warm.stderr  # the build is cached now: a run writes only its own files
    sizes = {p.relative_to(tmp_path / "warm").as_posix(): p.stat().st_size for p in (tmp_path / "warm").rglob("*")}
    # room for every file written before the report's, not for the smallest of these
    limit = max(size for name, size in sizes.items() if name not in REPORT_FILES) + 2048
    assert limit < min(sizes[name] for name in REPORT_FILES if name != "report.json")
    out = tmp_path / "out"
    done = subprocess.run(
        [*run, "-o", str(out)], env=env, capture_output=True, text=True, timeout=600, preexec_fn=_limited(limit)
    )
    assert done.returncode == 1, done.stderr
    [line] = done.stderr.strip().splitlines()
    failed = re.fullmatch(rf"(chainlab: )?error: {re.escape(str(out))}/(\S+): File too large", line)
    assert failed and failed.group(2) in REPORT_FILES, line
    assert not (out / failed.group(2)).exists()  # neither a cut file at its name...
    assert not [p for p in out.rglob("*") if p.name.endswith(".tmp")]  # ...nor a temporary one beside it
    assert not (out / "report.json").exists()  # written last: a report only when every figure is whole
    json.loads((out / "plan.json").read_text())  # what was written before is whole
