"""The shared IR vectors (tests/ir-vectors) against the backend's schema check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chainlab.errors import ModelError
from chainlab.ir import validate_ir
from chainlab.ir.model import schema_errors

VECTORS = sorted((Path(__file__).resolve().parents[2] / "tests" / "ir-vectors").glob("*.json"))


def test_vectors_exist() -> None:
    assert len(VECTORS) >= 10


@pytest.mark.parametrize("path", VECTORS, ids=lambda p: p.stem)
def test_vector(path: Path) -> None:
    vector = json.loads(path.read_text())
    if vector["valid"]:
        assert schema_errors(vector["ir"]) == []
        assert validate_ir(vector["ir"]) is vector["ir"]
    else:
        errors = schema_errors(vector["ir"])
        assert any(e.startswith(vector["error_path"]) for e in errors), errors
        with pytest.raises(ModelError):
            validate_ir(vector["ir"])


def test_non_object_is_refused_with_a_message() -> None:
    with pytest.raises(ModelError, match="JSON object"):
        validate_ir([1, 2])


GOLDEN = sorted((Path(__file__).resolve().parents[2] / "tests" / "golden").rglob("*.ir.json"))


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: str(p.relative_to(p.parents[1])))
def test_golden_ir_of_every_sample_is_valid_for_the_backend(path: Path) -> None:
    assert validate_ir(json.loads(path.read_text()))["ir_version"] == "1.0"


def test_there_are_golden_files() -> None:
    assert len(GOLDEN) >= 7
