"""Small Amalthea documents for the unit tests: a body inside the 3.3.0 root, written to a real file."""

from __future__ import annotations

from pathlib import Path

from chainlab.interchange.xml_input import XmlDocument, read_xml

ROOT = (
    '<?xml version="1.0" encoding="UTF-8"?>\n'
    '<am:Amalthea xmlns:am="http://app4mc.eclipse.org/amalthea/3.3.0" xmlns:xmi="http://www.omg.org/XMI" '
    'xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance">\n'
)


def amalthea_file(tmp_path: Path, body: str, name: str = "m.amxmi") -> Path:
    path = tmp_path / name
    path.write_text(ROOT + body + "\n</am:Amalthea>\n", encoding="utf-8")
    return path


def amalthea_doc(tmp_path: Path, body: str) -> XmlDocument:
    return read_xml(amalthea_file(tmp_path, body))
