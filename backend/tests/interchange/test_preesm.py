"""Importing PREESM PiSDF with its scenario end to end: the written chain (through `chainlab check`), the notes,
the realistic sample, and every refusal with its file, line, column and element."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from chainlab.interchange.preesm import import_preesm
from chainlab.interchange.xml_input import ImportRefused

from .dataflow_checks import FIXTURES, SAMPLES, assert_checks, needs_node, variant

PI = "preesm-split.pi"
SCENARIO = "preesm-split.scenario"


def pi_variant(tmp_path: Path, old: str, new: str) -> Path:
    """The fixture graph with one change, its scenario beside it."""
    shutil.copy(FIXTURES / SCENARIO, tmp_path / SCENARIO)
    return variant(tmp_path, PI, old, new)


def scenario_variant(tmp_path: Path, old: str, new: str) -> Path:
    """The fixture graph beside its scenario with one change; returns the graph."""
    shutil.copy(FIXTURES / PI, tmp_path / PI)
    variant(tmp_path, SCENARIO, old, new)
    return tmp_path / PI


def refusal(path: Path, scenario: str | None = None) -> str:
    with pytest.raises(ImportRefused) as caught:
        import_preesm(str(path), scenario)
    return str(caught.value)


def test_actors_rates_and_timings_become_a_chain() -> None:
    result = import_preesm(str(FIXTURES / PI))
    assert result.format == "preesm"
    text = result.text
    assert "box Camera {\n    out o: Frame\n    kernel source\n    split none\n    cost 800 us\n}" in text
    assert "    kernel copy\n    split rows  depends pointwise\n    cost 1.2 ms\n" in text  # 4 slices of 300 µs
    assert "box Screen {\n    in  i: Frame\n    kernel sink\n    split none\n    cost 250 us\n}" in text
    assert "image Frame 1024 x 1024 of u16" in text
    notes = " ".join(result.notes)
    for expected in ("height = 1024, slice = 256", "operator type 'x86'", "read as µs", "free-running"):
        assert expected in notes, expected


def test_the_scenario_can_be_named_and_sets_parameters(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / PI, tmp_path / "graph.pi")
    scenario = variant(tmp_path, SCENARIO, "preesm-split.pi", "graph.pi", name="other.scenario")
    scenario.write_text(
        scenario.read_text().replace(
            "</scenario>", '<parameterValues><parameter name="slice" value="512"/></parameterValues></scenario>'
        )
    )
    result = import_preesm(str(tmp_path / "graph.pi"), str(scenario))
    assert "slice = 512 (the scenario)" in " ".join(result.notes)
    assert "cost 600 us" in result.text  # 2 slices of 300 µs


def test_without_a_scenario_the_boxes_have_no_cost(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / PI, tmp_path / PI)
    result = import_preesm(str(tmp_path / PI))
    assert "cost" not in result.text.split("\nplatform")[1]
    assert any("no .scenario beside preesm-split.pi" in n for n in result.notes)
    assert any("no token sizes" in n for n in result.notes)


def test_a_period_and_a_broadcast(tmp_path: Path) -> None:
    path = pi_variant(tmp_path, '<node id="denoise" kind="actor">', '<node id="denoise" kind="broadcast">')
    path.write_text(
        path.read_text().replace('<node id="camera" kind="actor">', '<node id="camera" kind="actor" period="40000">')
    )
    result = import_preesm(str(path))
    assert "source period 40 ms" in result.text and "kernel copy" in result.text
    assert any("broadcast 'denoise'" in n for n in result.notes)


@needs_node
def test_written_chain_passes_check(tmp_path: Path) -> None:
    assert_checks(import_preesm(str(FIXTURES / PI)).text, tmp_path)


@needs_node
def test_realistic_sample_maps_every_element(tmp_path: Path) -> None:
    result = import_preesm(str(SAMPLES / "xray-pipeline.pi"))
    text = result.text
    for expected in ("source period 33.3 ms", "kernel add", "kernel copy", "kernel dup", "kernel sink", "split rows"):
        assert expected in text, expected
    notes = " ".join(result.notes)
    for expected in ("slices = 4 (the scenario)", "rows = 256", "broadcast 'fork'", "operator type 'x86'"):
        assert expected in notes, expected
    assert "image Frame 1024 x 1024 of u16" in text
    assert_checks(text, tmp_path)


@pytest.mark.parametrize(
    "old, new, where, message",
    [
        ('<node id="screen" kind="actor">', '<node id="screen" kind="delay">', ":21:9:", "node 'screen' is a delay"),
        ('<node id="screen" kind="actor">', '<node id="screen" kind="hub">', ":21:9:", 'unknown node kind "hub"'),
        ('<node id="screen" kind="actor">', '<node id="screen" kind="join">', ":21:9:", "node 'screen' is a join"),
        (
            '<port kind="cfg_input" name="slice"/>',
            '<port kind="cfg_output" name="slice"/>',
            ":17:13:",
            "dynamic parameter",
        ),
        ('expr="slice" kind="input"', 'expr="slices" kind="input"', ":18:13:", "names an unknown parameter 'slices'"),
        (
            'expr="slice" kind="input"',
            'expr="slice ** 2" kind="input"',
            ":18:13:",
            'expression "slice ** 2" is not read',
        ),
        ('expr="slice" kind="input"', 'expr="__import__(1)" kind="input"', ":18:13:", "is not read"),
        ('expr="slice" kind="input"', 'expr="slice / 3" kind="input"', ":18:13:", "is not a positive whole number"),
        ('expr="height / 4"', 'expr="height / 0"', ":9:9:", "divides by 0"),
        ('expr="height / 4"', 'expr="slice"', ":9:9:", "parameter 'slice' depends on itself"),
        (
            'target="screen" targetport="i"',
            'target="monitor" targetport="i"',
            ":27:9:",
            "names an unknown actor 'monitor'",
        ),
        (
            '<edge kind="fifo" source="camera"',
            '<edge kind="fifo" delay="d" source="camera"',
            ":26:9:",
            "a delay on a FIFO",
        ),
        (
            '<edge kind="dependency" source="height" target="slice"/>',
            '<edge kind="wire" source="height" target="slice"/>',
            ":29:9:",
            'edge kind "wire"',
        ),
        (
            '<data key="graph_desc">Code/include/screen.h</data>',
            '<data key="graph_desc">Algo/screen.pi</data>',
            ":22:13:",
            "hierarchical sub-graph",
        ),
        (
            '<data key="name">rows</data>',
            '<data key="name">rows</data><hyperedge/>',
            ":7:37:",
            "<hyperedge>: unknown element of <graph>",
        ),
        (
            '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">',
            "<pisdf>",
            ":2:1:",
            "<pisdf>: not a PREESM PiSDF file",
        ),
    ],
)
def test_refused_graphs_name_file_line_and_element(
    tmp_path: Path, old: str, new: str, where: str, message: str
) -> None:
    if old.startswith("<graphml"):
        path = pi_variant(tmp_path, old, new)
        path.write_text(path.read_text().replace("</graphml>", "</pisdf>"))
    else:
        path = pi_variant(tmp_path, old, new)
    text = refusal(path)
    assert text.startswith(str(path) + where), text
    assert message in text, text


@pytest.mark.parametrize(
    "old, new, where, message",
    [
        (
            'time="300" vertexname="rows/denoise"',
            'time="-300" vertexname="rows/denoise"',
            ":15:9:",
            "is negative (-300)",
        ),
        (
            'time="300" vertexname="rows/denoise"',
            'time="fast" vertexname="rows/denoise"',
            ":15:9:",
            "unknown parameter 'fast'",
        ),
        (
            'vertexname="rows/screen"',
            'vertexname="rows/monitor"',
            ":16:9:",
            "a timing of 'rows/monitor', an actor the graph does not have",
        ),
        (
            '<dataType name="row" size="16384"/>',
            '<dataType name="row" size="big"/>',
            ":25:13:",
            'attribute size="big" is not a whole number',
        ),
        ("<simuParams>", "<energy/><simuParams>", ":20:5:", "<energy>: unknown element of <scenario>"),
    ],
)
def test_refused_scenarios_name_their_own_file(tmp_path: Path, old: str, new: str, where: str, message: str) -> None:
    text = refusal(scenario_variant(tmp_path, old, new))
    assert text.startswith(str(tmp_path / SCENARIO) + where), text
    assert message in text, text


def test_a_scenario_for_another_graph_is_refused(tmp_path: Path) -> None:
    shutil.copy(FIXTURES / PI, tmp_path / "graph.pi")
    text = refusal(tmp_path / "graph.pi", str(FIXTURES / SCENARIO))
    assert "the scenario is for preesm-split.pi, not graph.pi" in text


def test_malformed_graph_is_refused(tmp_path: Path) -> None:
    path = pi_variant(tmp_path, "</graph>", "")
    assert "not well-formed XML" in refusal(path)
