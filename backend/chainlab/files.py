"""Result files written whole or not at all: a full disk must not leave a truncated report that looks complete."""

from __future__ import annotations

import os
from pathlib import Path


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
