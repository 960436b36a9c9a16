"""The printer of imported chains: names the grammar accepts, exact durations, notes as comments, and text that
`chainlab check` accepts."""

from __future__ import annotations

from pathlib import Path

import pytest

from chainlab.interchange.chain_text import BoxText, ChainText, ImageText, chain_name, duration_text, print_chain

from .dataflow_checks import assert_checks, needs_node


@pytest.mark.parametrize(
    "ns, text",
    [
        (800, "800 ns"),
        (1500, "1.5 us"),
        (1_200_000, "1.2 ms"),
        (33_333_333, "33.333333 ms"),
        (2 * 10**9, "2 s"),
        (1000, "1 us"),
    ],
)
def test_durations_are_exact_in_a_short_unit(ns: int, text: str) -> None:
    assert duration_text(ns) == text


def test_names_the_grammar_accepts() -> None:
    taken: set[str] = set()
    assert chain_name("read-yuv", taken) == "read_yuv"
    assert chain_name("read-yuv", taken) == "read_yuv2"  # unique in its scope
    assert chain_name("2nd", taken) == "n_2nd"
    assert chain_name("box", taken) == "n_box"  # a keyword
    assert chain_name("in", taken) == "in"  # a keyword the grammar takes as a name
    assert chain_name("xray_front", set(), capital=True) == "XrayFront"
    assert chain_name("édition", set(), capital=True) == "Dition"


def small_chain(notes: list[str]) -> ChainText:
    return ChainText(
        name="Small",
        platform="SmallPC",
        cores=2,
        image=ImageText("Frame", 64, 32, "u8"),
        boxes=[
            BoxText("Cam", [], ["o"], "source", period_ns=10_000_000, cost_ns=1000),
            BoxText("Blur", ["i"], ["o"], "copy", split="rows", cost_ns=2_500_000),
            BoxText("Show", ["i"], [], "sink"),
        ],
        instances=[("cam", "Cam"), ("blur", "Blur"), ("show", "Show")],
        connections=[(("cam", "o"), ("blur", "i")), (("blur", "o"), ("show", "i"))],
        header="Imported from a test.",
        notes=notes,
    )


def test_the_text_has_every_part_and_the_notes_on_top() -> None:
    long_note = "a note long enough to be wrapped over two comment lines " * 3
    text = print_chain(small_chain(["short note", long_note.strip()]))
    lines = text.splitlines()
    assert lines[:3] == ["// Imported from a test.", "// - short note", lines[2]]
    assert lines[2].startswith("// - a note long") and lines[3].startswith("//   ") and len(lines[2]) <= 116
    assert "box Cam {\n    out o: Frame\n    source period 10 ms\n    split none\n    cost 1 us\n}" in text
    blur = "box Blur {\n    in  i: Frame\n    out o: Frame\n    kernel copy\n    split rows  depends pointwise\n"
    assert blur + "    cost 2.5 ms\n}" in text
    assert "box Show {\n    in  i: Frame\n    kernel sink\n    split none\n}" in text
    instances = "chain Small on SmallPC {\n    cam:  Cam\n    blur: Blur\n    show: Show\n"
    assert instances + "\n    cam.o  -> blur.i\n    blur.o -> show.i\n}\n" in text


@needs_node
def test_the_text_passes_check(tmp_path: Path) -> None:
    assert_checks(print_chain(small_chain(["a note"])), tmp_path)
