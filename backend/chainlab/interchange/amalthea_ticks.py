"""Execution needs in ticks (processor cycles), exactly: the distributions Amalthea writes for them, their sums
(convolutions) and their conversion to nanoseconds at a core's frequency.

Everything is integer ticks and `Fraction` probabilities; nothing goes through floating point."""

from __future__ import annotations

import math
from dataclasses import dataclass
from fractions import Fraction

from chainlab.interchange.ptts_text import EtpText, PmfEtp, PointEtp, UniformEtp

#: Most points a pmf may have after a sum or a conversion (beyond it the .chain text stops being readable).
MAX_POINTS = 10_000
#: Most products one convolution may compute (keeps an import well under a second or so).
MAX_WORK = 4_000_000
#: Most points a written `uniform` may have; a wider one gets a coarser step (said in a note).
MAX_UNIFORM = 1_000_000


class TooLarge(Exception):
    """A distribution would need more points than MAX_POINTS; the caller names the element."""


@dataclass(frozen=True)
class Ticks:
    """A distribution of ticks: uniform on lo..hi (step 1 tick) when `pmf` is None, else the exact pmf."""

    lo: int
    hi: int
    pmf: dict[int, Fraction] | None = None

    @staticmethod
    def point(value: int) -> Ticks:
        return Ticks(value, value)

    @staticmethod
    def of_pmf(pmf: dict[int, Fraction]) -> Ticks:
        clean = {t: p for t, p in pmf.items() if p > 0}
        lo, hi = min(clean), max(clean)
        return Ticks(lo, hi) if lo == hi else Ticks(lo, hi, clean)

    @property
    def is_point(self) -> bool:
        return self.lo == self.hi

    def points(self) -> dict[int, Fraction]:
        if self.pmf is not None:
            return self.pmf
        count = self.hi - self.lo + 1
        if count > MAX_POINTS:
            raise TooLarge(f"a uniform distribution of {count} ticks")
        p = Fraction(1, count)
        return {t: p for t in range(self.lo, self.hi + 1)}


def add(a: Ticks, b: Ticks) -> Ticks:
    """The distribution of the sum of independent draws of `a` and `b` (their convolution), exact."""
    if a.is_point or b.is_point:
        shift, other = (a.lo, b) if a.is_point else (b.lo, a)
        if other.pmf is None:
            return Ticks(other.lo + shift, other.hi + shift)
        return Ticks(other.lo + shift, other.hi + shift, {t + shift: p for t, p in other.pmf.items()})
    pa, pb = a.points(), b.points()
    if len(pa) * len(pb) > MAX_WORK:
        raise TooLarge(f"the sum of distributions of {len(pa)} and {len(pb)} points")
    out: dict[int, Fraction] = {}
    for ta, qa in pa.items():
        for tb, qb in pb.items():
            out[ta + tb] = out.get(ta + tb, Fraction(0)) + qa * qb
    if len(out) > MAX_POINTS:
        raise TooLarge(f"a sum of {len(out)} points")
    return Ticks.of_pmf(out)


@dataclass(frozen=True)
class Converted:
    """An ETP in ns, the largest amount any of its points was rounded up by (0 when exact), and what was
    approximated ('' when nothing)."""

    etp: EtpText
    rounded_up: Fraction
    approximated: str = ""


def to_ns(ticks: Ticks, frequency_hz: Fraction) -> Converted:
    """`ticks` at `frequency_hz` in whole nanoseconds: each time ticks × 10⁹ / f, rounded up where it is not whole.

    A uniform of more than MAX_UNIFORM points (or, off a whole-ns tick, MAX_POINTS) keeps its range but gets a
    coarser step, said in `approximated`.
    """
    tick_ns = Fraction(10**9) / frequency_hz
    if ticks.is_point:
        ns, up = _ceil(ticks.lo * tick_ns)
        return Converted(PointEtp(ns), up)
    count = ticks.hi - ticks.lo + 1
    if ticks.pmf is None and tick_ns.denominator == 1 and count <= MAX_UNIFORM:
        step = int(tick_ns)
        return Converted(UniformEtp(ticks.lo * step, ticks.hi * step, step), Fraction(0))
    if ticks.pmf is None and (tick_ns.denominator == 1 or count > MAX_POINTS):
        return _wide_uniform(ticks, tick_ns)
    out: dict[int, Fraction] = {}
    worst = Fraction(0)
    for t, p in ticks.points().items():
        ns, up = _ceil(t * tick_ns)
        out[ns] = out.get(ns, Fraction(0)) + p
        worst = max(worst, up)
    if len(out) == 1:
        return Converted(PointEtp(next(iter(out))), worst)
    return Converted(PmfEtp(out), worst)


def _wide_uniform(ticks: Ticks, tick_ns: Fraction) -> Converted:
    """A uniform too wide to write point by point: the same range on a step of 1, 2 or 5 × 10^k ns."""
    lo, lo_up = _ceil(ticks.lo * tick_ns)
    hi, hi_up = _ceil(ticks.hi * tick_ns)
    need = Fraction(hi - lo, MAX_UNIFORM - 1)
    step = next(s for k in range(19) for s in (10**k, 2 * 10**k, 5 * 10**k) if s >= max(need, tick_ns))
    top = lo + -(-(hi - lo) // step) * step  # the range's end, rounded up onto the step
    why = f"a uniform of {ticks.hi - ticks.lo + 1} ticks is written on a {step} ns step"
    return Converted(UniformEtp(lo, top, step), max(lo_up, hi_up + top - hi), why)


def _ceil(value: Fraction) -> tuple[int, Fraction]:
    up = math.ceil(value)
    return up, up - value
