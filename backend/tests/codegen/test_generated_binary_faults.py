"""The generated binary on hostile arguments and a full disk (issue 17: F12, F13, F11): every numeric option is
range-checked (exit 2, a message naming it), and results that cannot be written make it exit 4 with no run.json
left claiming a complete run."""

from __future__ import annotations

import functools
import os
import tempfile
from pathlib import Path

import pytest
from cg_helpers import have_tools, quick_build, run_chain, sample_ir

from chainlab.codegen import generate_project
from chainlab.plan import PlanOptions, make_plan

pytestmark = pytest.mark.skipif(not have_tools(), reason="needs node, the built CLI and gcc")


@functools.cache
def binary() -> Path:
    plan = make_plan(
        sample_ir("samples/chains/appendix-a.chain"), "App", PlanOptions(threads=2, cores=(0, 1), predict=False)
    )
    return quick_build(generate_project(plan), Path(tempfile.mkdtemp(prefix="cl-args-")))


BAD = [
    ("--iterations", "99999999999999999999"),  # F12: saturated strtoull, then iterations + 1 wrapped to 0
    ("--iterations", "18446744073709551615"),
    ("--iterations", "0"),
    ("--iterations", "-1"),
    ("--iterations", "0x10"),
    ("--iterations", "12x"),
    ("--iterations", ""),
    ("--calibrate", "99999999999999999999"),  # F13
    ("--calibrate", "-3"),
    ("--period-ns", "-5"),
    ("--period-ns", "99999999999999999999"),
    ("--fifo", "100"),
    ("--spin", "4294967296"),
    ("--watchdog", "nan"),
    ("--watchdog", "1e999"),
]


@pytest.mark.parametrize(("option", "value"), BAD)
def test_numeric_option_out_of_range_is_refused(option: str, value: str, tmp_path: Path) -> None:
    code, _, err = run_chain(binary(), option, value, "--out", str(tmp_path), timeout=30)
    assert code == 2, err
    assert option in err and "takes" in err
    assert not (tmp_path / "run.json").exists()


def test_an_out_path_too_long_for_its_file_names_is_refused() -> None:
    code, _, err = run_chain(binary(), "--iterations", "1", "--out", "/tmp/" + "x" * 4100)
    assert code == 2 and "--out" in err


def test_in_range_values_still_run(tmp_path: Path) -> None:
    code, out, err = run_chain(binary(), "--iterations", "5", "--watchdog", "2.5", "--out", str(tmp_path))
    assert code == 0, err
    assert "completed 5 of 5" in out and (tmp_path / "run.json").exists()


@pytest.mark.parametrize("victim", ["latencies.csv", "run.json", "calibration.csv"])
def test_full_disk_exits_non_zero_and_leaves_no_run_json(victim: str, tmp_path: Path) -> None:
    # PATH.tmp is where the binary writes first: a link to /dev/full makes every write fail with ENOSPC
    os.symlink("/dev/full", tmp_path / f"{victim}.tmp")
    args = ["--calibrate", "3"] if victim == "calibration.csv" else ["--iterations", "20"]
    code, _, err = run_chain(binary(), *args, "--out", str(tmp_path))
    assert code == 4, err
    assert f"cannot write {tmp_path}/{victim}" in err and "No space left on device" in err
    assert not (tmp_path / "run.json").exists()
    assert not (tmp_path / victim).exists()
