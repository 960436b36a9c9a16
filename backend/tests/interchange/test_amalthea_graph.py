"""Activity graphs: Ticks with every deviation read, calls, groups, dropped items and refused ones."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from chainlab.interchange.amalthea_graph import read_graph
from chainlab.interchange.amalthea_ticks import Ticks
from chainlab.interchange.amalthea_xml import id_map, kid
from chainlab.interchange.xml_input import ImportRefused
from tests.interchange.amalthea_helpers import amalthea_doc


def graph_of(tmp_path: Path, items: str):
    doc = amalthea_doc(tmp_path, f'<runnables name="R"><activityGraph>{items}</activityGraph></runnables>')
    owner = kid(doc.root, "runnables")
    assert owner is not None
    return read_graph(doc, owner, id_map(doc.root))


def ticks(deviation: str) -> str:
    return f'<items xsi:type="am:Ticks"><default {deviation}</default></items>'


@pytest.mark.parametrize(
    ("deviation", "expected"),
    [
        ('xsi:type="am:DiscreteValueConstant" value="42">', Ticks.point(42)),
        ('xsi:type="am:DiscreteValueConstant">', Ticks.point(0)),
        ('xsi:type="am:DiscreteValueUniformDistribution" lowerBound="3" upperBound="9">', Ticks(3, 9)),
        ('xsi:type="am:DiscreteValueBoundaries" lowerBound="3" upperBound="9" samplingType="Uniform">', Ticks(3, 9)),
        (
            'xsi:type="am:DiscreteValueBoundaries" lowerBound="3" upperBound="9" samplingType="WorstCase">',
            Ticks.point(9),
        ),
        (
            'xsi:type="am:DiscreteValueBoundaries" lowerBound="3" upperBound="9" samplingType="BestCase">',
            Ticks.point(3),
        ),
        (
            'xsi:type="am:DiscreteValueHistogram"><entries lowerBound="5" upperBound="5" occurrences="3"/>'
            '<entries lowerBound="7" upperBound="7"/>',
            Ticks(5, 7, {5: Fraction(3, 4), 7: Fraction(1, 4)}),
        ),
    ],
)
def test_deviations_read(tmp_path: Path, deviation: str, expected: Ticks) -> None:
    graph = graph_of(tmp_path, ticks(deviation))
    assert graph.needs[0].default == expected


def test_a_histogram_bin_wider_than_a_tick_goes_to_its_upper_bound(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        ticks(
            'xsi:type="am:DiscreteValueHistogram"><entries lowerBound="5" upperBound="6"/>'
            '<entries lowerBound="8" upperBound="8"/>'
        ),
    )
    assert graph.needs[0].default == Ticks(6, 8, {6: Fraction(1, 2), 8: Fraction(1, 2)})
    assert graph.histogram_ranges == 1


@pytest.mark.parametrize(
    ("deviation", "message"),
    [
        (
            'xsi:type="am:DiscreteValueGaussDistribution" mean="5" sd="1">',
            "DiscreteValueGaussDistribution is not an exact",
        ),
        ('xsi:type="am:DiscreteValueStatistics" lowerBound="1" upperBound="3" average="2">', "DiscreteValueStatistics"),
        ('xsi:type="am:DiscreteValueBoundaries" lowerBound="1" upperBound="3">', "samplingType 'Default' is no distr"),
        ('xsi:type="am:DiscreteValueUniformDistribution" lowerBound="9" upperBound="3">', "upperBound 3 is below"),
        ('xsi:type="am:DiscreteValueConstant" value="-4">', "value='-4' must be at least 0"),
        ('xsi:type="am:DiscreteValueConstant" value="4.5">', "value='4.5' is not a whole number"),
        ('xsi:type="am:DiscreteValueHistogram">', "the DiscreteValueHistogram has no entries"),
    ],
)
def test_deviations_refused_by_name(tmp_path: Path, deviation: str, message: str) -> None:
    with pytest.raises(ImportRefused, match=message) as caught:
        graph_of(tmp_path, ticks(deviation))
    assert ":3:" in str(caught.value)


def test_calls_groups_extended_ticks_and_dropped_items(tmp_path: Path) -> None:
    graph = graph_of(
        tmp_path,
        '<items xsi:type="am:Group"><items xsi:type="am:RunnableCall" runnable="Inner?type=Runnable"/>'
        '<items xsi:type="am:LabelAccess" data="L?type=Label"/></items>'
        '<items xsi:type="am:Ticks"><extended key="Gpu?type=ProcessingUnitDefinition">'
        '<value xsi:type="am:DiscreteValueConstant" value="10"/></extended></items>'
        '<items xsi:type="am:SetEvent"/>',
    )
    assert [name for name, _ in graph.calls] == ["Inner"]
    assert graph.needs[0].for_definition("Gpu") == Ticks.point(10)
    assert graph.needs[0].for_definition("Cpu") is None
    assert dict(graph.dropped) == {"LabelAccess": 1, "SetEvent": 1}


@pytest.mark.parametrize("kind", ["Switch", "ProbabilitySwitch", "WhileLoop"])
def test_branches_and_loops_are_refused(tmp_path: Path, kind: str) -> None:
    with pytest.raises(ImportRefused, match=f"a {kind} makes the execution time depend on a branch or loop"):
        graph_of(tmp_path, f'<items xsi:type="am:{kind}"/>')


def test_ticks_without_any_value(tmp_path: Path) -> None:
    with pytest.raises(ImportRefused, match="neither a default nor an extended value"):
        graph_of(tmp_path, '<items xsi:type="am:Ticks"/>')
