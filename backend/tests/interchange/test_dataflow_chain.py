"""A checked graph as a chain: kernels by shape, costs of all firings, one image type from the token sizes."""

from __future__ import annotations

from fractions import Fraction
from xml.etree.ElementTree import Element

import pytest

from chainlab.interchange.dataflow import DataflowGraph, DfActor, DfChannel, DfPort
from chainlab.interchange.dataflow_chain import graph_to_chain, import_result
from chainlab.interchange.xml_input import ImportRefused, XmlDocument


def two_actors(rate: int = 1, token_bits: int | None = None, outs: int = 1) -> DataflowGraph:
    g = DataflowGraph("two actors", XmlDocument("g.xml", Element("sdf3")))
    src = DfActor(
        "src", [DfPort(f"o{k}", "out", 1, Element("port")) for k in range(outs)], Element("actor"), Fraction(5)
    )
    snk = DfActor("snk", [DfPort("i", "in", rate, Element("port"))], Element("actor"), Fraction(1, 3))
    g.actors = [src, snk]
    g.channels = [DfChannel("c", "src", "o0", "snk", "i", Element("channel"), token_bits=token_bits)]
    return g


def test_costs_are_all_firings_in_ns_and_rounded_with_a_note() -> None:
    chain = graph_to_chain(two_actors(rate=2), "g.xml", "SDF3")
    assert chain.name == "TwoActors" and chain.platform == "TwoActorsPC"
    src, snk = chain.boxes
    assert (src.kernel, src.cost_ns, snk.kernel, snk.cost_ns) == ("source", 10_000, "sink", 333)  # 2 × 5 µs; 1/3 µs
    assert any("rounded to whole nanoseconds" in n for n in chain.notes)
    assert any("fires 2 times per frame; a chain's source runs once per frame" in n for n in chain.notes)


@pytest.mark.parametrize(
    "bits, shape",
    [
        (8 * 2 * 640 * 480, (600, 512, "u16")),
        (8 * 7, (7, 1, "u8")),
        (12, (1, 1, "u16")),
        (8 * 1024 * 3, (48, 32, "u16")),
        (8 * 441, (21, 21, "u8")),
    ],
)
def test_image_shape_from_the_frame_size(bits: int, shape: tuple[int, int, str]) -> None:
    image = graph_to_chain(two_actors(token_bits=bits), "g.xml", "SDF3").image
    assert (image.width, image.height, image.pixel) == shape


def test_a_frame_above_1_gib_is_refused() -> None:
    with pytest.raises(ImportRefused, match="at most 1 GiB"):
        graph_to_chain(two_actors(token_bits=8 << 31), "g.xml", "SDF3")


def test_unconnected_outputs_are_noted() -> None:
    chain = graph_to_chain(two_actors(outs=2), "g.xml", "SDF3")
    assert chain.boxes[0].outputs == ["o0", "o1"]
    assert any("output port 'o1' of actor 'src' has no channel" in n for n in chain.notes)


def test_a_chain_above_the_size_of_a_chain_file_is_refused() -> None:
    g = DataflowGraph("many", XmlDocument("g.xml", Element("sdf3")))
    for k in range(30_000):
        g.actors.append(DfActor(f"source_number_{k}", [DfPort("o", "out", 1, Element("port"))], Element("actor")))
    with pytest.raises(ImportRefused, match=r"a \.chain has at most 4 MiB"):
        import_result(g, "g.xml", "SDF3", "sdf3")
