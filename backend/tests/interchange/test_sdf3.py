"""Importing SDF3 end to end: the written chain (through `chainlab check`), its notes, the realistic sample, and
every refusal with its file, line, column and element."""

from __future__ import annotations

from pathlib import Path

import pytest

from chainlab.files import UserFileError
from chainlab.interchange.sdf3 import import_sdf3
from chainlab.interchange.xml_input import ImportRefused

from .dataflow_checks import FIXTURES, SAMPLES, assert_checks, needs_node, variant

PIPELINE = "sdf3-pipeline.xml"


def refusal(path: Path) -> str:
    with pytest.raises(ImportRefused) as caught:
        import_sdf3(str(path))
    return str(caught.value)


def test_actors_become_boxes_with_kernels_by_shape_and_costs() -> None:
    result = import_sdf3(str(FIXTURES / PIPELINE))
    assert result.format == "sdf3"
    text = result.text
    assert "box Cam {\n    out o: Frame\n    source period 20 ms\n    split none\n    cost 500 us\n}" in text
    assert "box Sub {\n    in  a: Frame\n    in  b: Frame\n    out o: Frame\n    kernel add\n" in text
    assert "box Copies {" in text and "kernel dup" in text
    assert "box Keep {\n    in  i: Frame\n    kernel sink\n    split none\n}" in text  # no time: no cost
    assert "    split_copy.x -> show.i\n" in text


def test_split_and_merge_of_equal_slices_become_split_rows() -> None:
    text = import_sdf3(str(FIXTURES / PIPELINE)).text
    # sub fires twice per frame (150 µs each): one box of the whole frame, split into rows
    assert "    kernel add\n    split rows  depends pointwise\n    cost 300 us\n" in text
    assert "box Show {\n    in  i: Frame\n    kernel sink\n    split none\n    cost 200 us\n}" in text


def test_notes_are_comments_at_the_top() -> None:
    result = import_sdf3(str(FIXTURES / PIPELINE))
    joined = " ".join(result.notes)
    for expected in (
        "<architectureGraph>",
        "read as µs",
        "processor type 'x86' (the default)",
        "'split-copy' is instance 'split_copy'",
        "actor 'keep' has no execution time",
        "fire 2 times per frame on equal slices",
        "image Frame 512 x 256 of u16",
    ):
        assert expected in joined, expected
    head = result.text.split("\nplatform")[0]
    assert all(line.startswith("//") or not line for line in head.splitlines())
    assert "// - left out (no chain equivalent): <architectureGraph>" in head


def test_the_first_processor_when_none_is_the_default(tmp_path: Path) -> None:
    path = variant(
        tmp_path,
        PIPELINE,
        '<processor type="x86" default="true"><executionTime time="500"/>',
        '<processor type="x86"><executionTime time="500"/>',
    )
    result = import_sdf3(str(path))
    assert "cost 9 us" in result.text
    assert any("'arm' (the first listed" in n for n in result.notes)


def test_time_unit_and_free_running_sources(tmp_path: Path) -> None:
    path = variant(tmp_path, PIPELINE, "<sdfProperties>", '<sdfProperties timeUnit="ns">')
    path.write_text(path.read_text().replace("<graphProperties>", "<!--").replace("</graphProperties>", "-->"))
    result = import_sdf3(str(path))
    assert "cost 500 ns" in result.text and "kernel source" in result.text and "source period" not in result.text
    assert any("free-running" in n for n in result.notes)


def test_state_self_loop_is_left_out_with_a_note() -> None:
    result = import_sdf3(str(FIXTURES / "sdf3-split.xml"))
    assert "s_in" not in result.text and "state" not in result.text.split("\nplatform")[1]
    assert any("self-loop of actor 'denoise'" in n for n in result.notes)


@needs_node
@pytest.mark.parametrize("fixture", [PIPELINE, "sdf3-split.xml"])
def test_written_chains_pass_check(fixture: str, tmp_path: Path) -> None:
    assert_checks(import_sdf3(str(FIXTURES / fixture)).text, tmp_path)


@needs_node
def test_realistic_sample_maps_every_element(tmp_path: Path) -> None:
    result = import_sdf3(str(SAMPLES / "xray-pipeline.sdf3.xml"))
    text = result.text
    for expected in ("source period 33.3 ms", "kernel add", "kernel copy", "kernel dup", "kernel sink", "split rows"):
        assert expected in text, expected
    assert "image Frame 1024 x 1024 of u16" in text
    assert any("self-loop of actor 'tnr'" in n for n in result.notes)
    assert any("processor type 'cpu' (the default)" in n for n in result.notes)
    assert_checks(text, tmp_path)


@pytest.mark.parametrize(
    "fixture, where, message",
    [
        ("sdf3-malformed.xml", ":6:7:", "not well-formed XML"),
        ("sdf3-entities.xml", ":2:", "DOCTYPE"),
        ("sdf3-wrong-root.xml", ":2:1:", "<model>: not an SDF3 file"),
        ("sdf3-multirate.xml", ":20:7:", "multi-rate channel 'b': 'thirds' fires 3 and 'halves' 2 times"),
        ("sdf3-inconsistent.xml", ":19:7:", "channel 'back': the rates are inconsistent"),
        ("sdf3-delay.xml", ":11:7:", "channel 'late' carries 2 initial token(s) (a delay)"),
    ],
)
def test_refused_files_name_file_line_and_element(fixture: str, where: str, message: str) -> None:
    text = refusal(FIXTURES / fixture)
    assert text.startswith(str(FIXTURES / fixture) + where), text
    assert message in text


@pytest.mark.parametrize(
    "old, new, where, message",
    [
        ('<sdf3 type="sdf"', '<sdf3 type="csdf"', ":2:1:", 'type "csdf" is not read'),
        ('<actor name="ref"', '<process name="x"/><actor name="ref"', ":8:7:", "<process>: unknown element of <sdf>"),
        ('<port name="b" type="in" rate="1"/>', "", ":28:7:", "channel 'c2': actor 'sub' has no input port 'b'"),
        ('dstActor="keep"', 'dstActor="kept"', ":31:7:", "channel 'c5' names an unknown actor 'kept'"),
        ('<executionTime time="150"/>', '<executionTime time="-150"/>', ":42:46:", "execution time is negative (-150)"),
        (
            '<executionTime time="150"/>',
            '<executionTime time="fast"/>',
            ":42:46:",
            'execution time "fast" is not a number',
        ),
        ('rate="2"/>', 'rate="two"/>', ":6:9:", 'attribute rate="two" is not a whole number'),
        (
            '<actor name="show"',
            '<actor name="idle" type="I"><port name="i" type="in" rate="1"/></actor><actor name="show"',
            ":21:35:",
            "input port 'i' of actor 'idle' has no channel",
        ),
        (
            '<channel name="c1" srcActor="cam"',
            '<channel name="c1" srcActor="sub"',
            ":29:7:",
            "channel 'c3' uses port 'sub.o' of channel 'c1'",
        ),
        (
            '<channel name="c3" srcActor="sub" srcPort="o"',
            '<channel name="c3" srcActor="sub" srcPort="o" initialTokens="x"',
            ":29:7:",
            'attribute initialTokens="x" is not a whole number',
        ),
        (
            '<tokenSize sz="1048576"/>',
            '<bufferSize sz="1"/><tokens sz="1"/>',
            ":50:59:",
            "<tokens>: unknown element of <channelProperties>",
        ),
        (
            '<actorProperties actor="sub">',
            '<actorProperties actor="nobody">',
            ":41:7:",
            "names an unknown actor 'nobody'",
        ),
    ],
)
def test_refused_variants_name_file_line_and_element(
    tmp_path: Path, old: str, new: str, where: str, message: str
) -> None:
    path = variant(tmp_path, PIPELINE, old, new)
    text = refusal(path)
    assert text.startswith(str(path) + where), text
    assert message in text, text


def test_an_actor_of_no_kernel_shape_is_refused(tmp_path: Path) -> None:
    path = variant(
        tmp_path,
        PIPELINE,
        '<port name="b" type="in" rate="1"/>',
        '<port name="b" type="in" rate="1"/><port name="o2" type="out" rate="1"/>',
    )
    text = refusal(path)
    assert ":11:7:" in text and "actor 'sub' has 2 input(s) and 2 output(s): no chainlab kernel has that shape" in text


def test_a_cycle_without_tokens_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cycle.xml"
    ports = '<port name="i" type="in" rate="1"/><port name="o" type="out" rate="1"/>'
    path.write_text(
        '<sdf3 type="sdf"><applicationGraph><sdf name="cycle">'
        f'<actor name="a">{ports}</actor><actor name="b">{ports}</actor>'
        '<channel name="ab" srcActor="a" srcPort="o" dstActor="b" dstPort="i"/>'
        '<channel name="ba" srcActor="b" srcPort="o" dstActor="a" dstPort="i"/>'
        "</sdf></applicationGraph></sdf3>"
    )
    assert "closes a cycle without initial tokens (a deadlock)" in refusal(path)


def test_too_large_or_missing_files_are_refused(tmp_path: Path) -> None:
    big = tmp_path / "big.xml"
    big.write_text("<sdf3>" + " " * (4 * 1024 * 1024) + "</sdf3>")
    with pytest.raises(UserFileError, match=r"big\.xml"):
        import_sdf3(str(big))
    with pytest.raises(UserFileError, match="no such file"):
        import_sdf3(str(tmp_path / "none.xml"))
