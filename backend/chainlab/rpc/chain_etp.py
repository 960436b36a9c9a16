"""`etp chain X`: a PTTS component whose execution-time profile is a box chain's latency distribution.

The distribution is the planner's prediction for the chain (chainlab.plan); until
the planner is installed, such a component is refused with a clear message.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chainlab.errors import ModelError
from chainlab.ir import find_chain

ChainResolver = Callable[[str], list[tuple[int, float]]]


def chain_resolver(ir: dict[str, Any]) -> ChainResolver:
    cache: dict[str, list[tuple[int, float]]] = {}

    def resolve(name: str) -> list[tuple[int, float]]:
        if name not in cache:
            chain = find_chain(ir, name)
            try:
                from chainlab.plan.api import chain_latency_etp
            except ImportError as error:
                raise ModelError(
                    f"etp chain {name}: predicting a chain's latency needs the planner (chainlab.plan), "
                    f"which is not available: {error}",
                    chain.get("loc"),
                    name,
                ) from error
            cache[name] = chain_latency_etp(ir, name)
        return cache[name]

    return resolve
