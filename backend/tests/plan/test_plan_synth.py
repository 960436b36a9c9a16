"""The synthetic chain generator: valid .chain text (checked by the language), plannable, seeded."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from plan_helpers import export_ir, node_available

from chainlab.plan import PlanOptions, make_plan
from chainlab.synth import generate, synth_chain_ir, synth_chain_text

needs_node = pytest.mark.skipif(not node_available(), reason="node or language/bin/chainlab.js missing")


def strip_locs(value):
    if isinstance(value, dict):
        return {k: strip_locs(v) for k, v in value.items() if k not in ("loc", "source")}
    if isinstance(value, list):
        return [strip_locs(v) for v in value]
    return value


def test_generator_shape_and_determinism():
    chain = generate(100, 42)
    assert len(chain.nodes) == 100
    kinds = {b.kernel for b in chain.boxes.values()}
    assert {"average", "add", "convolution", "source", "sink"} <= kinds
    assert 1 <= chain.n_in <= 3 and 1 <= chain.n_out <= 3
    assert synth_chain_text(100, 42) == synth_chain_text(100, 42) != synth_chain_text(100, 43)
    several = {generate(60, s).n_in for s in range(20)} | {generate(60, s).n_out for s in range(20)}
    assert len(several) > 1


@needs_node
@pytest.mark.parametrize(
    "boxes, seed, options",
    [
        (100, 1, {}),
        (37, 2, {"period_ms": 66.6, "threads": 2, "heuristic": "fixed"}),
        (12, 3, {"inputs": 3, "outputs": 3, "pixel": "f32", "memory": "simple"}),
    ],
)
def test_generated_text_checks_exports_and_plans(boxes, seed, options):
    text = synth_chain_text(boxes, seed, **options)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "synth.chain"
        path.write_text(text)
        ir = export_ir(path)  # fails on any error the language reports
    assert strip_locs(ir) == strip_locs(synth_chain_ir(boxes, seed, **options))
    plan = make_plan(ir, "Synth", PlanOptions(predict=False))
    assert plan.check.ok and len(plan.chain.instances) == boxes


@needs_node
def test_cli_check_reports_no_warnings():
    import subprocess

    from plan_helpers import CLI

    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "synth.chain"
        path.write_text(synth_chain_text(100, 9))
        out = subprocess.run(["node", str(CLI), "check", str(path)], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stdout + out.stderr
    assert "0 error(s), 0 warning(s)" in out.stdout + out.stderr


def test_too_few_boxes():
    with pytest.raises(ValueError):
        synth_chain_text(3, 0, inputs=2, outputs=2)
