"""The calibration file beside the model (chainlab/run/calibration.py) read by the one reader: missing is no
calibration; a FIFO, a device, a huge or damaged file is refused with the file and the reason, through the real
CLI and backend too, and nothing of the file is echoed beyond a short prefix."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import time
import uuid
from pathlib import Path

import pytest
from special_files import KINDS, Kind, special_file_at

from chainlab.errors import ModelError
from chainlab.files import UserFileError
from chainlab.run.calibration import Calibration, calibration_path, load_calibration, save_calibration

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"


def stored(tmp_path: Path) -> Path:
    path = calibration_path(str(tmp_path / "app.chain"), "App", "here")
    assert path is not None
    path.parent.mkdir(parents=True)
    return path


def test_a_saved_calibration_reads_back_and_a_missing_one_is_none(tmp_path: Path) -> None:
    path = stored(tmp_path)
    assert load_calibration(path, "App", "here") is None
    cal = Calibration("App", "here", "2026-01-01T00:00:00+00:00", 10, 1_000_000, {"B": {"cost_ns": 5}})
    save_calibration(cal, path)
    assert load_calibration(path, "App", "here") == cal


@pytest.mark.parametrize("kind", KINDS)
def test_a_calibration_that_is_no_regular_file_is_refused(tmp_path: Path, kind: Kind) -> None:
    path = special_file_at(stored(tmp_path), kind)
    with pytest.raises(UserFileError, match="not a regular file") as e:
        load_calibration(path, "App", "here")
    assert str(e.value).startswith(f"error: calibration {path}: it is a ")


def test_a_huge_calibration_is_refused_before_it_is_read(tmp_path: Path) -> None:
    path = stored(tmp_path)
    with open(path, "wb") as f:
        f.truncate(17 * 1024 * 1024)
    with pytest.raises(UserFileError, match=r"17\.0 MiB, above the limit of 16\.0 MiB for calibration files"):
        load_calibration(path, "App", "here")


@pytest.mark.parametrize(
    ("content", "why"),
    [
        (b'{"chain": "App",\n "x": \xff}', r":2:7: not UTF-8 \(byte 0xff\)"),
        (b"[1, 2", "not a chainlab calibration"),
        (json.dumps({"K" * 5000: 1}).encode(), "not a chainlab calibration"),
    ],
)
def test_a_damaged_calibration_names_the_reason_not_the_content(tmp_path: Path, content: bytes, why: str) -> None:
    path = stored(tmp_path)
    path.write_bytes(content)
    with pytest.raises((UserFileError, ModelError), match=why) as e:
        load_calibration(path, "App", "here")
    assert len(str(e.value)) < 300 + len(str(path)), str(e.value)


def test_a_calibration_of_another_chain_is_quoted_briefly(tmp_path: Path) -> None:
    path = stored(tmp_path)
    save_calibration(Calibration("C" * 10_000, "here", "", 1, 1, {}), path)
    with pytest.raises(ModelError, match=r"a calibration of C+…, not of App@here") as e:
        load_calibration(path, "App", "here")
    assert len(str(e.value)) < 200 + len(str(path))


def alive(mark: bytes) -> list[int]:
    """The processes whose environment carries `mark` (what this test started, and what they started)."""
    found = []
    for d in Path("/proc").iterdir():
        try:
            if d.name.isdigit() and mark in (d / "environ").read_bytes().split(b"\0"):
                found.append(int(d.name))
        except OSError:
            continue
    return found


@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_run_with_such_a_calibration_ends_at_once_through_the_cli(tmp_path: Path, kind: Kind) -> None:
    shutil.copy(REPO / "samples" / "chains" / "appendix-a.chain", tmp_path / "app.chain")
    path = special_file_at(stored(tmp_path), kind)
    mark = f"CHAINLAB_TEST_MARK={uuid.uuid4().hex}"
    started = time.monotonic()
    r = subprocess.run(
        ["node", str(CLI), "run", str(tmp_path / "app.chain"), "--iterations", "10", "-o", str(tmp_path / "out")],
        capture_output=True,
        text=True,
        timeout=120,
        env={**os.environ, mark.split("=")[0]: mark.split("=")[1]},
    )
    assert time.monotonic() - started < 60
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert f"calibration {path}: it is a " in r.stderr and ", not a regular file" in r.stderr
    deadline = time.monotonic() + 10
    while alive(mark.encode()) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert alive(mark.encode()) == []
