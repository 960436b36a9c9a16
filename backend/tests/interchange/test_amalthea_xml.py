"""Amalthea's XML conventions: the version read, xsi:type, references, exact times and frequencies."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

from chainlab.interchange.amalthea_xml import check_root, frequency_hz, id_map, kid, ref, refs, time_ns, xsi_type
from chainlab.interchange.xml_input import ImportRefused
from tests.interchange.amalthea_helpers import amalthea_doc


def test_the_version_read_passes(tmp_path: Path) -> None:
    check_root(amalthea_doc(tmp_path, ""))


@pytest.mark.parametrize(
    ("value", "unit", "ns"),
    [("10", "ms", 10_000_000), ("66.6", "ms", 66_600_000), ("2000", "ps", 2), ("1", "s", 10**9), ("3", "us", 3000)],
)
def test_times_are_exact(tmp_path: Path, value: str, unit: str, ns: int) -> None:
    doc = amalthea_doc(tmp_path, f'<offset value="{value}" unit="{unit}"/>')
    assert time_ns(doc, kid(doc.root, "offset")) == ns  # type: ignore[arg-type]


def test_a_time_without_value_is_zero_as_emf_writes_it(tmp_path: Path) -> None:
    doc = amalthea_doc(tmp_path, '<offset unit="ms"/>')
    assert time_ns(doc, kid(doc.root, "offset")) == 0  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("attributes", "message"),
    [
        ('value="1" unit="min"', "time unit 'min' is not one of s, ms, us, ns, ps"),
        ('value="-5" unit="ns"', "the time -5 ns is negative"),
        ('value="1" unit="ps"', "not a whole number of ns"),
        ('value="ten" unit="ms"', "value='ten' is not a number"),
        ('value="NaN" unit="ms"', "is not a finite number"),
    ],
)
def test_bad_times(tmp_path: Path, attributes: str, message: str) -> None:
    doc = amalthea_doc(tmp_path, f"<offset {attributes}/>")
    with pytest.raises(ImportRefused, match=message) as caught:
        time_ns(doc, kid(doc.root, "offset"))  # type: ignore[arg-type]
    assert str(caught.value).startswith(f"{doc.path}:3:1: error: <offset>: ")


def test_frequencies(tmp_path: Path) -> None:
    doc = amalthea_doc(tmp_path, '<a value="6.0E8" unit="Hz"/><b value="1.5" unit="GHz"/><c value="0" unit="MHz"/>')
    assert frequency_hz(doc, kid(doc.root, "a")) == 600_000_000  # type: ignore[arg-type]
    assert frequency_hz(doc, kid(doc.root, "b")) == Fraction(1_500_000_000)  # type: ignore[arg-type]
    with pytest.raises(ImportRefused, match="must be positive"):
        frequency_hz(doc, kid(doc.root, "c"))  # type: ignore[arg-type]


def test_references_by_name_list_and_id(tmp_path: Path) -> None:
    doc = amalthea_doc(
        tmp_path,
        '<x xmi:id="_7" name="Seven"/><r a="My%20Task?type=Task" b="A?type=Core B?type=Core" c="_7" d="zz"/>',
    )
    ids = id_map(doc.root)
    r = kid(doc.root, "r")
    assert r is not None
    assert ref(doc, r, "a", ids) == "My Task"
    assert refs(doc, r, "b", ids) == [("A", "Core"), ("B", "Core")]
    assert ref(doc, r, "c", ids) == "Seven" and ref(doc, r, "missing", ids) is None
    with pytest.raises(ImportRefused, match="one reference expected, found 2"):
        ref(doc, r, "b", ids)
    with pytest.raises(ImportRefused, match="'zz' is neither"):
        ref(doc, r, "d", ids)


def test_xsi_type_drops_the_prefix(tmp_path: Path) -> None:
    doc = amalthea_doc(tmp_path, '<s xsi:type="am:PeriodicStimulus"/><t/>')
    assert xsi_type(kid(doc.root, "s")) == "PeriodicStimulus"  # type: ignore[arg-type]
    assert xsi_type(kid(doc.root, "t")) == ""  # type: ignore[arg-type]
