"""The sweep CSV as a file the user names (chainlab/sweep/store.py through the one reader): a FIFO, a device or a
directory at --out is refused before anything opens it, with or without --resume, through the real CLI and backend
too; a file that is not a sweep file names its line, never its content. (The rows' round trip: test_store.py.)"""

from __future__ import annotations

import os
import subprocess
import time
from pathlib import Path

import pytest

from chainlab.files import UserFileError
from chainlab.sweep import RowStore, StoreMismatch

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
SWEEP = ["explore", "samples/ptts/case-study.chain", "--ptts", "ConfigE", "--vary", "GPU", "--step", "4 ms"]


def special(tmp_path: Path, kind: str) -> Path:
    if kind == "fifo":
        os.mkfifo(tmp_path / "out.csv")
        return tmp_path / "out.csv"
    return Path("/dev/zero") if kind == "device" else tmp_path


@pytest.mark.parametrize("resume", [False, True])
@pytest.mark.parametrize("kind", ["fifo", "device", "directory"])
def test_a_path_that_is_no_regular_file_is_refused(tmp_path: Path, kind: str, resume: bool) -> None:
    """Without --resume a FIFO (size 0) was opened for appending, which blocks until a reader comes; /dev/zero
    swallowed every row."""
    path = special(tmp_path, kind)
    with pytest.raises(UserFileError, match=r"it is a (pipe \(FIFO\)|device|directory), not a regular file") as e:
        RowStore(path, "h", resume=resume)
    assert e.value.path == str(path) and str(e.value).startswith(f"error: sweep CSV {path}: ")


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_explore_out_that_is_no_regular_file_ends_at_once_through_the_cli(tmp_path: Path, kind: str) -> None:
    out = special(tmp_path, kind)
    for resume in ([], ["--resume"]):
        started = time.monotonic()
        r = subprocess.run(
            ["node", str(CLI), *SWEEP, "--out", str(out), *resume], capture_output=True, text=True, cwd=REPO, timeout=60
        )
        assert time.monotonic() - started < 30
        assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
        assert f"sweep CSV {out}: it is a " in r.stderr and "not a regular file" in r.stderr


def test_bytes_that_are_not_utf8_name_the_line_and_leave_the_file_as_it_was(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    data = b"key,model_hash,x\na,h,1\nb,h,\xff\xfe secret\ntorn"
    path.write_bytes(data)
    with pytest.raises(UserFileError, match=r"out\.csv:3:5: not UTF-8 \(byte 0xff\)") as e:
        RowStore(path, "h", resume=True)
    assert "secret" not in str(e.value)
    assert path.read_bytes() == data  # not even the torn last line was cut off: nothing was taken from the file


@pytest.mark.parametrize(
    ("line", "why"), [(b"just-one-cell", "fewer than 2 cells"), (b"a,h," + b"x" * 200_000, "field larger than")]
)
def test_a_line_that_is_no_row_names_its_number(tmp_path: Path, line: bytes, why: str) -> None:
    """Such a line was an IndexError or a csv.Error: an internal error."""
    path = tmp_path / "out.csv"
    path.write_bytes(b"key,model_hash,x\na,h,1\n" + line + b"\n")
    with pytest.raises(StoreMismatch, match=f"out.csv:3: not a line of a chainlab sweep file .*{why}") as e:
        RowStore(path, "h", resume=True)
    assert "xxxxx" not in str(e.value)


def test_a_long_header_is_quoted_briefly(tmp_path: Path) -> None:
    path = tmp_path / "out.csv"
    path.write_text("S" * 10_000 + ",model_hash\n")
    with pytest.raises(StoreMismatch, match="is not a chainlab sweep file") as e:
        RowStore(path, "h", resume=True)
    assert len(str(e.value)) < 200 + len(str(path))


@pytest.mark.parametrize("cell", ["NaN", "Infinity", "-Infinity"])
def test_a_resumed_cell_that_is_no_finite_number_is_refused_with_file_and_line(tmp_path: Path, cell: str) -> None:
    """JSON reads NaN from a cell; passed on, it made the reply unwritable (the CLI hung on it before)."""
    path = tmp_path / "sweep.csv"
    with RowStore(path, "h", fields=["p99_ms"]) as store:
        store.append("k1", {"p99_ms": 1.5})
        store.append("k2", {"p99_ms": 2.5})
    path.write_text(path.read_text().replace("2.5", cell))
    with pytest.raises(StoreMismatch, match=rf"^error: {path}:3: p99_ms is -?(nan|inf), not a finite number"):
        RowStore(path, "h", fields=["p99_ms"], resume=True)
