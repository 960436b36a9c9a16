"""The checks every dataflow graph goes through: the repetition vector, what maps to a chain and what is refused."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from xml.etree.ElementTree import Element

import pytest

from chainlab.interchange.dataflow import DataflowGraph, DfActor, DfChannel, DfPort, check_graph, time_value
from chainlab.interchange.xml_input import ImportRefused, XmlDocument, read_xml


def graph(
    actors: dict[str, list[tuple[str, str, int]]], channels: list[tuple[str, str, str, str, int]]
) -> DataflowGraph:
    """actors: name → [(port, in|out, rate)]; channels: (src, port, dst, port, initial tokens)."""
    doc = XmlDocument("g.xml", Element("sdf3"))
    g = DataflowGraph("g", doc)
    g.actors = [
        DfActor(n, [DfPort(p, d, r, Element("port")) for p, d, r in ports], Element("actor"))
        for n, ports in actors.items()
    ]
    g.channels = [
        DfChannel(f"c{i}", s, sp, d, dp, Element("channel"), t) for i, (s, sp, d, dp, t) in enumerate(channels)
    ]
    return g


def test_repetitions_of_a_split_pipeline_and_merge() -> None:
    g = graph(
        {
            "src": [("o", "out", 8)],
            "f": [("i", "in", 2), ("o", "out", 2)],
            "g": [("i", "in", 2), ("o", "out", 2)],
            "snk": [("i", "in", 8)],
        },
        [("src", "o", "f", "i", 0), ("f", "o", "g", "i", 0), ("g", "o", "snk", "i", 0)],
    )
    assert check_graph(g) == {"src": 1, "f": 4, "g": 4, "snk": 1}


def test_separate_parts_are_normalised_each() -> None:
    g = graph(
        {"a": [("o", "out", 3)], "b": [("i", "in", 1)], "c": [("o", "out", 1)], "d": [("i", "in", 1)]},
        [("a", "o", "b", "i", 0), ("c", "o", "d", "i", 0)],
    )
    assert check_graph(g) == {"a": 1, "b": 3, "c": 1, "d": 1}


def test_a_state_self_loop_is_dropped_with_its_ports() -> None:
    g = graph(
        {"a": [("o", "out", 1)], "b": [("i", "in", 1), ("s", "in", 1), ("t", "out", 1)]},
        [("a", "o", "b", "i", 0), ("b", "t", "b", "s", 1)],
    )
    check_graph(g)
    assert [c.name for c in g.channels] == ["c0"] and [p.name for p in g.actors[1].ports] == ["i"]
    assert "state" in g.notes[0]


@pytest.mark.parametrize(
    "actors, channels, message",
    [
        ({}, [], "the graph has no actors"),
        ({"a": [("o", "out", 1)], "b": [("i", "in", 0)]}, [("a", "o", "b", "i", 0)], "has rate 0"),
        ({"a": [("o", "out", 1)], "b": [("i", "in", 1)]}, [("a", "o", "b", "i", 1)], "carries 1 initial token"),
        (
            {"a": [("o", "out", 1)], "a2": [("i", "in", 1), ("o", "out", 1)]},
            [("a", "o", "a2", "i", 0), ("a2", "o", "a2", "i", 0)],
            "uses port",
        ),
        ({"a": [("o", "out", 1)], "b": [("i", "in", 1)], "b ": []}, [("a", "o", "c", "i", 0)], "unknown actor 'c'"),
    ],
)
def test_refusals(actors, channels, message: str) -> None:
    with pytest.raises(ImportRefused, match=message):
        check_graph(graph(actors, channels))


def test_time_values_are_exact_and_not_negative(tmp_path: Path) -> None:
    path = tmp_path / "t.xml"
    path.write_text("<t/>")
    doc = read_xml(path)
    assert time_value(doc, doc.root, "0.1", "time") == Fraction(1, 10)
    assert time_value(doc, doc.root, "3e-05", "time") == Fraction(3, 100000)
    for bad, message in (("-1", "negative"), ("nan", "not a number"), ("inf", "not a number"), ("1/0", "not a number")):
        with pytest.raises(ImportRefused, match=message):
            time_value(doc, doc.root, bad, "time")
