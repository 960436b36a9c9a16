"""The one XML reader: element positions, namespaces in Clark notation, and what it refuses before parsing."""

from __future__ import annotations

from pathlib import Path

import pytest
from special_files import special_file

from chainlab.files import UserFileError
from chainlab.interchange.xml_input import ImportRefused, local_name, read_xml

XSI = "http://www.w3.org/2001/XMLSchema-instance"


def write(tmp_path: Path, text: str, name: str = "m.xml") -> Path:
    path = tmp_path / name
    path.write_text(text)
    return path


def test_elements_know_where_they_start_and_attributes_their_namespace(tmp_path: Path) -> None:
    path = write(
        tmp_path, f'<?xml version="1.0"?>\n<root xmlns:xsi="{XSI}">\n  <a xsi:type="am:Task" n="1"/>\n</root>\n'
    )
    doc = read_xml(path)
    a = doc.root[0]
    assert (local_name(doc.root.tag), local_name(a.tag)) == ("root", "a")
    assert a.get(f"{{{XSI}}}type") == "am:Task" and a.get("n") == "1"
    assert str(doc.loc(a)) == f"{path}:3:3"
    assert str(doc.error(a, "no name")) == f"{path}:3:3: error: <a>: no name"


@pytest.mark.parametrize(
    "text, where, reason",
    [
        ("<a>\n<b></a>", "2:6", "not well-formed XML: mismatched tag"),
        ('<!DOCTYPE a [<!ENTITY x "xx">]>\n<a>&x;</a>', "1:", "a DOCTYPE (a) is not read"),
        ('<!DOCTYPE a SYSTEM "file:///etc/passwd">\n<a/>', "1:", "a DOCTYPE (a) is not read"),
        ('<?xml version="1.0" encoding="x-none"?>\n<a/>', "1:1", "not readable XML: unknown encoding: x-none"),
    ],
)
def test_malformed_xml_and_any_dtd_are_refused_with_the_place(
    tmp_path: Path, text: str, where: str, reason: str
) -> None:
    path = write(tmp_path, text)
    with pytest.raises(ImportRefused) as refused:
        read_xml(path)
    assert str(refused.value).startswith(f"{path}:{where}") and reason in str(refused.value)


def test_a_fifo_and_a_file_over_4_mib_are_refused_before_reading(tmp_path: Path) -> None:
    fifo = special_file("fifo", tmp_path, "pipe.xml")
    with pytest.raises(UserFileError, match=r"a pipe \(FIFO\)"):
        read_xml(fifo)
    big = write(tmp_path, "<a>" + "x" * (4 * 1024 * 1024) + "</a>", "big.xml")
    with pytest.raises(UserFileError, match="imported model"):
        read_xml(big)
