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
        (3, 5, {}),  # issue 17 (CLI fuzz): a small chain drew more inputs and outputs than it has boxes
        (4, 42, {}),
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


@pytest.mark.parametrize("boxes", [3, 4, 5, 6])
def test_small_chains_fit_inputs_and_outputs_to_their_boxes(boxes):
    """`chainlab synth --boxes 2`-`6` was an internal error for some seeds (issue 17, found by the CLI fuzz)."""
    for seed in range(40):
        chain = generate(boxes, seed)
        assert len(chain.nodes) == boxes and chain.n_in + chain.n_out + 1 <= boxes


@pytest.mark.parametrize("boxes", [0, 2, 50001, 10**12, True, "5"])
def test_synth_method_refuses_boxes_outside_the_contract(boxes):
    from chainlab.errors import ModelError
    from chainlab.rpc.plan_methods import synth

    with pytest.raises(ModelError, match="from 3 to 50000"):
        synth({"boxes": boxes}, None)  # type: ignore[arg-type]
