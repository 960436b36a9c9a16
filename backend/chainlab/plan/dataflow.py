"""The data flow of one chain: its instances in a topological order, or the cycle that prevents one.

The language has no delay element, so any cycle is a "cycle without delay" — the language reports the
same cycle while validating (language/src/dsl/validation/chain-checks.ts); tests/cycle-vectors holds the
answers both sides must give. The planner and the code generator both take their order from here.
"""

from __future__ import annotations

from typing import Any

import networkx as nx

from chainlab.errors import ModelError


def data_flow_order(names: list[str], edges: list[tuple[int, int, Any]], loc: Any = None) -> list[int]:
    """Instance indices in data-flow order (ties by declaration order); `edges` are (from, to, loc of the
    connection). Raises ModelError at the connection that closes the first cycle found."""
    graph = nx.DiGraph()
    graph.add_nodes_from(range(len(names)))
    for a, b, where in edges:
        graph.add_edge(a, b, loc=where)
    try:
        cycle = nx.find_cycle(graph)
    except nx.NetworkXNoCycle:
        return list(nx.lexicographical_topological_sort(graph))
    path = [names[a] for a, _ in cycle] + [names[cycle[0][0]]]
    closing = graph.edges[cycle[-1][0], cycle[-1][1]].get("loc")
    raise ModelError(
        f"cycle without delay: {' -> '.join(path)}; a chain must be acyclic", closing or loc, names[cycle[0][0]]
    )
