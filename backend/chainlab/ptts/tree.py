"""One latency tree as in the thesis' Figure 5.4 (eqs. 5.8-5.10) and its flattening (eq. 5.12).

Meant for inspection, explanation and tests on single roots; the bulk analysis never builds
trees as objects (see `exact.py` / `quotient.py`).
"""

from __future__ import annotations

from typing import Any

import numpy as np

from chainlab.errors import TooExpensiveError
from chainlab.ptts.grid import GridChain
from chainlab.ptts.hop import Hop

MAX_NODES = 200_000


def latency_tree(chain: GridChain, hops: list[Hop], root_ns: int, max_nodes: int = MAX_NODES) -> dict[str, Any]:
    """Nested {component, t_ms, children: [{p, node}]}; leaves have component N (the output)."""
    u = chain.unit_ns
    last = chain.n - 1
    count = [0]

    def node(i: int, t: int) -> dict[str, Any]:
        count[0] += 1
        if count[0] > max_nodes:
            raise TooExpensiveError(
                f"the latency tree has more than {max_nodes} nodes", chain.model.loc, chain.model.name
            )
        children = []
        if i == last:  # W (eq. 5.10): the last component adds its own ETP
            for e, p in zip(chain.etp_values[last], chain.etp_probs[last]):
                children.append(
                    {"p": float(p), "node": {"component": chain.n, "t_ms": (t + int(e)) * u / 1e6, "children": []}}
                )
        else:  # Q (eq. 5.8)
            off, pr = hops[i].lookup(np.asarray([t], dtype=np.int64))
            for o, p in zip(off[0], pr[0]):
                if p > 0:
                    children.append({"p": float(p), "node": node(i + 1, t + int(o))})
        return {"component": i, "t_ms": t * u / 1e6, "children": children}

    if root_ns % u:
        raise ValueError("root time is not on the analysis grid")
    return node(0, root_ns // u)


def flatten(tree: dict[str, Any], p: float = 1.0) -> dict[float, float]:
    """Leaf time (ms) -> probability, merging leaves at the same instant (eq. 5.12)."""
    out: dict[float, float] = {}
    if not tree["children"]:
        out[tree["t_ms"]] = p
        return out
    for child in tree["children"]:
        for t, q in flatten(child["node"], p * child["p"]).items():
            out[t] = out.get(t, 0.0) + q
    return out
