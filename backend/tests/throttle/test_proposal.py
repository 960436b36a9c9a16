"""throttle/params on the sample model: proposals, reasoning and refusals (ModelError, never a traceback)."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.throttle.proposal import propose

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(scope="module")
def ir() -> dict[str, Any]:
    out = subprocess.run(
        ["node", str(ROOT / "language/bin/chainlab.js"), "export", "samples/xray.chain", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    return validate_ir(json.loads(out.stdout))


def test_duty_cycle_target(ir: dict[str, Any]) -> None:
    p = propose(ir, "here", isolated_ns=6.9e6)
    assert p["mode"] == "duty-cycle" and p["be_cores"] == [1]
    assert p["proposal"]["sample_ns"] == 100_000 and p["proposal"]["suspend_ns"] >= 100_000
    assert p["reasoning"] and "mode=duty-cycle" in p["daemon_args"]
    assert "event=llc-misses" in p["daemon_args"]


def test_budget_target_with_tasks(ir: dict[str, Any]) -> None:
    tau = {"name": "crit", "C": 30, "T": 100, "D": 40, "CM": 15 / 33e-6}
    p = propose(ir, "lab1", tasks=[tau])
    assert p["mode"] == "budget"
    single, static, dynamic = (p["proposal"][k] for k in ("single", "static", "dynamic"))
    assert 0 < static["Q_ms"] < 10 and 0 < dynamic["Q_ms"] < 10
    assert single["misses"] == int(single["Q_ms"] / 33e-6 + 1e-9)
    assert p["proposal"]["chosen"]["budget_misses"] == static["misses"] // 2


def test_refusals(ir: dict[str, Any]) -> None:
    with pytest.raises(ModelError, match="no target named 'nope'"):
        propose(ir, "nope")
    with pytest.raises(ModelError, match="no slack"):
        propose(ir, "here", isolated_ns=30e6)
