"""The shared vectors (tests/ptts-cost-vectors, split-vectors, cycle-vectors) against the backend: the language
checks the same files (language/test/vectors/shared-vectors.test.ts), so editor and backend give one answer."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chainlab.errors import ModelError
from chainlab.plan.chainview import load_chain
from chainlab.plan.instantiate import instantiate
from chainlab.plan.rows import kernel_halo_rows
from chainlab.ptts import api
from chainlab.ptts.cost import cost_summary, over_tree_limit
from chainlab.ptts.grid import compile_grid
from chainlab.ptts.model import parse_model

TESTS = Path(__file__).resolve().parents[2] / "tests"


def vectors(folder: str) -> list[Path]:
    return sorted((TESTS / folder).glob("*.json"))


def load(path: Path) -> dict:
    return json.loads(path.read_text())


@pytest.mark.parametrize("path", vectors("ptts-cost-vectors"), ids=lambda p: p.stem)
def test_ptts_cost_vector(path: Path) -> None:
    vector = load(path)
    ptts = next(p for p in vector["ir"]["ptts"] if p["name"] == vector["ptts"])
    cost = cost_summary(compile_grid(parse_model(ptts)))
    assert {
        "grid_ns": str(cost["grid_ns"]),
        "hyperperiod_ns": str(cost["hyperperiod_ns"]),
        "roots": str(cost["roots"]),
        "branching": [str(b) for b in cost["branching"]],
        "eq_5_15": str(cost["eq_5_15"]),
        "over_tree_limit": over_tree_limit(cost["roots"]),
    } == vector["expected"]


@pytest.mark.parametrize(
    "path", [p for p in vectors("ptts-cost-vectors") if load(p)["expected"]["over_tree_limit"]], ids=lambda p: p.stem
)
def test_over_the_tree_limit_analyze_refuses_for_the_trees_and_ptts_cost_says_so(path: Path) -> None:
    vector = load(path)
    ptts = next(p for p in vector["ir"]["ptts"] if p["name"] == vector["ptts"])
    refused = api.estimate_cost(ptts)["refused"]
    assert refused is not None and f"{vector['expected']['roots']} latency trees (limit" in refused["reason"]


def test_there_are_vectors_on_both_sides_of_the_tree_limit() -> None:
    assert {load(p)["expected"]["over_tree_limit"] for p in vectors("ptts-cost-vectors")} == {True, False}


@pytest.mark.parametrize("path", vectors("split-vectors"), ids=lambda p: p.stem)
def test_split_vector(path: Path) -> None:
    vector = load(path)
    view = load_chain(vector["ir"], vector["chain"])
    inst = instantiate(view)
    instances = {}
    for i in view.instances:
        subs = [inst.subs[s] for s in inst.by_instance[i.index]]
        reads = []
        if i.inputs:
            buffer = view.input_buffer[(i.index, i.inputs[0])]
            for s in subs:  # the rows this sub-box waits for: what it reads
                deps = [d for d in inst.deps if d.dst == s.id and d.buffer == buffer]
                reads.append([min(d.row_start for d in deps), max(d.row_end for d in deps)])
        instances[i.name] = {
            "slices": len(subs),
            "rows": [[s.row_start, s.row_end] for s in subs],
            "depends": i.depends,
            "halo_rows": i.halo_rows,
            "kernel_halo_rows": kernel_halo_rows(i.kernel, i.args),
            "reads": reads,
        }
    assert view.threads == vector["expected"]["threads"]
    assert view.cores[: len(vector["expected"]["cores"])] == vector["expected"]["cores"]
    assert instances == vector["expected"]["instances"]


@pytest.mark.parametrize("path", vectors("cycle-vectors"), ids=lambda p: p.stem)
def test_cycle_vector(path: Path) -> None:
    vector = load(path)
    expected = vector["expected"]
    if expected["cycle"] is None:
        # the plan's order, which codegen takes too (it generates from the plan's ChainView)
        assert [i.name for i in load_chain(vector["ir"], vector["chain"]).instances] == expected["order"]
        return
    with pytest.raises(ModelError) as info:
        load_chain(vector["ir"], vector["chain"])
    assert f"cycle without delay: {expected['cycle']};" in info.value.message
    assert info.value.loc.line == expected["line"]


def test_there_are_cyclic_and_acyclic_vectors() -> None:
    assert {load(p)["expected"]["cycle"] is None for p in vectors("cycle-vectors")} == {True, False}
