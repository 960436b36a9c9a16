"""The sweep's CSV: exact cells (no NaN or infinity written), whole rows only (a failed append names the file and
is cut back off), another model's file refused."""

from __future__ import annotations

import math
import subprocess
import sys
from pathlib import Path

import pytest

from chainlab.finite_json import NonFiniteNumber
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


@pytest.mark.parametrize("bad", [math.nan, math.inf, {"C1": [1.0, -math.inf]}])
def test_a_non_finite_number_is_refused_naming_the_file_row_and_column(tmp_path: Path, bad: object) -> None:
    path = tmp_path / "s.csv"
    with RowStore(path, "abc") as store:
        store.append("k1", {"p99_ms": 1.5, "loss": 0.0})
        with pytest.raises(NonFiniteNumber, match=rf"^{path}: row 'k3', loss(.C1\[1\])? is -?(NaN|Infinity), which"):
            store.append_many([("k2", {"p99_ms": 2.0}), ("k3", {"p99_ms": 2.0, "loss": bad})])
    assert RowStore(path, "abc", resume=True).rows() == {"k1": {"p99_ms": 1.5, "loss": 0.0}}  # nothing of the batch


APPEND_PAST_LIMIT = """
import resource, sys
from chainlab.sweep import RowStore

store = RowStore(sys.argv[1], "abc", resume=True)
size = store.path.stat().st_size
resource.setrlimit(resource.RLIMIT_FSIZE, (size + 100, size + 100))  # Python ignores SIGXFSZ: write(2) fails
try:
    store.append("k2", {"v": "x" * 500})
except OSError as error:
    print(f"{error.filename}: {error.strerror}")
store.append("k3", {"v": 3})  # under the limit: starts on a line of its own
"""


def test_a_failed_append_names_the_file_and_is_cut_back_off(tmp_path: Path) -> None:
    path = tmp_path / "s.csv"
    with RowStore(path, "abc") as store:
        store.append("k1", {"v": 1})
    done = subprocess.run(
        [sys.executable, "-c", APPEND_PAST_LIMIT, str(path)], capture_output=True, text=True, timeout=60
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{path}: File too large"
    assert RowStore(path, "abc", resume=True).rows() == {"k1": {"v": 1}, "k3": {"v": 3}}
