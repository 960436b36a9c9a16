"""The one number format people read, as the editor writes it (contract/src/number-format.ts): 3 significant digits,
trailing zeros dropped, ``8.57·10⁻⁵`` below 10⁻³, a duration in the unit the source wrote it in and in s from 10 s on.
Both sides are held to the same vectors (tests/number-format-vectors), so the report text, report.html and the editor
write one number one way."""

from __future__ import annotations

import math
from typing import Literal

DurationUnit = Literal["s", "ms", "µs", "ns"]

_NS_PER: dict[str, float] = {"s": 1e9, "ms": 1e6, "µs": 1e3, "ns": 1.0}
#: From here on a duration reads in s whatever the source unit: 923 s, not 923000 ms.
_SECONDS_FROM_NS = 10e9
#: Probabilities below this are rounding noise of sums of probabilities (1 − 0.9999999999999998).
PROBABILITY_FLOOR = 1e-12
_SUPERSCRIPT = str.maketrans("-0123456789", "⁻⁰¹²³⁴⁵⁶⁷⁸⁹")


def power_of_ten(exponent: int) -> str:
    """10 to an integer power with a superscript exponent: ``10⁻⁶``."""
    return f"10{str(exponent).translate(_SUPERSCRIPT)}"


def format_number(value: float | None) -> str:
    """3 significant digits, trailing zeros dropped; a·10⁻ⁿ below 10⁻³; '–' for no number.

    Parameters
    ----------
    value
        Any number people read; None or NaN for none.

    Returns
    -------
    str
        ``200``, ``110``, ``0.0451``, ``8.57·10⁻⁵``, ``–``.
    """
    if value is None or not math.isfinite(value):
        return "–"
    if value == 0:
        return "0"
    sign = "-" if value < 0 else ""
    magnitude = abs(value)
    if magnitude >= 1e-3:
        rounded = float(f"{magnitude:.3g}")
        # :f with the zeros trimmed writes the plain digits the editor's String(number) does (123000, not 1.23e+05)
        return sign + (f"{rounded:.6f}".rstrip("0").rstrip(".") if rounded < 1e21 else f"{rounded:e}")
    mantissa, exponent = f"{magnitude:.2e}".split("e")
    digits = f"{float(mantissa):g}"  # 8.60 → 8.6, 1.00 → 1
    return f"{sign}{'' if digits == '1' else digits + '·'}{power_of_ten(int(exponent))}"


def format_probability(value: float | None) -> str:
    """A probability: ``0.05``, ``8.57·10⁻⁵``, ``0``; below 10⁻¹² (rounding noise) ``< 10⁻¹²``.

    Parameters
    ----------
    value
        A probability in [0, 1]; None for none.

    Returns
    -------
    str
        The text people read.
    """
    if value is not None and 0 < value < PROBABILITY_FLOOR:
        return f"< {power_of_ten(round(math.log10(PROBABILITY_FLOOR)))}"
    return format_number(value)


def _rounded(ns: float) -> float:
    """|ns| as it will be shown: 999999 ns is 1 ms, not 1000 µs, and 9999 ms is 10 s."""
    return float(f"{abs(ns):.3g}")


def best_duration_unit(ns: float) -> DurationUnit:
    """The unit a duration reads best in when the source named none: s from 1 s, ms from 1 ms, µs from 1 µs."""
    magnitude = _rounded(ns)
    units: tuple[DurationUnit, ...] = ("s", "ms", "µs")
    return next((unit for unit in units if magnitude >= _NS_PER[unit]), "ns")


def format_duration(ns: float | None, unit: str | None = None) -> str:
    """A duration given in ns, in the source's unit when given, else in the unit that reads best.

    Parameters
    ----------
    ns
        The duration in ns; None or NaN for none.
    unit
        The unit the source wrote it in (``s``, ``ms``, ``us`` or ``µs``, ``ns``). Not used from 10 s on (s then),
        nor where the value would be below 0.001 of it (its digits would hide).

    Returns
    -------
    str
        ``0.6 ms``, ``66.6 ms``, ``923 s``, ``–``.
    """
    if ns is None or not math.isfinite(ns):
        return "–"
    magnitude = _rounded(ns)
    source = "µs" if unit == "us" else unit
    if magnitude >= _SECONDS_FROM_NS:
        chosen: str = "s"
    elif source in _NS_PER and (magnitude == 0 or magnitude / _NS_PER[source] >= 1e-3):
        chosen = source
    else:
        chosen = best_duration_unit(ns)
    return f"{format_number(ns / _NS_PER[chosen])} {chosen}"


def format_ms(value_ms: float | None) -> str:
    """A latency in ms (the plots' unit): ``128 ms``, and from 10 s on in s (``923 s``)."""
    if value_ms is not None and math.isfinite(value_ms) and _rounded(value_ms * 1e6) >= _SECONDS_FROM_NS:
        return format_duration(value_ms * 1e6)
    return f"{format_number(value_ms)} ms"
