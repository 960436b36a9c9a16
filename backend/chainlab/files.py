"""Paths the user names and result files: results are written whole or not at all (a full disk must not leave a
truncated report that looks complete), and a path is resolved with a link loop reported as a file-system error."""

from __future__ import annotations

import errno
import os
from pathlib import Path


def resolved(path: str | Path) -> Path:
    """`path` made absolute with its links followed. A link loop (`-o loop` where loop -> loop) is an OSError (ELOOP)
    naming the path, as Python 3.13 raises it, not Python 3.11's RuntimeError, which reached the user as an internal
    error (issue 17, found by the CLI argument fuzz); the server reports an OSError as one line with path and reason."""
    try:
        return Path(path).resolve()
    except RuntimeError as error:
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path)) from error


def write_atomic(path: Path, text: str) -> None:
    """Writes `text` to PATH.tmp, then renames it over `path`; on failure nothing is left at either name and the
    OSError (naming `path`) propagates."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        with tmp.open("w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, path)
    except OSError as error:
        tmp.unlink(missing_ok=True)
        if error.filename is None or str(error.filename) == str(tmp):
            error.filename = str(path)
        raise
