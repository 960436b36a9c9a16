"""Measured times from a CSV another tool wrote: one row per sample (name, time) or per bin (name, time, count),
the unit in a ``unit`` column or in the time column's header. Read as a stream (the csv module over the bytes the
one reader returns), every time parsed exactly to integer ns, each name's times kept in a compact integer array,
never a Python object per row. Whatever is refused names the file and the row (its line in the file)."""

from __future__ import annotations

import csv
import difflib
import io
import re
from array import array
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from chainlab.errors import SourceLoc
from chainlab.files import TIMINGS_CSV, read_user_bytes
from chainlab.interchange.timings_stats import NameTimings, summarize
from chainlab.interchange.xml_input import ImportRefused

#: ns per unit, by every spelling a header or a unit column uses; the canonical spelling is UNIT_NAMES'.
_UNIT_FACTORS: dict[str, tuple[str, int]] = {}
for _canonical, _factor, _spellings in (
    ("ns", 1, ("ns", "nsec", "nsecs", "nanosecond", "nanoseconds")),
    ("us", 1_000, ("us", "µs", "μs", "usec", "usecs", "microsecond", "microseconds")),
    ("ms", 1_000_000, ("ms", "msec", "msecs", "millisecond", "milliseconds")),
    ("s", 1_000_000_000, ("s", "sec", "secs", "second", "seconds")),
):
    for _spelling in _spellings:
        _UNIT_FACTORS[_spelling] = (_canonical, _factor)

_NAME_COLUMNS = ("box", "component", "name", "task")
_TIME_COLUMNS = ("time", "duration", "latency", "elapsed", "execution time", "exec time", "value")
_COUNT_COLUMNS = ("count", "weight", "frequency", "freq", "occurrences")
_UNIT_COLUMNS = ("unit", "units", "time unit")
#: The longest time the IR carries exactly (2^53 - 1 ns, about 104 days); the largest count of one bin.
MAX_NS = 2**53 - 1
MAX_COUNT = 10**11
#: Rows beyond this are refused (8 bytes of memory per sample and per count): bin them first.
MAX_ROWS = 20_000_000

_HEADER_UNIT = re.compile(
    r"^(?P<base>.*?)\s*(?:[\[(]\s*(?P<bracketed>[^\])]+?)\s*[\])]|[\s_/-]+(?:in[\s_]+)?(?P<suffix>[a-zµμ]+))$"
)
_NUMBER = re.compile(r"^\+?(\d*)(?:\.(\d*))?(?:[eE]([+-]?\d{1,3}))?$")


class TimingsRefused(ImportRefused):
    """A timings CSV chainlab refuses: ``FILE:ROW: message`` (the row is the line in the file; none for the file)."""

    def __str__(self) -> str:
        if self.loc and self.loc.line:
            return f"{self.loc.file}:{self.loc.line}: {self.message}"
        return f"{self.loc.file}: {self.message}" if self.loc else self.message


@dataclass(frozen=True)
class Columns:
    """Which header cell is which: indices into a row, and the unit the header names (None where it names none)."""

    width: int
    name: int
    time: int
    count: int | None
    unit: int | None
    header_unit: str | None
    labels: dict[str, str | None]


@dataclass
class TimingsTable:
    """A whole timings CSV: per name (in the order of their first rows) its statistics and bins.

    Attributes
    ----------
    path : str
        The file read.
    rows : int
        Data rows read (the header and blank or ``#`` lines not counted).
    layout : str
        ``samples`` (one row per measured time) or ``bins`` (a count column).
    columns : dict
        The header cells used as ``name``, ``time``, ``count`` and ``unit`` (None where absent).
    timings : list of NameTimings
        One per name, in the order of their first rows.
    """

    path: str
    rows: int
    layout: str
    columns: dict[str, str | None]
    timings: list[NameTimings] = field(default_factory=list)

    def to_json(self) -> dict[str, object]:
        return {
            "path": self.path,
            "rows": self.rows,
            "layout": self.layout,
            "columns": dict(self.columns),
            "timings": [t.to_json() for t in self.timings],
        }


@dataclass
class _Accumulator:
    first_row: int
    unit: str
    times: array = field(default_factory=lambda: array("q"))
    counts: array | None = None


def read_timings(path: str | Path, names: Iterable[str] | None = None) -> TimingsTable:
    """Reads a CSV of measured times into per-name statistics and bins.

    Parameters
    ----------
    path
        The CSV: a header row, then one row per sample (name, time) or per bin (name, time, count). The name column
        is called box, component, name or task; the unit (ns, us/µs, ms, s) is a ``unit`` column or part of the time
        column's header (``time_ms``, ``time [us]``, ``duration (ns)``). Comma, semicolon or tab separated.
    names
        The names the model has: a row naming another is refused. None accepts every name.

    Returns
    -------
    TimingsTable
        Per name: sample count, first row, statistics in ns, at most about 50 bins.

    Raises
    ------
    chainlab.files.UserFileError
        The file is missing, not a regular file or above 1 GiB.
    TimingsRefused
        ``FILE:ROW: ...``: no header or unit, an unknown name, a negative, non-numeric or non-finite time, a row with
        the wrong number of fields, not UTF-8, more than MAX_ROWS rows, or no data rows at all.
    """
    data = read_user_bytes(path, TIMINGS_CSV)
    file = str(path)
    _check_utf8(data, file)
    known = None if names is None else set(names)
    reader = csv.reader(io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline=""), _dialect(data))
    rows = _content_rows(reader)
    header = next(rows, None)
    if header is None:
        raise TimingsRefused("empty: no header row (e.g. box,time_ms)", SourceLoc(file, 0, 0))
    columns = _columns(header, file, reader.line_num)
    accumulators = _accumulate(rows, reader, columns, file, known)
    if not accumulators:
        raise TimingsRefused("no data rows after the header", SourceLoc(file, reader.line_num, 0))
    count = sum(len(a.times) for a in accumulators.values())
    return TimingsTable(
        path=file,
        rows=count,
        layout="samples" if columns.count is None else "bins",
        columns=columns.labels,
        timings=[_summary(name, acc, file) for name, acc in accumulators.items()],
    )


def _check_utf8(data: bytes, file: str) -> None:
    if data.isascii():
        return
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        row = data.count(b"\n", 0, error.start) + 1
        raise TimingsRefused("not UTF-8 text (save the CSV as UTF-8)", SourceLoc(file, row, 0)) from None


def _dialect(data: bytes) -> type[csv.Dialect]:
    """Comma, else the separator the header uses: a semicolon (spreadsheets with a decimal comma) or a tab."""
    for line in data[:65536].splitlines():
        text = line.strip()
        if text and not text.startswith(b"#"):
            separator = max((b",", b";", b"\t"), key=text.count)
            if text.count(separator):
                return {b",": csv.excel, b";": _Semicolon, b"\t": csv.excel_tab}[separator]
            break
    return csv.excel


class _Semicolon(csv.excel):
    delimiter = ";"


def _content_rows(reader: Iterator[list[str]]) -> Iterator[list[str]]:
    """The rows that say something: blank lines and ``#`` comments are skipped."""
    for row in reader:
        if not row or (len(row) == 1 and not row[0].strip()) or row[0].lstrip().startswith("#"):
            continue
        yield row


def _columns(header: list[str], file: str, row: int) -> Columns:
    found: dict[str, tuple[int, str]] = {}
    header_unit: str | None = None
    for index, cell in enumerate(header):
        label = cell.strip()
        base, unit = _split_unit(label.lower())
        role = _role(base)
        if role is None:
            continue
        if role in found:
            raise TimingsRefused(
                f"two {role} columns in the header: '{found[role][1]}' and '{label}'", SourceLoc(file, row, 0)
            )
        found[role] = (index, label)
        if role == "time" and unit is not None:
            header_unit = unit
    for role, spellings in (("name", _NAME_COLUMNS), ("time", _TIME_COLUMNS)):
        if role not in found:
            raise TimingsRefused(
                f"no {role} column in the header ({', '.join(c.strip() for c in header)}); "
                f"name one {' or '.join(spellings[:4])}",
                SourceLoc(file, row, 0),
            )
    if header_unit is None and "unit" not in found:
        raise TimingsRefused(
            f"no unit: name it in the header ('{found['time'][1]}_ms', 'time [us]', 'duration (ns)') "
            "or give a unit column (ns, us, ms, s)",
            SourceLoc(file, row, 0),
        )
    index_of = {role: index for role, (index, _) in found.items()}
    return Columns(
        width=len(header),
        name=index_of["name"],
        time=index_of["time"],
        count=index_of.get("count"),
        unit=index_of.get("unit"),
        header_unit=header_unit,
        labels={role: found[role][1] if role in found else None for role in ("name", "time", "count", "unit")},
    )


def _split_unit(label: str) -> tuple[str, str | None]:
    """``time [us]`` → (``time``, ``us``); a suffix that is no unit stays part of the name."""
    match = _HEADER_UNIT.match(label)
    if match:
        unit = match.group("bracketed") or match.group("suffix")
        if unit in _UNIT_FACTORS:
            return match.group("base").strip(" _-/"), _UNIT_FACTORS[unit][0]
    return label, None


def _role(base: str) -> str | None:
    normalised = re.sub(r"[\s_-]+", " ", base).strip()
    for role, spellings in (
        ("name", _NAME_COLUMNS),
        ("time", _TIME_COLUMNS),
        ("count", _COUNT_COLUMNS),
        ("unit", _UNIT_COLUMNS),
    ):
        if normalised in spellings:
            return role
    return None


def _accumulate(
    rows: Iterator[list[str]], reader: Any, columns: Columns, file: str, known: set[str] | None
) -> dict[str, _Accumulator]:
    accumulators: dict[str, _Accumulator] = {}
    default = columns.header_unit
    for read, row in enumerate(rows, 1):
        line = reader.line_num
        if len(row) != columns.width:
            raise TimingsRefused(f"{len(row)} field(s), the header has {columns.width}", SourceLoc(file, line, 0))
        if read > MAX_ROWS:
            raise TimingsRefused(
                f"more than {MAX_ROWS:,} rows: give one row per bin (name, time, count) instead",
                SourceLoc(file, line, 0),
            )
        name = row[columns.name].strip()
        acc = accumulators.get(name)
        unit = default if columns.unit is None else _row_unit(row[columns.unit], default, file, line)
        if acc is None:
            acc = _new_name(name, known, line, unit, columns, file)
            accumulators[name] = acc
        acc.times.append(_time_ns(row[columns.time], unit, file, line))
        if acc.counts is not None:
            acc.counts.append(_count(row[columns.count or 0], file, line))
    return accumulators


def _new_name(
    name: str, known: set[str] | None, line: int, unit: str | None, columns: Columns, file: str
) -> _Accumulator:
    if not name:
        raise TimingsRefused(f"no name in the {columns.labels['name']} column", SourceLoc(file, line, 0))
    if known is not None and name not in known:
        close = difflib.get_close_matches(name, sorted(known), n=1)
        hint = f"; did you mean '{close[0]}'?" if close else ""
        has = ", ".join(sorted(known)) or "none"
        raise TimingsRefused(f"unknown name '{name}' (the model has: {has}){hint}", SourceLoc(file, line, 0), name)
    return _Accumulator(first_row=line, unit=unit or "ns", counts=None if columns.count is None else array("q"))


def _row_unit(cell: str, default: str | None, file: str, line: int) -> str:
    text = cell.strip()
    if not text:
        if default is None:
            raise TimingsRefused("no unit on this row (ns, us, ms or s)", SourceLoc(file, line, 0))
        return default
    entry = _UNIT_FACTORS.get(text.lower()) or _UNIT_FACTORS.get(text)
    if entry is None:
        raise TimingsRefused(f"unknown unit '{text}' (ns, us, µs, ms or s)", SourceLoc(file, line, 0))
    if default is not None and entry[0] != default:
        raise TimingsRefused(f"the unit column says {entry[0]}, the header {default}", SourceLoc(file, line, 0))
    return entry[0]


_FACTOR = {canonical: factor for canonical, factor in _UNIT_FACTORS.values()}


def _time_ns(cell: str, unit: str | None, file: str, line: int) -> int:
    """The time exactly in integer ns (a sub-ns remainder rounded half to even)."""
    factor = _FACTOR[unit or "ns"]
    text = cell.strip()
    whole, _, fraction = text.partition(".")
    if text.isascii() and whole.isdigit() and (fraction.isdigit() or not fraction) and len(fraction) < 10:
        ns = _rounded(int(whole + fraction) * factor, len(fraction))  # the common case, without the regex
    else:
        ns = _decimal_ns(text, factor, file, line)
    if ns > MAX_NS:
        raise TimingsRefused(
            f"time '{text} {unit}' is longer than 2^53 - 1 ns (about 104 days)", SourceLoc(file, line, 0)
        )
    return ns


def _decimal_ns(text: str, factor: int, file: str, line: int) -> int:
    match = _NUMBER.match(text)
    if not match or not (match.group(1) or match.group(2)):
        raise TimingsRefused(_not_a_time(text), SourceLoc(file, line, 0))
    whole, fraction, exponent = match.group(1), match.group(2) or "", int(match.group(3) or 0)
    numerator = int(whole + fraction or "0") * factor
    return _rounded(numerator, len(fraction) - exponent)


def _rounded(numerator: int, scale: int) -> int:
    """numerator / 10^scale as an integer, rounded half to even."""
    if scale <= 0:
        return numerator * 10**-scale
    quotient, remainder = divmod(numerator, 10**scale)
    twice = 2 * remainder
    if twice > 10**scale or (twice == 10**scale and quotient % 2):
        quotient += 1
    return quotient


def _not_a_time(text: str) -> str:
    lowered = text.lower().lstrip("+-")
    if text.startswith("-") and _NUMBER.match(text[1:]):
        return f"time '{text}' is negative"
    if lowered in ("nan", "inf", "infinity"):
        return f"time '{text}' is not finite"
    return f"time '{text}' is not a number" if text else "no time in this row"


def _count(cell: str, file: str, line: int) -> int:
    text = cell.strip()
    if text.isascii() and text.isdigit():
        value = int(text)
        if value > MAX_COUNT:
            raise TimingsRefused(f"count {text} is above {MAX_COUNT:,}", SourceLoc(file, line, 0))
        return value
    if text.startswith("-") and text[1:].strip().isdigit():
        raise TimingsRefused(f"count '{text}' is negative", SourceLoc(file, line, 0))
    raise TimingsRefused(f"count '{text}' is not a whole number", SourceLoc(file, line, 0))


def _summary(name: str, acc: _Accumulator, file: str) -> NameTimings:
    summary = summarize(name, acc.first_row, acc.unit, acc.times, acc.counts)
    if summary is None:
        raise TimingsRefused(f"every count of '{name}' is 0", SourceLoc(file, acc.first_row, 0), name)
    return summary
