"""Writing a chain as SDF3: what it says, and round trips (import → check → export → import) that give the same
chain for what both formats express."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from chainlab.interchange.sdf3 import import_sdf3
from chainlab.interchange.sdf3_export import export_sdf3
from chainlab.interchange.xml_input import read_xml

from .dataflow_checks import FIXTURES, REPO, SAMPLES, assert_checks, chainlab, needs_node, without_comments

pytestmark = needs_node


def exported_ir(path: Path) -> dict[str, Any]:
    out = chainlab("export", str(path), "--json")
    assert out.returncode == 0, out.stdout + out.stderr
    return json.loads(out.stdout)


def round_trip(source: Path, tmp_path: Path) -> tuple[str, str]:
    """The chain imported from `source`, and the chain imported from its SDF3 export."""
    first = import_sdf3(str(source)).text
    chain = assert_checks(first, tmp_path, "first.chain")
    ir = exported_ir(chain)
    written = tmp_path / "exported.sdf3.xml"
    written.write_text(export_sdf3(ir, ir["chains"][0]["name"]).text, encoding="utf-8")
    second = import_sdf3(str(written)).text
    assert_checks(second, tmp_path, "second.chain")
    return first, second


@pytest.mark.parametrize(
    "source", [FIXTURES / "sdf3-pipeline.xml", FIXTURES / "sdf3-split.xml", SAMPLES / "xray-pipeline.sdf3.xml"]
)
def test_round_trip_gives_the_same_chain(source: Path, tmp_path: Path) -> None:
    first, second = round_trip(source, tmp_path)
    assert without_comments(second) == without_comments(first)


def test_a_sample_chain_exports_actors_rates_times_and_throughput(tmp_path: Path) -> None:
    ir = exported_ir(REPO / "samples" / "chains" / "fig3-5.chain")
    result = export_sdf3(ir, "Fig35")
    doc = read_xml(_write(tmp_path, result.text))
    actors = {a.get("name"): a for a in doc.root.iter("actor")}
    assert set(actors) == {"src", "conv", "dup", "add", "store", "gain", "mul", "output"}
    assert actors["conv"].get("type") == "Conv"
    # conv is split into 4 slices (threads 4): it takes a quarter of the source's frame per firing
    rates = {(a, p.get("name")): p.get("rate") for a, e in actors.items() for p in e.iter("port")}
    assert rates[("src", "toConv")] == "4" and rates[("conv", "i")] == "1" and rates[("output", "i")] == "4"
    times = {p.get("actor"): p.find("processor/executionTime").get("time") for p in doc.root.iter("actorProperties")}
    assert times["conv"] == "800" and times["src"] == "1200"  # µs per firing: 3.2 ms / 4, 1.2 ms
    assert doc.root.find("applicationGraph/sdfProperties/graphProperties/timeConstraints/throughput").text.startswith(
        "0.0000150"
    )
    sizes = {c.get("channel"): c.find("tokenSize").get("sz") for c in doc.root.iter("channelProperties")}
    assert set(sizes.values()) == {str(2 * 1024 * 1024 * 8 // 4)}
    notes = " ".join(result.notes)
    assert "kernels convolution, gain, mul are not SDF3's" in notes and "fires 4 times per frame" in notes
    assert_checks(import_sdf3(str(_write(tmp_path, result.text))).text, tmp_path)


def test_an_output_feeding_several_inputs_gets_a_port_per_channel(tmp_path: Path) -> None:
    chain = tmp_path / "fan.chain"
    chain.write_text(
        "platform P { cores 2 }\nimage F 64 x 64 of u8\n"
        "box S { out o: F  source period 10 ms  split none  cost 1 ms }\n"
        "box K { in i: F  kernel sink  split none  cost 150 ns }\n"
        "chain Fan on P { s: S  a: K  b: K  s.o -> a.i  s.o -> b.i }\n"
    )
    result = export_sdf3(exported_ir(chain), "Fan")
    assert (
        '<port name="o" type="out" rate="1"/>' in result.text
        and '<port name="o_2" type="out" rate="1"/>' in result.text
    )
    assert '<sdfProperties timeUnit="ns">' in result.text and '<executionTime time="150"/>' in result.text
    assert any("feeds several inputs" in n for n in result.notes)
    assert_checks(import_sdf3(str(_write(tmp_path, result.text))).text, tmp_path)


def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "written.sdf3.xml"
    path.write_text(text, encoding="utf-8")
    return path
