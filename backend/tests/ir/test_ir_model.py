"""An IR file (chainlab/ir/model.py, load_ir) read by the one reader: a FIFO, a device, a huge file or bytes that are
not UTF-8 are refused with the file and the reason; JSON that is not IR names its line and column."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from special_files import KINDS, Kind, special_file

from chainlab.errors import ModelError
from chainlab.files import UserFileError
from chainlab.ir import load_ir

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden" / "samples" / "ptts" / "case-study.ir.json"


def test_an_exported_ir_loads() -> None:
    assert load_ir(GOLDEN) == json.loads(GOLDEN.read_text())


@pytest.mark.parametrize("kind", KINDS)
def test_an_ir_path_that_is_no_regular_file_is_refused(tmp_path: Path, kind: Kind) -> None:
    path = special_file(kind, tmp_path, "m.ir.json")
    with pytest.raises(UserFileError, match=f"IR JSON {path}: it is a .*, not a regular file"):
        load_ir(path)


def test_a_missing_or_huge_ir_is_refused(tmp_path: Path) -> None:
    with pytest.raises(UserFileError, match="no such file"):
        load_ir(tmp_path / "none.json")
    big = tmp_path / "big.json"
    with open(big, "wb") as f:
        f.truncate(65 * 1024 * 1024)
    with pytest.raises(UserFileError, match=r"65\.0 MiB, above the limit of 64\.0 MiB for IR JSON files"):
        load_ir(big)


@pytest.mark.parametrize(
    ("data", "why"),
    [
        (b'{"ir_version":\n  "1.0\xff"}', r"m\.json:2:7: not UTF-8"),
        (b'{"ir_version": 1,\n  oops}', r"m\.json:2:3: not JSON"),
        (b"[" * 100_000, "nested too deeply"),
    ],
)
def test_a_file_that_is_not_json_names_its_place(tmp_path: Path, data: bytes, why: str) -> None:
    path = tmp_path / "m.json"
    path.write_bytes(data)
    with pytest.raises((UserFileError, ModelError), match=why):
        load_ir(path)
