"""The shared reply vectors (tests/rpc-vectors) against the backend's schema check of the contract."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chainlab.rpc.contract import BACKEND_METHODS, contract_file, schema_errors

VECTORS = sorted((Path(__file__).resolve().parents[2] / "tests" / "rpc-vectors").glob("*.json"))


def schema_of(vector: dict) -> str:
    if "method" in vector:
        return BACKEND_METHODS[vector["method"]]["result"]
    return contract_file("errors.json")["errors"][vector["error"]]["data"]


def test_vectors_cover_every_method() -> None:
    methods = {json.loads(p.read_text()).get("method") for p in VECTORS}
    assert set(BACKEND_METHODS) <= methods


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector(path: Path) -> None:
    vector = json.loads(path.read_text())
    errors = schema_errors(schema_of(vector), vector["value"])
    if vector["valid"]:
        assert errors == []
    else:
        assert any(e.startswith(vector["error_path"]) for e in errors), errors
