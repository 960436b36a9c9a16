"""Exact end-to-end latency analysis of PTTS chains (probabilistic time-triggered systems, thesis ch. 5).

Entry points (all take the IR dict of one PTTS chain and return JSON-ready dicts):

- `analyze(ir, *, per_root=False, resolve_chain=None, max_trees=..., max_operations=...)`
- `estimate_cost(ir)`, `propose_periods(ir, max_trees)`
- `simulate(ir, *, iterations=10000, seed=0, mode="independent", engine="vector")`
- `explore(ir, vary=[...], step_ns=None, periods=None, objective="p99", pareto=None, cluster=None, out=None)`
- `latency_tree(ir, root_ns)`
"""

from chainlab.ptts.api import (
    DEFAULT_MAX_OPERATIONS,
    DEFAULT_MAX_TREES,
    PttsResult,
    analyze,
    compute,
    estimate_cost,
    latency_tree,
    propose_periods,
    simulate,
)
from chainlab.ptts.explore import explore

__all__ = [
    "DEFAULT_MAX_OPERATIONS",
    "DEFAULT_MAX_TREES",
    "PttsResult",
    "analyze",
    "compute",
    "estimate_cost",
    "explore",
    "latency_tree",
    "propose_periods",
    "simulate",
]
