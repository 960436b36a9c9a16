"""One chain, every heuristic x allocator the papers tabulate: the predicted latency and the arena of each plan.

Papers 002/003 Tables I and II have eight rows: simple and barrier with the naive allocator only (one thread per
sub-box, scheduled by the OS), fixed, predictable and reduced with naive and reuse (pinned threads). The papers'
"naive" allocator is the planner's `simple` (one buffer per connection); "reuse" (Table III: "Interference") is
the interference-graph allocator.

A chain's row is flat (one CSV line): `{heuristic}_{memory}_{stat}` for each plan, plus the chain's hash. Numbers
are integers (ns, bytes) so that a row is the same bit for bit wherever it is computed (one process, a local or a
remote Dask cluster): the planner is deterministic for a seed, and the reduced heuristic's search is bounded by
its node limit, never by the clock (TIME_LIMIT_S is far above what 100-box chains need).
"""

from __future__ import annotations

import copy
import hashlib
import json
from dataclasses import dataclass
from typing import Any

from chainlab.plan import PlanOptions, make_plan
from chainlab.synth import synth_chain_ir

#: The papers' eight rows, in their order: (heuristic, memory allocator as the planner names it).
PLANS: tuple[tuple[str, str], ...] = (
    ("simple", "simple"),
    ("barrier", "simple"),
    ("fixed", "simple"),
    ("predictable", "simple"),
    ("reduced", "simple"),
    ("fixed", "reuse"),
    ("predictable", "reuse"),
    ("reduced", "reuse"),
)
BASELINE = ("simple", "simple")
#: What each plan contributes to a row.
STATS = ("mean_ns", "std_ns", "p99_ns", "arena_bytes")
#: The papers' name of the planner's allocators.
PAPER_MEMORY = {"simple": "naive", "reuse": "reuse"}
#: Table III: the reduced heuristic with more threads than physical cores (papers: 4, 8 and 16 on 8 logical cores).
TABLE3_THREADS = (4, 8, 16)
TABLE3_MEMORIES = ("simple", "reuse")
#: The reduced heuristic's search stops at its node limit; the clock limit only guards against a runaway.
TIME_LIMIT_S = 600.0


@dataclass(frozen=True)
class ChainSetup:
    """What every synthetic chain of one experiment shares (shipped once to the workers)."""

    boxes: int = 100
    threads: int = 4
    samples: int = 1000  # latency samples of each plan's prediction (simple/barrier: the OS model's own count)

    def key(self, seed: int) -> str:
        return f"synth-b{self.boxes}-t{self.threads}-s{seed}"


def column(heuristic: str, memory: str, stat: str) -> str:
    return f"{heuristic}_{memory}_{stat}"


def plan_label(heuristic: str, memory: str) -> str:
    return f"{heuristic}/{PAPER_MEMORY[memory]}"


def row_fields() -> list[str]:
    """The columns of a chain's row, in order."""
    return ["chain", "chain_seed", "chain_hash", "boxes", "threads", "sub_boxes"] + [
        column(h, m, s) for h, m in PLANS for s in STATS
    ]


def chain_hash(ir: dict[str, Any]) -> str:
    """The chain's identity: its IR without source locations and file names, hashed (sha256, 16 hex digits)."""

    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: strip(v) for k, v in value.items() if k not in ("loc", "source")}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value

    text = json.dumps(strip(ir), sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def plan_options(heuristic: str, memory: str, threads: int, seed: int, samples: int) -> PlanOptions:
    return PlanOptions(
        heuristic=heuristic,
        memory=memory,
        threads=threads,
        cores=tuple(range(threads)),
        seed=seed,
        predict_iterations=samples,
        time_limit_s=TIME_LIMIT_S,
    )


def plan_stats(ir: dict[str, Any], chain: str, options: PlanOptions) -> dict[str, int]:
    """One plan's predicted mean, sigma, p99 (ns) and arena (bytes), as integers."""
    plan = make_plan(ir, chain, options)
    lat = plan.latency
    assert lat is not None  # options.predict is True
    return {
        "mean_ns": round(lat.mean_ns),
        "std_ns": round(lat.std_ns),
        "p99_ns": int(lat.p99_ns),
        "arena_bytes": int(plan.allocation.arena_bytes),
        "sub_boxes": len(plan.inst.subs),
    }


def with_cores(ir: dict[str, Any], chain: str, cores: int) -> dict[str, Any]:
    """The IR with the chain's platform widened to at least `cores` cores (Table III plans 16 threads)."""
    platform = next(c["platform"] for c in ir["chains"] if c["name"] == chain)
    out = copy.deepcopy(ir)
    for p in out["platforms"]:
        if p["name"] == platform:
            p["cores"] = max(int(p["cores"]), cores)
    return out


def chain_row(ir: dict[str, Any], chain: str, *, threads: int, seed: int, samples: int) -> dict[str, Any]:
    """Every plan of PLANS for one chain: the chain's row."""
    wide = with_cores(ir, chain, threads)
    row: dict[str, Any] = {"chain": chain, "chain_hash": chain_hash(ir), "threads": threads}
    for h, m in PLANS:
        stats = plan_stats(wide, chain, plan_options(h, m, threads, seed, samples))
        row["sub_boxes"] = stats.pop("sub_boxes")  # the same for every heuristic: one per box per thread
        row.update({column(h, m, s): v for s, v in stats.items()})
    return row


def synthetic_row(setup: ChainSetup, seed: int) -> dict[str, Any]:
    """The sweep's task: synthetic chain `seed` generated and planned every way (~0.5-1 s for 100 boxes)."""
    ir = synthetic_ir(setup, seed)
    row = chain_row(ir, ir["chains"][0]["name"], threads=setup.threads, seed=seed, samples=setup.samples)
    return {"chain": row.pop("chain"), "chain_seed": seed, "boxes": setup.boxes, **row}


def thread_rows(ir: dict[str, Any], chain: str, *, seed: int, samples: int) -> list[dict[str, Any]]:
    """Table III: the reduced heuristic with each allocator on TABLE3_THREADS threads (one core each)."""
    rows = []
    wide = with_cores(ir, chain, max(TABLE3_THREADS))
    for threads in TABLE3_THREADS:
        for memory in TABLE3_MEMORIES:
            stats = plan_stats(wide, chain, plan_options("reduced", memory, threads, seed, samples))
            rows.append({"threads": threads, "heuristic": "reduced", "memory": memory, **stats})
    return rows


def synthetic_ir(setup: ChainSetup, seed: int) -> dict[str, Any]:
    return synth_chain_ir(setup.boxes, seed, threads=setup.threads)


__all__ = [
    "BASELINE",
    "PLANS",
    "STATS",
    "ChainSetup",
    "chain_hash",
    "chain_row",
    "column",
    "plan_label",
    "row_fields",
    "synthetic_ir",
    "synthetic_row",
    "thread_rows",
]
