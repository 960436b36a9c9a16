"""Sweep results on disk as they complete: one CSV row per point, with the point's key and the model's hash.

Rows are appended (a finished batch at once) on an O_APPEND descriptor and fsync'd before they count as done, so
an interruption (Ctrl-C, a killed process, a power cut) leaves whole rows only; a torn last line (a write cut
short) is dropped when the file is opened again. A file written for another model (another hash) is refused,
never mixed.

Cells are exact: numbers are written as Python writes them (repr of a float round-trips bit for bit; NaN and
infinities are refused, naming the row and column), strings as they are unless they would read back as something
else (then JSON-quoted), anything nested as JSON. An empty cell is a field the row does not have. No cell holds a
newline, so one line is one row. A write that fails (a full disk) is cut back off and names the file.
"""

from __future__ import annotations

import contextlib
import csv
import io
import json
import math
import os
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from chainlab.errors import ChainlabError
from chainlab.files import (
    SWEEP_CSV,
    UserFileError,
    check_regular,
    decode_text,
    excerpt,
    named,
    read_user_bytes,
    special_reason,
)
from chainlab.finite_json import NonFiniteNumber, dumps, non_finite_path

KEY = "key"
MODEL_HASH = "model_hash"


class StoreMismatch(ChainlabError):
    """The file holds rows of another model or another sweep shape: refused, never mixed."""


def encode(value: Any) -> str:
    if type(value) is float and math.isfinite(value):  # most cells of a sweep: the shortest path
        return repr(value)
    if isinstance(value, str):
        if value == "" or "\n" in value or "\r" in value or _parses(value):
            return json.dumps(value)
        return value
    if isinstance(value, bool) or value is None:
        return json.dumps(value)
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if not math.isfinite(value):  # a cell the file's reader refuses: never written
            raise NonFiniteNumber("", value)
        return repr(value)
    return dumps(value, separators=(",", ":"), sort_keys=False)


def _parses(text: str) -> bool:
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def decode(cell: str) -> Any:
    try:
        return json.loads(cell)
    except ValueError:
        return cell


class RowStore:
    """An incremental CSV of sweep rows. `fields` fixes the columns (after key and model_hash); without it the first
    row written fixes them. resume=False refuses an existing non-empty file (nothing is overwritten by accident)."""

    def __init__(self, path: str | Path, model_hash: str, *, fields: Iterable[str] | None = None, resume: bool = False):
        self.path = Path(path)
        self.model_hash = model_hash
        self.fields: list[str] | None = list(fields) if fields is not None else None
        self._rows: dict[str, dict[str, Any]] = {}
        self._fd: int | None = None
        # stat only: a FIFO or a device at the path is refused before an open could block or write into it
        if check_regular(self.path, SWEEP_CSV) and self.path.stat().st_size > 0:
            if not resume:
                raise StoreMismatch(
                    f"{self.path} already exists: resume it (--resume) or choose another file (nothing was overwritten)"
                )
            self._load()

    def _load(self) -> None:
        raw = read_user_bytes(self.path, SWEEP_CSV)
        whole = raw[: raw.rfind(b"\n") + 1]  # a last line without its newline is a torn write: dropped
        lines = decode_text(whole, self.path, SWEEP_CSV).splitlines()
        if len(whole) != len(raw):
            fd = os.open(self.path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC)
            try:
                os.ftruncate(fd, len(whole))
                os.fsync(fd)
            finally:
                os.close(fd)
        if not lines:
            return
        header = self._cells(lines[0], 1)
        if header[:2] != [KEY, MODEL_HASH]:
            start = excerpt(",".join(header[:2]))
            raise StoreMismatch(f"{self.path} is not a chainlab sweep file (its header starts {start})")
        fields = header[2:]
        if self.fields is not None and fields != self.fields:
            raise StoreMismatch(
                f"{self.path} holds another sweep (columns {excerpt(', '.join(fields), 200)}; this sweep writes "
                f"{', '.join(self.fields)}): choose another file"
            )
        self.fields = fields
        for number, line in enumerate(lines[1:], 2):
            cells = self._cells(line, number)
            key, model_hash, values = cells[0], cells[1], cells[2:]
            if model_hash != self.model_hash:
                raise StoreMismatch(
                    f"{self.path} holds results of another model (hash {model_hash[:12]}, this model "
                    f"{self.model_hash[:12]}): choose another file, or delete it to start again"
                )
            self._rows[key] = {f: self._finite(decode(c), f, number) for f, c in zip(fields, values) if c != ""}

    def _finite(self, value: Any, field: str, number: int) -> Any:
        """`value`, refused where it is NaN or infinite: no JSON carries it on to a reply (chainlab writes none)."""
        if isinstance(value, float) and not math.isfinite(value):
            raise StoreMismatch(f"{self.path}:{number}: {field} is {value!r}, not a finite number (edited by hand?)")
        return value

    def _cells(self, line: str, number: int) -> list[str]:
        """One line's cells; a line that is no row (a NUL byte, fewer than two cells) names its number only."""
        try:
            cells = next(csv.reader([line]), [])
        except csv.Error as error:
            raise StoreMismatch(f"{self.path}:{number}: not a line of a chainlab sweep file ({error})") from None
        if len(cells) < 2:
            raise StoreMismatch(f"{self.path}:{number}: not a line of a chainlab sweep file (fewer than 2 cells)")
        return cells

    def rows(self) -> dict[str, dict[str, Any]]:
        """The rows already stored, by key."""
        return dict(self._rows)

    def __contains__(self, key: str) -> bool:
        return key in self._rows

    def __len__(self) -> int:
        return len(self._rows)

    def append(self, key: str, row: Mapping[str, Any]) -> None:
        """Writes one row durably (one write, then fsync) before returning."""
        self.append_many([(key, row)])

    def append_many(self, rows: Sequence[tuple[str, Mapping[str, Any]]]) -> None:
        """Writes rows durably with one write and one fsync (a finished batch: thousands of rows a second would
        otherwise wait for as many fsyncs). Cut short, the write leaves whole rows and at most one torn line."""
        if not rows:
            return
        if self.fields is None:
            self.fields = list(rows[0][1])
        out = io.StringIO()  # every line of the batch through one writer: ~5x less CPU than a writer a row
        writer = csv.writer(out, lineterminator="\n")
        if self._fd is None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self._fd = self._open()
            if os.fstat(self._fd).st_size == 0:
                writer.writerow([KEY, MODEL_HASH, *self.fields])
        columns = frozenset(self.fields)
        writer.writerows(self._row_cells(key, row, columns) for key, row in rows)
        self._write(out.getvalue().encode("utf-8"))
        for key, row in rows:
            self._rows[key] = dict(row)

    def _open(self) -> int:
        """The file opened for appending. O_NONBLOCK: a FIFO put at the path since it was checked fails (ENXIO) or
        is refused after, never blocks the open."""
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o644)
        special = special_reason(os.fstat(fd).st_mode)
        if special:
            os.close(fd)
            raise UserFileError(self.path, SWEEP_CSV, special)
        return fd

    def _row_cells(self, key: str, row: Mapping[str, Any], columns: frozenset[str]) -> list[str]:
        """The CSV cells of one row, in the file's columns (`columns`: the same as a set)."""
        assert self.fields is not None
        if KEY in row or MODEL_HASH in row:
            raise ValueError(f"a sweep row may not have a field named {KEY!r} or {MODEL_HASH!r}")
        if not columns.issuperset(row):
            extra = [f for f in row if f not in self.fields]
            raise ValueError(f"row {key!r} has fields the file has no column for: {', '.join(extra)}")
        try:
            return [key, self.model_hash, *(encode(row[f]) if f in row else "" for f in self.fields)]
        except NonFiniteNumber as error:
            where = next(found[0] for f in self.fields if f in row and (found := non_finite_path(row[f], f)))
            raise NonFiniteNumber(f"{self.path}: row {key!r}, {where}", error.value) from None

    def _write(self, data: bytes) -> None:
        """Appends `data` and fsyncs; a failed write (a full disk) is cut back off, so the next append starts on a
        line of its own, and the OSError names the file (write(2) names none)."""
        assert self._fd is not None
        before = os.fstat(self._fd).st_size
        try:
            written = 0
            while written < len(data):  # one write(2) for a line-sized text; a long batch may take more
                written += os.write(self._fd, data[written:])
            os.fsync(self._fd)
        except OSError as error:
            with contextlib.suppress(OSError):
                os.ftruncate(self._fd, before)
            raise named(error, self.path) from None

    def close(self) -> None:
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def __enter__(self) -> RowStore:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
