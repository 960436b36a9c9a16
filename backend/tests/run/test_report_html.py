"""report.html as one self-contained page: the embedded report cannot end its script element, NaN does not break
it, its CSP allows exactly its one script, and without the built script the numbers are still on the page."""

from __future__ import annotations

import base64
import hashlib
import json
import math
import re

import pytest

from chainlab.run import report_html as page
from chainlab.run.report import RunReport
from chainlab.run.report_html import embedded_json, report_html


def _report() -> RunReport:
    stats = {"samples": 3, "mean_ns": 2e6, "p50_ns": 2e6, "p99_ns": 3e6, "max_ns": 3e6}
    scenario = {
        "scenario": "baseline",
        "status": "ok",
        "completed": 3,
        "iterations": 3,
        "measured": stats,
        "overloaded": True,
        "ks": math.nan,
        "histogram_ms": [[2.0, 1.0]],
    }
    return RunReport(
        "ok",
        "C",
        "here",
        "local",
        "/tmp/run",
        iterations=3,
        scenarios=[scenario],
        diagnosis=["a </script><script>alert(1)</script> in a sentence"],
        phases_s={"run baseline": 0.25},
    )


def test_the_embedded_report_cannot_close_its_script_and_has_no_nan() -> None:
    text = embedded_json(_report())
    assert "</" not in text and "<" not in text
    back = json.loads(text)
    assert back["scenarios"][0]["ks"] is None
    assert back["diagnosis"] == ["a </script><script>alert(1)</script> in a sentence"]


def test_the_csp_allows_the_inline_script_by_its_hash_and_nothing_else() -> None:
    html = report_html(_report())
    scripts = re.findall(r"<script>(.*?)</script>\n</body>", html, re.S)
    assert len(scripts) == 1 and scripts[0]
    digest = base64.b64encode(hashlib.sha256(scripts[0].encode()).digest()).decode()
    assert f"script-src 'sha256-{digest}'" in html and "default-src 'none'" in html
    assert not re.search(r"\s(src|href)\s*=", html) and "<link" not in html
    # the summary for a reader without scripts: words, not Python's values
    noscript = re.search(r"<noscript>(.*)</noscript>", html, re.S)
    assert noscript and "measured baseline" in noscript[1] and "ok, overloaded" in noscript[1]
    assert not re.search(r"\b(True|False|None|nan)\b|\{'", noscript[1])


def test_without_its_built_script_the_page_shows_the_numbers(monkeypatch: pytest.MonkeyPatch) -> None:
    def missing() -> tuple[str, str]:
        raise FileNotFoundError("not built")

    monkeypatch.setattr(page, "report_assets", missing)
    html = report_html(_report(), '<?xml version="1.0"?>\n<!DOCTYPE svg>\n<svg id="cdf"></svg>')
    assert "<noscript>" not in html and 'class="static-summary"' in html
    assert '<figure class="chart"><svg id="cdf"></svg></figure>' in html
