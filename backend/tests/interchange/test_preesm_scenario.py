"""Finding and reading a PREESM scenario: the one beside the graph that names it."""

from __future__ import annotations

import shutil
from pathlib import Path

from chainlab.interchange.preesm_scenario import find_scenario, read_scenario

from .dataflow_checks import FIXTURES


def test_the_scenario_beside_the_graph_that_names_it(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / "preesm-split.pi", tmp_path / "preesm-split.pi")
    (tmp_path / "a-other.scenario").write_text(
        '<scenario><files><algorithm url="/x/Algo/other.pi"/></files></scenario>'
    )
    (tmp_path / "b-broken.scenario").write_text("<scenario>")
    assert find_scenario(str(tmp_path / "preesm-split.pi")) is None
    shutil.copy(FIXTURES / "preesm-split.scenario", tmp_path / "c.scenario")
    assert find_scenario(str(tmp_path / "preesm-split.pi")) == str(tmp_path / "c.scenario")


def test_timings_sizes_and_parameters() -> None:
    scenario = read_scenario(str(FIXTURES / "preesm-split.scenario"), "preesm-split.pi")
    assert [(t.vertex, t.operator, t.time) for t in scenario.timings][:2] == [
        ("rows/camera", "x86", "800"),
        ("rows/denoise", "x86", "300"),
    ]
    assert scenario.type_bits("row") == 16384 and scenario.type_bits("pixel") is None
    assert scenario.parameters == {}
