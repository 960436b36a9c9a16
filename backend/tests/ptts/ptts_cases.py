"""IR builders for the PTTS tests and bench: the thesis example (Fig. 5.2) and Tables 5.1/5.3."""

from __future__ import annotations

from typing import Any

MS = 1_000_000
US10 = 10_000  # 0.01 ms, the unit of the Table 5.1 periods


def loc(line: int, file: str = "samples/ptts/thesis-fig5-2.chain") -> dict[str, Any]:
    return {"file": file, "line": line, "column": 1}


def component(name: str, period_ns: int, offset_ns: int, etp: dict[str, Any], line: int = 1) -> dict[str, Any]:
    return {"name": name, "loc": loc(line), "period_ns": period_ns, "offset_ns": offset_ns, "etp": etp}


def chain(
    name: str,
    components: list[dict[str, Any]],
    requirements: list[dict[str, Any]] | None = None,
    order: str = "production-first",
    resolution_ns: int | None = None,
) -> dict[str, Any]:
    return {
        "name": name,
        "loc": loc(1),
        "order": order,
        "resolution_ns": resolution_ns,
        "components": components,
        "requirements": requirements or [],
    }


def uniform(lo: int, hi: int, step: int) -> dict[str, Any]:
    return {"kind": "uniform", "min_ns": lo, "max_ns": hi, "step_ns": step}


def point(v: int) -> dict[str, Any]:
    return {"kind": "point", "value_ns": v}


def pmf(points: list[tuple[int, float]]) -> dict[str, Any]:
    return {"kind": "pmf", "points": [[t, p] for t, p in points]}


def fig52() -> dict[str, Any]:
    """Thesis Figure 5.2: <(200, 0, f0), (58, 30, f1), (56, 8, f2)> ms, eqs. 5.1-5.3."""
    return chain(
        "Fig52",
        [
            component("C0", 200 * MS, 0, uniform(50 * MS, 149 * MS, MS), 4),
            component("C1", 58 * MS, 30 * MS, uniform(25 * MS, 54 * MS, MS), 5),
            component("C2", 56 * MS, 8 * MS, point(5 * MS), 6),
        ],
        [
            {"kind": "percentile", "percentile": 99.0, "op": "<", "bound_ns": 160 * MS, "loc": loc(7)},
            {"kind": "deadline", "op": "<=", "bound_ns": 160 * MS, "probability": 0.999, "loc": loc(8)},
            {"kind": "loss", "op": "<", "limit": 0.0001, "loc": loc(9)},
        ],
    )


def case_study(
    d0: int, d1: int, d2: int, name: str = "config", offsets: tuple[int, int, int] = (0, 0, 0)
) -> dict[str, Any]:
    """Tables 5.1/5.3 (periods in units of 0.01 ms): f0 uniform over whole ms 30..60, f1 eq. 5.16, f2 eq. 5.17."""
    return chain(
        name,
        [
            component("C0", d0 * US10, offsets[0], uniform(30 * MS, 60 * MS, MS), 2),
            component("C1", d1 * US10, offsets[1], pmf([(11 * MS, 0.9), (12 * MS, 0.1)]), 3),
            component("C2", d2 * US10, offsets[2], point(8 * MS), 4),
        ],
    )


CONFIGS = {
    "a": (6600, 1600, 1700),
    "b": (6660, 1660, 1670),
    "c": (6666, 1666, 1667),  # the thesis prints 16.77 for C2: a typo (Table 5.2's count needs 16.67)
    "d": (6660, 1660, 1670),
    "e": (6660, 1660, 1660),
    "f": (6640, 1660, 1670),
}


def config(key: str) -> dict[str, Any]:
    return case_study(*CONFIGS[key], name=f"config-{key}")


def out_of_order() -> dict[str, Any]:
    """An ETP wider than its period (out of order: the pairwise loss) on an explicit resolution (rounded ETPs)."""
    return chain(
        "ooo",
        [
            component("A", 10 * MS, 0, uniform(1 * MS, 3 * MS, MS)),
            component("B", 4 * MS, MS, pmf([(1_500_000, 0.5), (9 * MS, 0.5)])),
            component("C", 6 * MS, 0, uniform(0, 2 * MS, MS)),
        ],
        resolution_ns=500_000,
        order="consumption-first",
    )
