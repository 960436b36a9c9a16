"""Checking an IR document against the contract's ir.schema.json and finding its elements by name."""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any

import jsonschema

from chainlab.errors import ModelError
from chainlab.files import IR_JSON, read_user_text

IR_VERSION = "1.0"
SCHEMA_FILE = "ir.schema.json"  # in contract/schemas, reached through the package (chainlab/contract)


@lru_cache(maxsize=1)
def ir_schema() -> dict[str, Any]:
    return json.loads(resources.files("chainlab").joinpath("contract", SCHEMA_FILE).read_text(encoding="utf-8"))


@lru_cache(maxsize=1)
def _validator() -> jsonschema.Draft202012Validator:
    schema = ir_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def schema_errors(document: Any) -> list[str]:
    """Every schema violation as `/path: message`, shortest paths first."""
    errors = sorted(_validator().iter_errors(document), key=lambda e: (len(e.absolute_path), str(e.absolute_path)))
    return [f"/{'/'.join(str(p) for p in e.absolute_path)}: {e.message}" for e in errors]


def validate_ir(document: Any) -> dict[str, Any]:
    """The document if it is IR of this version; a ModelError naming the first problems otherwise."""
    if not isinstance(document, dict):
        raise ModelError("the IR must be a JSON object")
    version = document.get("ir_version")
    if version != IR_VERSION:
        raise ModelError(
            f"IR version {version!r} is not supported (this backend reads {IR_VERSION}); re-export the model"
        )
    errors = schema_errors(document)
    if errors:
        shown = "\n  ".join(errors[:5])
        more = f"\n  ... and {len(errors) - 5} more" if len(errors) > 5 else ""
        raise ModelError(f"invalid IR from {document.get('source', '?')}:\n  {shown}{more}")
    return document


def load_ir(path: str | Path) -> dict[str, Any]:
    """The IR in the file at `path` (an exported model, `chainlab export --json`), checked against the schema.

    Parameters
    ----------
    path
        The file, read by the one reader: a regular file of at most 64 MiB (the largest request frame).

    Returns
    -------
    dict
        The validated IR.

    Raises
    ------
    UserFileError
        The file is missing, not a regular file, too large or not UTF-8 (file and reason, line for a bad byte).
    ModelError
        It is not JSON (file, line and column) or not IR of this version.
    """
    text = read_user_text(path, IR_JSON)
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise ModelError(f"{path}:{error.lineno}:{error.colno}: not JSON: {error.msg}") from None
    except RecursionError:  # [[[[... nested deeper than Python's stack
        raise ModelError(f"{path}: not JSON this backend reads: nested too deeply") from None
    return validate_ir(document)


def _find(ir: dict[str, Any], section: str, kind: str, name: str) -> dict[str, Any]:
    for element in ir.get(section, []):
        if element.get("name") == name:
            return element
    known = ", ".join(e.get("name", "?") for e in ir.get(section, [])) or "none"
    raise ModelError(f"{ir.get('source', 'the model')} has no {kind} named '{name}' (it has: {known})")


def find_ptts(ir: dict[str, Any], name: str) -> dict[str, Any]:
    return _find(ir, "ptts", "ptts", name)


def find_chain(ir: dict[str, Any], name: str) -> dict[str, Any]:
    return _find(ir, "chains", "chain", name)
