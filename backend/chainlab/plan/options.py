"""What `make_plan` can be asked to do differently from the chain's own settings, in one typed object.

    plan = make_plan(ir, "XRay", PlanOptions(heuristic="reduced", memory="reuse", threads=4))

The chain's overrides (heuristic, memory, threads, cores) default to None: the chain's schedule and
memory settings. The planner's tuning (alignment .. jitter) is recorded in the plan's JSON as `options`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

#: The planner's tuning defaults (the heuristics and the memory allocator use them too).
DEFAULT_SYNC_NS = 1_000
DEFAULT_REMOTE_NS_PER_BYTE = 0.05  # ~20 GB/s from a neighbour core via the shared cache
CACHE_LINE = 64

#: The fields recorded in the plan's JSON under `options`, in their order there.
TUNING_FIELDS = (
    "alignment",
    "huge_pages",
    "weighted_tokens",
    "node_limit",
    "time_limit_s",
    "prune_signals",
    "iteration_sync",
    "reuse_sync",
    "sync_ns",
    "remote_ns_per_byte",
    "jitter",
)


@dataclass(frozen=True)
class PlanOptions:
    """The options of one planning run; every default is the planner's usual behaviour."""

    heuristic: str | None = None
    """simple | barrier | fixed | predictable | reduced; None: the chain's schedule heuristic."""
    memory: str | None = None
    """simple | reuse; None: the chain's memory setting."""
    threads: int | None = None
    """Data parallelism (sub-boxes per splittable box) and, for fixed/predictable/reduced, the number of
    pinned threads, one per core of the core set in order. None: the chain's schedule."""
    cores: tuple[int, ...] | None = None
    """The core set (overrides the chain's). None: the chain's, else cores 0 .. threads-1."""
    seed: int = 0
    """Monte Carlo seed of the latency summary and of the token game's interleaving."""
    alignment: int = CACHE_LINE
    """Buffer alignment in bytes, a power of two (the cache line by default)."""
    huge_pages: bool = False
    """The arena rounded up to 2 MiB."""
    weighted_tokens: bool = True
    """The reduced heuristic's search weighs live buffers by their bytes (see reduced.py)."""
    node_limit: int = 20_000
    """The reduced heuristic's search: at most this many nodes."""
    time_limit_s: float = 2.0
    """The reduced heuristic's search: at most this long."""
    prune_signals: bool = False
    """Drop signals implied by program order and other signals (the SSC kept them all)."""
    iteration_sync: bool = False
    """Pinned threads also meet at a barrier after every iteration (SSC -ai)."""
    reuse_sync: bool = True
    """Memory reuse may share buffers ordered only by the schedule, adding "reuse" signals that make that
    order binding; False shares only buffers the synchronization already orders."""
    sync_ns: int = DEFAULT_SYNC_NS
    """Cost of a signal between threads (scheduling and simulation)."""
    remote_ns_per_byte: float = DEFAULT_REMOTE_NS_PER_BYTE
    """The predictable/reduced charge for input produced on another core."""
    jitter: float = 0.03
    """Sigma of the execution-time model (costs.py)."""
    predict: bool = True
    """Compute the latency summary (plan.latency)."""
    predict_iterations: int = 200
    """Samples of the latency summary."""
    check_iterations: int = 3
    """Iterations of the token game that checks the plan."""

    def tuning_json(self) -> dict[str, Any]:
        """The planner's tuning as the plan's JSON records it under `options`."""
        return {name: getattr(self, name) for name in TUNING_FIELDS}
