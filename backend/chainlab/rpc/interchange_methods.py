"""JSON-RPC methods that bring models in from other tools' formats and write chains out to them."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any

from chainlab.errors import ModelError
from chainlab.interchange.preesm import import_preesm
from chainlab.interchange.result import ImportResult
from chainlab.interchange.sdf3 import import_sdf3
from chainlab.interchange.sdf3_export import export_sdf3
from chainlab.interchange.xml_input import local_name, read_xml
from chainlab.ir import validate_ir
from chainlab.rpc.context import RequestContext
from chainlab.rpc.methods import method
from chainlab.rpc.params import chain_param

FORMATS = ("sdf3", "preesm", "amalthea")
_BY_EXTENSION = {".pi": "preesm", ".amxmi": "amalthea"}
_BY_ROOT = {"sdf3": "sdf3", "graphml": "preesm", "Amalthea": "amalthea"}


def detect_format(path: str) -> str:
    """The format of `path`: by its extension (.pi, .amxmi), else by its root element (<sdf3>, <graphml>, Amalthea).

    Raises
    ------
    chainlab.interchange.xml_input.ImportRefused
        Not XML, or a root element of no format chainlab reads (named, at its line and column).
    """
    by_extension = _BY_EXTENSION.get(Path(path).suffix.lower())
    if by_extension:
        return by_extension
    doc = read_xml(path)
    root = local_name(doc.root.tag)
    if root in _BY_ROOT:
        return _BY_ROOT[root]
    raise doc.error(doc.root, 'no format chainlab imports: SDF3 (<sdf3 type="sdf">), PREESM (.pi) or Amalthea (.amxmi)')


def import_model(path: str, format: str | None = None, scenario: str | None = None) -> ImportResult:
    """Imports `path` in `format` (default: detected).

    Parameters
    ----------
    path
        The file another tool wrote.
    format
        ``sdf3``, ``preesm`` or ``amalthea``; None: from the extension and root element.
    scenario
        PREESM only: the ``.scenario`` with the timings (default: the one beside the ``.pi`` that names it).

    Returns
    -------
    ImportResult
        The model as .chain text and the notes.
    """
    chosen = format or detect_format(path)
    if chosen == "sdf3":
        return import_sdf3(path)
    if chosen == "preesm":
        return import_preesm(path, scenario)
    # the Amalthea reader is loaded only when asked for: it is the largest of the readers
    amalthea = importlib.import_module("chainlab.interchange.amalthea")
    result: ImportResult = amalthea.import_amalthea(path)
    return result


def _text_param(params: dict[str, Any], key: str, required: bool = False) -> str | None:
    value = params.get(key)
    if value is None and not required:
        return None
    if not isinstance(value, str) or not value:
        raise ModelError(f"{key} must be a non-empty string, not {str(value)[:60]!r}")
    return value


@method("interchange/import")
def interchange_import(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    path = _text_param(params, "path", required=True)
    assert path is not None
    format = _text_param(params, "format")
    if format is not None and format not in FORMATS:
        raise ModelError(f"format must be one of {', '.join(FORMATS)}, not {format[:40]!r}")
    return import_model(path, format, _text_param(params, "scenario")).to_json()


@method("interchange/export")
def interchange_export(params: dict[str, Any], _context: RequestContext) -> dict[str, Any]:
    if params.get("format") != "sdf3":
        raise ModelError(f"format must be sdf3, not {str(params.get('format'))[:40]!r}")
    ir = validate_ir(params.get("ir"))
    return export_sdf3(ir, chain_param(ir, params)).to_json()
