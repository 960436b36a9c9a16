"""What the chain binary's trace (`--trace N`, tasks.csv) says: when each sub-box ran in an iteration.

tasks.csv has one row per traced iteration and sub-box: `iteration,sub_box,start_ns,end_ns`, both times from the
iteration's release. It feeds two things: the measured bars of the thread lanes (median start and end per
sub-box) and calibration (each sub-box's execution-time distribution as it ran in the plan's schedule).
"""

from __future__ import annotations

import io
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from chainlab.files import MEASUREMENT, UserFileError, excerpt, read_user_text

# iterations traced by default: enough for a p99 per sub-box, few enough to stay small (16 B per sub-box each)
DEFAULT_TRACE = 2000


@dataclass
class Trace:
    names: list[str]  # sub-box names, in the columns' order
    iterations: np.ndarray  # (n,) iteration numbers
    start: np.ndarray  # (n, subs) ns from the release
    end: np.ndarray  # (n, subs)

    @property
    def durations(self) -> np.ndarray:
        return np.maximum(self.end - self.start, 0)


def read_trace(path: Path) -> Trace | None:
    """The trace in `path`, or None when there is none or it has no complete iteration.

    Parameters
    ----------
    path
        A tasks.csv, read by the one reader (a regular file of at most 256 MiB).

    Returns
    -------
    Trace or None
        The complete iterations, None without any.

    Raises
    ------
    UserFileError
        The file cannot be read, or its rows are not iteration,sub_box,start_ns,end_ns (file and reason).
    """
    try:
        text = read_user_text(path, MEASUREMENT)
    except UserFileError as error:
        if error.missing:
            return None
        raise
    if not text.partition("\n")[2].strip():  # the header only: no iteration traced
        return None
    try:
        rows = np.genfromtxt(io.StringIO(text), delimiter=",", skip_header=1, dtype=None, encoding="utf-8")
    except ValueError as error:  # numpy names the lines with a wrong number of columns
        raise UserFileError(path, MEASUREMENT, f"not a trace ({excerpt(str(error), 120)})") from None
    rows = np.atleast_1d(rows)
    if rows.size == 0:
        return None
    columns = rows.dtype.names
    # times may be missing (nan: an iteration the run did not finish), iteration numbers may not
    kinds = [rows.dtype[c].kind for c in columns or ()]
    if len(kinds) != 4 or kinds[0] not in "iu" or kinds[2] not in "iuf" or kinds[3] not in "iuf":
        raise UserFileError(path, MEASUREMENT, "not iteration,sub_box,start_ns,end_ns rows (numbers)")
    names: list[str] = []
    col: dict[str, int] = {}
    for name in rows["f1"]:
        if str(name) not in col:
            col[str(name)] = len(names)
            names.append(str(name))
    iterations, at = np.unique(rows["f0"].astype(np.int64), return_inverse=True)
    start = np.full((len(iterations), len(names)), np.nan)
    end = np.full_like(start, np.nan)
    cols = np.array([col[str(n)] for n in rows["f1"]])
    start[at, cols] = rows["f2"]
    end[at, cols] = rows["f3"]
    complete = ~np.isnan(start).any(axis=1) & ~np.isnan(end).any(axis=1)
    if not complete.any():
        return None
    return Trace(names, iterations[complete], start[complete], end[complete])


def task_summary(trace: Trace, threads: dict[str, int]) -> list[dict[str, Any]]:
    """Per sub-box: median start and end from the release, median and p99 execution time (contract
    MeasuredTask), in the plan's thread of each sub-box."""
    durations = trace.durations
    out = []
    for k, name in enumerate(trace.names):
        out.append(
            {
                "sub_box": name,
                "thread": threads.get(name, -1),
                "start_ns": int(np.median(trace.start[:, k])),
                "end_ns": int(np.median(trace.end[:, k])),
                "duration_p50_ns": int(np.median(durations[:, k])),
                "duration_p99_ns": int(np.quantile(durations[:, k], 0.99, method="higher")),
                "samples": len(durations),
            }
        )
    return out
