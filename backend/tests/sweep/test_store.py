"""The sweep's CSV: exact cells, whole rows only, another model's file refused."""

from __future__ import annotations

from pathlib import Path

import pytest

from chainlab.sweep import RowStore, StoreMismatch

ODD = {
    "int": -12345678901234567,
    "float": 0.1 + 0.2,
    "tiny": 5e-324,
    "text": "simple",
    "numeric text": "1.0",
    "empty": "",
    "comma": 'a,"b"',
    "newline": "x\ny",
    "none": None,
    "flag": True,
    "nested": {"C1": [1, 2.5], "C2": "ms"},
}


def test_rows_read_back_exactly(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    with RowStore(path, "abc") as store:
        store.append("k1", ODD)
        store.append("k2", {"int": 1})
    rows = RowStore(path, "abc", resume=True).rows()
    assert rows["k1"] == ODD
    assert rows["k1"]["float"].hex() == ODD["float"].hex()
    assert rows["k2"] == {"int": 1}  # a field the row lacked stays absent
    assert len(path.read_text().splitlines()) == 3  # header and one line per row


def test_a_torn_last_line_is_dropped(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    with RowStore(path, "abc") as store:
        store.append("k1", {"v": 1})
        store.append("k2", {"v": 2})
    whole = path.read_bytes()
    path.write_bytes(whole[:-3])  # the write of k2 was cut short
    store = RowStore(path, "abc", resume=True)
    assert store.rows() == {"k1": {"v": 1}}
    store.append("k2", {"v": 2})
    store.close()
    assert path.read_bytes() == whole


def test_another_models_file_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    with RowStore(path, "abc123") as store:
        store.append("k1", {"v": 1})
    with pytest.raises(StoreMismatch, match=r"another model \(hash abc123, this model def456"):
        RowStore(path, "def456", resume=True)
    with pytest.raises(StoreMismatch, match="already exists: resume it"):
        RowStore(path, "abc123")
    with pytest.raises(StoreMismatch, match="holds another sweep"):
        RowStore(path, "abc123", fields=["w"], resume=True)
    path.write_text("a,b\n")
    with pytest.raises(StoreMismatch, match="not a chainlab sweep file"):
        RowStore(path, "abc123", resume=True)
