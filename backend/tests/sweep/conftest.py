"""The sweep tests' fixture: a Dask scheduler and two workers as separate processes, for the module's tests."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
sys.path.insert(0, str(Path(__file__).parents[1] / "ptts"))  # the PTTS case models (ptts_cases)

from dask_processes import DaskProcesses


@pytest.fixture(scope="module")
def dask_cluster() -> Iterator[DaskProcesses]:
    cluster = DaskProcesses(2)
    try:
        yield cluster
    finally:
        cluster.stop()
