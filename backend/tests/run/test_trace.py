"""The chain's trace (tasks.csv, chainlab/run/trace.py) read by the one reader: rows to per-sub-box times, none
without a complete iteration, and a file that is no trace refused with its name and the reason."""

from __future__ import annotations

from pathlib import Path

import pytest
from special_files import Kind, special_file

from chainlab.files import UserFileError
from chainlab.run.trace import read_trace

HEADER = "iteration,sub_box,start_ns,end_ns\n"


def test_a_trace_gives_each_sub_box_its_times_for_complete_iterations(tmp_path: Path) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text(HEADER + "1,a.x,0,10\n1,b.y,10,30\n2,a.x,0,12\n3,a.x,1,11\n3,b.y,11,31\n")
    trace = read_trace(path)
    assert trace is not None and trace.names == ["a.x", "b.y"]
    assert trace.iterations.tolist() == [1, 3]  # iteration 2 lacks b.y
    assert trace.durations.tolist() == [[10, 20], [10, 20]]


@pytest.mark.parametrize("text", [None, "", HEADER, HEADER + "1,a.x,0,10\n2,b.y,0,10\n"])
def test_no_trace_or_no_complete_iteration_is_none(tmp_path: Path, text: str | None) -> None:
    path = tmp_path / "tasks.csv"
    if text is not None:
        path.write_text(text)
    assert read_trace(path) is None


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_trace_that_is_no_regular_file_is_refused(tmp_path: Path, kind: Kind) -> None:
    path = special_file(kind, tmp_path, "tasks.csv")
    with pytest.raises(UserFileError, match=f"measurement {path}: it is a .*, not a regular file"):
        read_trace(path)


@pytest.mark.parametrize("rows", ["1,a.x,0,10\n2,a.x,5\n", "1,a.x,zero,10\n", "one,a.x,0,10\n"])
def test_rows_that_are_no_trace_are_refused_not_an_internal_error(tmp_path: Path, rows: str) -> None:
    path = tmp_path / "tasks.csv"
    path.write_text(HEADER + rows)
    with pytest.raises(UserFileError, match=f"measurement {path}: not"):
        read_trace(path)
