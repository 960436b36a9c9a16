"""Paths that name no regular file, for the tests of every reader of a file a user names (through chainlab/files.py):
each must be refused before it is opened, naming the path and the reason.

- "fifo": a named pipe; opening it blocks until a writer comes;
- "device": /dev/zero, which never ends;
- "directory": a directory where a file is expected.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Literal

Kind = Literal["fifo", "device", "directory"]
KINDS: tuple[Kind, ...] = ("fifo", "device", "directory")
DEVICE = Path("/dev/zero")


def special_file(kind: Kind, tmp_path: Path, name: str) -> Path:
    """A path of `kind` for a reader that is handed its path.

    Parameters
    ----------
    kind
        What the path is.
    tmp_path
        The test's own directory: the FIFO is made in it, and it is the directory.
    name
        The FIFO's name (what the reader would expect there).

    Returns
    -------
    Path
        The FIFO `tmp_path / name`, /dev/zero itself, or `tmp_path`.
    """
    if kind == "fifo":
        os.mkfifo(tmp_path / name)
        return tmp_path / name
    return DEVICE if kind == "device" else tmp_path


def special_file_at(path: Path, kind: Kind) -> Path:
    """`path` made a `kind`, for a reader that finds its file by name rather than being handed it.

    Parameters
    ----------
    path
        Where the reader looks; nothing may be there yet.
    kind
        What to make there: a FIFO, a symbolic link to /dev/zero (a device by any name), or an empty directory.

    Returns
    -------
    Path
        `path`.
    """
    if kind == "fifo":
        os.mkfifo(path)
    elif kind == "device":
        path.symlink_to(DEVICE)
    else:
        path.mkdir()
    return path
