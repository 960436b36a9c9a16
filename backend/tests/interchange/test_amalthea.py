"""Importing an Amalthea model end to end: the written ptts text, its notes, the sample through `chainlab check`
and `chainlab analyze`, and every refusal with its file, line, column and element."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from chainlab.interchange.amalthea import import_amalthea
from chainlab.interchange.xml_input import ImportRefused

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[3]
SAMPLE = REPO / "samples" / "import" / "xray-system.amxmi"
CLI = REPO / "language" / "bin" / "chainlab.js"
TWO_TASKS = (FIXTURES / "amalthea-two-tasks.amxmi").read_text(encoding="utf-8")

needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not (REPO / "language" / "out" / "cli").is_dir(),
    reason="node or the built CLI (cd language && npx tsc -b) missing",
)


def variant(tmp_path: Path, old: str, new: str, name: str = "model.amxmi") -> Path:
    """The two-task fixture with `old` replaced by `new` (which must occur), as a real file."""
    assert old in TWO_TASKS, old
    path = tmp_path / name
    path.write_text(TWO_TASKS.replace(old, new), encoding="utf-8")
    return path


def refusal(path: Path) -> str:
    with pytest.raises(ImportRefused) as caught:
        import_amalthea(str(path))
    return str(caught.value)


def line_of(path: Path, text: str) -> int:
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1) if text in line)


def test_two_periodic_tasks_become_one_ptts_in_event_chain_order() -> None:
    result = import_amalthea(str(FIXTURES / "amalthea-two-tasks.amxmi"))
    assert result.format == "amalthea"
    assert "ptts Frame {" in result.text
    assert "    resolution 10 us\n" in result.text
    assert "    component Camera  period 10 ms  offset 0 ms  etp point 2 ms\n" in result.text
    filter_text = result.text[result.text.index("component Filter") : result.text.index("require")]
    # uniform 1000..1003 ticks + {500: 3/4, 700: 1/4} ticks at 1 GHz: eight points, exact
    assert filter_text.startswith("component Filter  period 4 ms  offset 1 ms  etp pmf {\n")
    assert filter_text.count(": 0.1875") == 4 and filter_text.count(": 0.0625") == 4
    assert "1.5 us: 0.1875" in filter_text and "1.703 us: 0.0625" in filter_text
    assert "    require latency <= 20 ms with probability >= 100 %\n" in result.text
    assert result.text.index("component Camera") < result.text.index("component Filter")
    assert result.text.startswith("// Imported from amalthea-two-tasks.amxmi (APP4MC Amalthea 3.3.0)")


def test_every_note_is_also_a_comment_at_the_top() -> None:
    result = import_amalthea(str(SAMPLE))
    header = result.text.split("\n\n", 1)[0]
    assert result.notes
    for note in result.notes:
        assert f"// {note}" in header
    joined = "\n".join(result.notes)
    for expected in (
        "task 'Service' is activated by SporadicStimulus 'ServiceRequest' only",
        "in no event chain, left out: Housekeeping",
        "its ticks are read at 'Core_Gpu' (1500 MHz)",
        "'Denoise': 1 histogram bin(s) wider than one tick",
        "latency constraint 'WallFreshness': its minimum is left out",
        "event chain 'Xray-to-Wall' is written as ptts Xray_to_Wall",
        "1 OS overhead, 1 label, 2 LabelAccess item",
    ):
        assert expected in joined


def test_the_sample_maps_every_element() -> None:
    text = import_amalthea(str(SAMPLE)).text
    assert "component Acquire  period 66.6 ms  offset 0 ms  etp uniform 25 ms .. 29 ms step 10 ns" in text
    # the GPU's own ticks for Enhance (extended), Denoise and Sharpen histograms summed; offset given in ps
    assert "component Process  period 33.3 ms  offset 2 ms  etp pmf { 8 ms: 0.63, 9 ms: 0.295, 10 ms: 0.07, " in text
    assert "component Display  period 16.7 ms  offset 0 ms  etp uniform 8.2 ms .. 9.2 ms step 2 ns" in text
    assert "require latency <= 160 ms with probability >= 100 %" in text
    assert "require latency <= 80 ms with probability >= 100 %" in text
    assert "// event chain 'Xray-to-Wall': Acquire -> Process -> Display" in text


@needs_node
def test_the_imported_sample_checks_and_the_exact_analysis_runs(tmp_path: Path) -> None:
    model = tmp_path / "xray-system.chain"
    model.write_text(import_amalthea(str(SAMPLE)).text, encoding="utf-8")
    fixture = tmp_path / "two-tasks.chain"  # a pmf over several lines, a resolution, a converted uniform
    fixture.write_text(import_amalthea(str(FIXTURES / "amalthea-two-tasks.amxmi")).text, encoding="utf-8")
    check = subprocess.run(
        ["node", str(CLI), "check", str(model), str(fixture)], capture_output=True, text=True, timeout=120
    )
    assert check.returncode == 0, check.stdout + check.stderr
    assert "2 file(s) checked: 0 error(s), 0 warning(s)" in check.stdout + check.stderr
    run = subprocess.run(
        ["node", str(CLI), "analyze", str(model), "--ptts", "Xray_to_Wall", "--json"],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=tmp_path,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout)
    assert result["name"] == "Xray_to_Wall" and result["roots"] == 167
    assert 51 <= result["min_ms"] <= result["max_ms"] <= 160
    assert [r["passed"] for r in result["requirements"]] == [True]


def test_without_event_chains_all_periodic_tasks_in_sw_model_order(tmp_path: Path) -> None:
    start, end = TWO_TASKS.index("  <constraintsModel>"), TWO_TASKS.index("</constraintsModel>\n") + 20
    path = variant(tmp_path, TWO_TASKS[start:end], "", name="no-chain.amxmi")
    result = import_amalthea(str(path))
    assert "ptts no_chain {" in result.text and "require" not in result.text
    assert "no event chain: the components follow the order of the tasks in the swModel" in result.notes


def test_ticks_off_the_ns_grid_are_rounded_up_and_said(tmp_path: Path) -> None:
    path = variant(tmp_path, '<defaultValue value="1" unit="GHz"/>', '<defaultValue value="3" unit="GHz"/>')
    result = import_amalthea(str(path))
    assert "etp point 666.667 us" in result.text  # 2000000 / 3 GHz = 666666.67 ns, rounded up
    assert any("not whole ns; times rounded up by less than 1 ns" in n for n in result.notes)


def test_references_by_id_are_read(tmp_path: Path) -> None:
    path = variant(tmp_path, '<runnables name="Grab">', '<runnables name="Grab" xmi:id="_grab">')
    path.write_text(path.read_text().replace('runnable="Grab?type=Runnable"', 'runnable="_grab"'))
    assert "component Camera  period 10 ms  offset 0 ms  etp point 2 ms" in import_amalthea(str(path)).text


def test_malformed_xml_names_the_line() -> None:
    message = refusal(FIXTURES / "amalthea-malformed.amxmi")
    assert re.search(r"amalthea-malformed\.amxmi:5:\d+: error: not well-formed XML", message), message


def test_a_doctype_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "entities.amxmi"
    path.write_text('<?xml version="1.0"?>\n<!DOCTYPE a [<!ENTITY x "y">]>\n' + TWO_TASKS.split("\n", 1)[1])
    assert "DOCTYPE" in refusal(path)


def test_another_root_is_refused() -> None:
    message = refusal(FIXTURES / "amalthea-wrong-root.amxmi")
    assert "amalthea-wrong-root.amxmi:2:1: error: <SWModel>: not an Amalthea model" in message


def test_another_schema_version_is_named_with_the_one_read() -> None:
    message = refusal(FIXTURES / "amalthea-old-version.amxmi")
    assert "amalthea-old-version.amxmi:3:1:" in message
    assert "this is Amalthea 2.2.0 (http://app4mc.eclipse.org/amalthea/2.2.0)" in message
    assert "chainlab reads Amalthea 3.3.0" in message


def test_a_periodic_stimulus_without_recurrence(tmp_path: Path) -> None:
    path = variant(tmp_path, '      <recurrence value="4" unit="ms"/>\n', "")
    message = refusal(path)
    line = line_of(path, 'name="Every4ms"')
    assert f"model.amxmi:{line}:5: error: <stimuli>: the PeriodicStimulus 'Every4ms' has no recurrence" in (message)


def test_a_task_without_runnables(tmp_path: Path) -> None:
    calls = (
        '        <items xsi:type="am:RunnableCall" runnable="Smooth?type=Runnable"/>\n'
        '        <items xsi:type="am:RunnableCall" runnable="Edges?type=Runnable"/>\n'
    )
    path = variant(tmp_path, calls, "")
    message = refusal(path)
    line = line_of(path, 'name="Filter"')
    assert f"model.amxmi:{line}:5: error: <tasks>: task 'Filter' calls no" in message


def test_an_unsupported_distribution_is_named(tmp_path: Path) -> None:
    weibull = (
        '<default xsi:type="am:DiscreteValueWeibullEstimatorsDistribution" lowerBound="900" upperBound="1100" '
        'average="1000" pRemainPromille="0.5"/>'
    )
    path = variant(
        tmp_path,
        '<default xsi:type="am:DiscreteValueUniformDistribution" lowerBound="1000" upperBound="1003"/>',
        weibull,
    )
    message = refusal(path)
    line = line_of(path, "Weibull")
    assert f"model.amxmi:{line}:11: error: <default>: the deviation DiscreteValueWeibullEstimators" in message
    assert "DiscreteValueHistogram" in message


def test_a_negative_time(tmp_path: Path) -> None:
    path = variant(tmp_path, '<offset value="1" unit="ms"/>', '<offset value="-1" unit="ms"/>')
    message = refusal(path)
    line = line_of(path, 'value="-1"')
    assert f"model.amxmi:{line}:7: error: <offset>: the time -1 ms is negative" in message


def test_a_time_finer_than_a_nanosecond(tmp_path: Path) -> None:
    path = variant(tmp_path, '<offset value="1" unit="ms"/>', '<offset value="1500" unit="ps"/>')
    assert "the time 1500 ps is not a whole number of ns" in refusal(path)


@pytest.mark.parametrize(
    ("old", "new", "expected"),
    [
        ('runnable="Grab?type=Runnable"', 'runnable="Grap?type=Runnable"', "runnable: no runnable named 'Grap'"),
        ('stimuli="Every4ms?type=', 'stimuli="Every5ms?type=', "stimuli: no stimulus named 'Every5ms'"),
        ('response="FilterEnd?type=', 'response="FilterStop?type=', "response: no event named 'FilterStop'"),
        ('scope="Frame?type=', 'scope="Frames?type=', "scope: no event chain named 'Frames'"),
        ('frequencyDomain="Clock?type=', 'frequencyDomain="Clocks?type=', "no FrequencyDomain named 'Clocks'"),
        ('runnable="Grab?type=Runnable"', 'runnable="_nowhere"', "'_nowhere' is neither a `name?type=...`"),
    ],
)
def test_unknown_references_are_named(tmp_path: Path, old: str, new: str, expected: str) -> None:
    path = variant(tmp_path, old, new)
    message = refusal(path)
    assert expected in message
    assert re.match(rf"{re.escape(str(path))}:{line_of(path, new)}:\d+: error: <\w+>: ", message), message


def test_a_branch_in_an_activity_graph_is_refused(tmp_path: Path) -> None:
    path = variant(
        tmp_path,
        '<items xsi:type="am:RunnableCall" runnable="Edges?type=Runnable"/>',
        '<items xsi:type="am:ProbabilitySwitch"/>',
    )
    assert "a ProbabilitySwitch makes the execution time depend on a branch or loop" in refusal(path)


def test_an_event_chain_through_a_task_that_is_not_periodic(tmp_path: Path) -> None:
    path = variant(tmp_path, 'stimuli="Every4ms?type=PeriodicStimulus"', "")
    message = refusal(path)
    assert "event chain 'Frame': task 'Filter' is not activated by a PeriodicStimulus" in message


def test_a_core_without_a_clock(tmp_path: Path) -> None:
    path = variant(tmp_path, ' frequencyDomain="Clock?type=FrequencyDomain"', "")
    message = refusal(path)
    assert "task 'Camera': no ProcessingUnit in the hwModel has a FrequencyDomain" in message
