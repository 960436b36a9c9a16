"""Printing PTTS chains as .chain text: exact durations, ETPs whose probabilities are decimals summing to exactly 1,
names the grammar accepts, and the notes of an import as `//` comments."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction

from chainlab.interchange.dsl_words import RESERVED

_UNITS_NS = (("s", 1_000_000_000), ("ms", 1_000_000), ("us", 1_000), ("ns", 1))
#: Digits beyond which a probability is not refined (the editor's pmf writer stops there too).
_MAX_DIGITS = 15


@dataclass(frozen=True)
class PointEtp:
    value_ns: int


@dataclass(frozen=True)
class UniformEtp:
    """The discrete uniform distribution on min_ns, min_ns + step_ns, ..., max_ns."""

    min_ns: int
    max_ns: int
    step_ns: int


@dataclass(frozen=True)
class PmfEtp:
    """Exact probabilities per time (they sum to 1)."""

    points: dict[int, Fraction]


EtpText = PointEtp | UniformEtp | PmfEtp


@dataclass(frozen=True)
class PttsComponent:
    name: str
    period_ns: int
    offset_ns: int
    etp: EtpText


@dataclass(frozen=True)
class LatencyBound:
    """`require latency <= bound with probability >= 100 %` (a maximum that must always hold)."""

    bound_ns: int


@dataclass
class PttsChain:
    name: str
    components: list[PttsComponent]
    resolution_ns: int | None = None
    requirements: list[LatencyBound] = field(default_factory=list)
    comments: list[str] = field(default_factory=list)


def duration(ns: int) -> str:
    """An exact duration in the largest unit that reads it as at least 1 with at most 3 decimals: ``66.6 ms``,
    ``2.5 us``, ``7 ns``; 0 is ``0 ms``."""
    if ns < 0:
        raise ValueError(f"negative duration {ns} ns")
    if ns == 0:
        return "0 ms"
    for unit, scale in _UNITS_NS:
        if ns >= scale and (ns * 1000) % scale == 0:
            whole, part = divmod(ns, scale)
            decimals = f"{part * 1000 // scale:03d}".rstrip("0")
            return f"{whole}.{decimals} {unit}" if decimals else f"{whole} {unit}"
    return f"{ns} ns"


def exact_probabilities(weights: list[Fraction], digits: int = 12) -> list[str]:
    """Each weight / Σ weights as a decimal rounded half up to `digits` places (more where a positive weight would
    round to 0); the remainder goes to the first largest, so the decimals sum to exactly 1 (as the editor does)."""
    total = sum(weights, Fraction(0))
    if total <= 0:
        raise ValueError("probabilities must have a positive sum")
    while True:
        scale = 10**digits
        units = [int((2 * w * scale + total) // (2 * total)) for w in weights]
        if digits >= _MAX_DIGITS or not any(u == 0 and w > 0 for u, w in zip(units, weights)):
            break
        digits += 1
    largest = units.index(max(units))
    units[largest] += scale - sum(units)
    return [_decimal(u, digits) for u in units]


def _decimal(units: int, digits: int) -> str:
    whole, frac = divmod(units, 10**digits)
    text = f"{whole}.{frac:0{digits}d}".rstrip("0").rstrip(".")
    return text or "0"


def etp_text(etp: EtpText) -> str:
    """The ETP as written after ``etp``: ``point 5 ms``, ``uniform 1 ms .. 2 ms step 10 us``, ``pmf { ... }``."""
    if isinstance(etp, PointEtp):
        return f"point {duration(etp.value_ns)}"
    if isinstance(etp, UniformEtp):
        return f"uniform {duration(etp.min_ns)} .. {duration(etp.max_ns)} step {duration(etp.step_ns)}"
    times = sorted(etp.points)
    probabilities = exact_probabilities([etp.points[t] for t in times])
    entries = [f"{duration(t)}: {p}" for t, p in zip(times, probabilities) if p != "0"]
    if len(entries) <= 4:
        return "pmf { " + ", ".join(entries) + " }"
    rows = [", ".join(entries[i : i + 4]) for i in range(0, len(entries), 4)]
    return "pmf {\n        " + ",\n        ".join(rows) + "\n    }"


def chain_name(raw: str, taken: set[str]) -> str:
    """`raw` as a name the grammar accepts (letters, digits, _; not a keyword), unique among `taken` (updated)."""
    name = re.sub(r"\W", "_", raw, flags=re.ASCII) or "_"
    if name[0].isdigit():
        name = "_" + name
    if name in RESERVED:
        name += "_"
    unique, n = name, 2
    while unique in taken:
        unique, n = f"{name}_{n}", n + 1
    taken.add(unique)
    return unique


def comment_lines(lines: list[str]) -> str:
    """Each line as a `//` comment (line breaks inside a note become further comment lines)."""
    out: list[str] = []
    for line in lines:
        out.extend(f"// {part}".rstrip() for part in line.splitlines() or [""])
    return "\n".join(out) + "\n" if out else ""


def ptts_text(chain: PttsChain) -> str:
    """One ``ptts NAME { ... }`` block, with its comments above it."""
    lines = [comment_lines(chain.comments).rstrip("\n")] if chain.comments else []
    lines.append(f"ptts {chain.name} {{")
    if chain.resolution_ns is not None:
        lines.append(f"    resolution {duration(chain.resolution_ns)}")
    for c in chain.components:
        lines.append(
            f"    component {c.name}  period {duration(c.period_ns)}  offset {duration(c.offset_ns)}  "
            f"etp {etp_text(c.etp)}"
        )
    for r in chain.requirements:
        lines.append(f"    require latency <= {duration(r.bound_ns)} with probability >= 100 %")
    lines.append("}")
    return "\n".join(lines) + "\n"
