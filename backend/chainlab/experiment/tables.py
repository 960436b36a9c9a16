"""The papers' tables from the experiment's rows: Table I/II shape for one chain, the aggregate over all chains as
ratios to simple/naive, Table III (threads), and their Markdown (tables.md, also what the CLI prints).

Papers 002/003 print x̄ and σ in µs and the memory size in KiB; so do these tables (p99 too, which the papers do
not have). The papers' own numbers (NOTES.md §4.1) stand beside ours where the shapes match.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from chainlab.experiment.plans import BASELINE, PAPER_MEMORY, PLANS, column

#: Papers 002/003 Table I (X-ray chain) and Table II (one synthetic chain): (memory KiB, x̄ µs, σ µs) per plan.
PAPER_TABLE1: dict[tuple[str, str], tuple[int, int, int]] = {
    ("simple", "simple"): (30635, 49494, 3400),
    ("barrier", "simple"): (30635, 4940, 37),
    ("fixed", "simple"): (30635, 5439, 29),
    ("predictable", "simple"): (30635, 4561, 24),
    ("reduced", "simple"): (30635, 4117, 30),
    ("fixed", "reuse"): (18250, 3527, 14),
    ("predictable", "reuse"): (14074, 2823, 18),
    ("reduced", "reuse"): (7486, 1871, 8),
}
PAPER_TABLE2: dict[tuple[str, str], tuple[int, int, int]] = {
    ("simple", "simple"): (75456, 271618, 23726),
    ("barrier", "simple"): (75456, 12118, 207),
    ("fixed", "simple"): (75456, 11088, 50),
    ("predictable", "simple"): (75456, 10965, 62),
    ("reduced", "simple"): (75456, 10831, 57),
    ("fixed", "reuse"): (11520, 5271, 11),
    ("predictable", "reuse"): (9792, 4622, 38),
    ("reduced", "reuse"): (5760, 4309, 25),
}
#: Table III (reduced, "Interference" = reuse): threads -> (x̄ µs, σ µs).
PAPER_TABLE3: dict[int, tuple[int, int]] = {4: (4929, 38), 8: (5452, 37), 16: (7942, 76)}

RATIO_STATS = ("mean_ns", "std_ns", "p99_ns", "arena_bytes")


def one_chain(
    row: dict[str, Any], measured: dict[tuple[str, str], dict[str, Any]] | None = None
) -> list[dict[str, Any]]:
    """Table I/II shape: per plan the arena (KiB) and the predicted x̄, σ, p99 (µs); measured ones when given."""
    out = []
    for h, m in PLANS:
        entry: dict[str, Any] = {
            "heuristic": h,
            "memory": m,
            "arena_kib": row[column(h, m, "arena_bytes")] / 1024,
            "mean_us": row[column(h, m, "mean_ns")] / 1e3,
            "std_us": row[column(h, m, "std_ns")] / 1e3,
            "p99_us": row[column(h, m, "p99_ns")] / 1e3,
        }
        got = (measured or {}).get((h, m))
        if got and got.get("samples"):
            entry["measured"] = {
                "mean_us": got["mean_ns"] / 1e3,
                "std_us": got["std_ns"] / 1e3,
                "p99_us": got["p99_ns"] / 1e3,
                "samples": got["samples"],
            }
        out.append(entry)
    return out


def ratios(rows: Sequence[dict[str, Any]], stat: str, plan: tuple[str, str]) -> np.ndarray:
    """Per chain: the plan's stat over simple/naive's."""
    num = np.array([r[column(*plan, stat)] for r in rows], dtype=float)
    den = np.array([r[column(*BASELINE, stat)] for r in rows], dtype=float)
    return num / np.where(den == 0, np.nan, den)


def aggregate(rows: Sequence[dict[str, Any]]) -> list[dict[str, Any]]:
    """Over all chains, per plan: the median and spread (p25, p75, min, max) of each stat's ratio to simple/naive,
    and the median of the absolute values."""
    out = []
    for plan in PLANS:
        entry: dict[str, Any] = {"heuristic": plan[0], "memory": plan[1], "chains": len(rows)}
        for stat in RATIO_STATS:
            r = ratios(rows, stat, plan)
            r = r[np.isfinite(r)]
            entry[stat] = (
                {
                    "median_ratio": float(np.median(r)),
                    "p25_ratio": float(np.percentile(r, 25)),
                    "p75_ratio": float(np.percentile(r, 75)),
                    "min_ratio": float(r.min()),
                    "max_ratio": float(r.max()),
                    "median": float(np.median([row[column(*plan, stat)] for row in rows])),
                }
                if r.size
                else None
            )
        out.append(entry)
    return out


def paper_ratio(table: dict[tuple[str, str], tuple[int, int, int]], plan: tuple[str, str], index: int) -> float:
    return table[plan][index] / table[BASELINE][index]


def _f(x: float, digits: int = 0) -> str:
    return f"{x:,.{digits}f}"


def _md(header: Sequence[str], rows: Sequence[Sequence[str]]) -> list[str]:
    return [
        "| " + " | ".join(header) + " |",
        "|" + "|".join("---" if i < 2 else "---:" for i in range(len(header))) + "|",
        *("| " + " | ".join(r) + " |" for r in rows),
    ]


def one_chain_md(table: list[dict[str, Any]], paper: dict[tuple[str, str], tuple[int, int, int]]) -> list[str]:
    has_measured = any("measured" in e for e in table)
    header = ["schedule", "memory", "arena KiB", "x̄ µs", "σ µs", "p99 µs"]
    if has_measured:
        header += ["measured x̄ µs", "measured σ µs", "measured p99 µs"]
    header += ["paper KiB", "paper x̄ µs", "paper σ µs"]
    rows = []
    for e in table:
        plan = (e["heuristic"], e["memory"])
        cells = [e["heuristic"], PAPER_MEMORY[e["memory"]], _f(e["arena_kib"]), _f(e["mean_us"]), _f(e["std_us"], 1)]
        cells.append(_f(e["p99_us"]))
        if has_measured:
            m = e.get("measured")
            cells += [_f(m["mean_us"]), _f(m["std_us"], 1), _f(m["p99_us"])] if m else ["-", "-", "-"]
        cells += [_f(v) for v in paper[plan]]
        rows.append(cells)
    return _md(header, rows)


def aggregate_md(agg: list[dict[str, Any]]) -> list[str]:
    def cell(entry: dict[str, Any], stat: str) -> str:
        s = entry[stat]
        if s is None:
            return "-"
        return f"{s['median_ratio']:.3f} ({s['p25_ratio']:.3f}–{s['p75_ratio']:.3f})"

    header = ["schedule", "memory", "x̄ ratio", "σ ratio", "p99 ratio", "arena ratio", "median x̄ µs", "paper x̄ ratio"]
    header += ["paper σ ratio", "paper arena ratio"]
    rows = []
    for e in agg:
        plan = (e["heuristic"], e["memory"])
        rows.append(
            [e["heuristic"], PAPER_MEMORY[e["memory"]]]
            + [cell(e, s) for s in RATIO_STATS]
            + [_f(e["mean_ns"]["median"] / 1e3) if e["mean_ns"] else "-"]
            + [f"{paper_ratio(PAPER_TABLE2, plan, i):.3f}" for i in (1, 2, 0)]
        )
    return _md(header, rows)


def table3_md(rows: list[dict[str, Any]]) -> list[str]:
    body = []
    for r in rows:
        paper = PAPER_TABLE3.get(r["threads"]) if r["memory"] == "reuse" else None
        body.append(
            [
                str(r["threads"]),
                PAPER_MEMORY[r["memory"]],
                _f(r["arena_bytes"] / 1024),
                _f(r["mean_ns"] / 1e3),
                _f(r["std_ns"] / 1e3, 1),
                _f(r["p99_ns"] / 1e3),
                _f(paper[0]) if paper else "-",
                _f(paper[1]) if paper else "-",
            ]
        )
    return _md(["threads", "memory", "arena KiB", "x̄ µs", "σ µs", "p99 µs", "paper x̄ µs", "paper σ µs"], body)
