"""Design-space sweeps: one analysis over many points, in this process or on Dask distributed (issue 18).

engine.run_sweep runs them (on_dask: as Dask tasks), store.RowStore keeps their rows on disk, cluster opens the Dask
client (probe first asks, within a time-out, whether an address is a Dask scheduler), pareto ranks them. The names
below are loaded on first use: importing chainlab.sweep.pareto (or chainlab.ptts) does not import Dask (~0.3 s), only
running a sweep does.
"""

from __future__ import annotations

import importlib
from typing import Any

_EXPORTS = {
    "Engine": "chainlab.sweep.cluster",
    "RowStore": "chainlab.sweep.store",
    "StoreMismatch": "chainlab.sweep.store",
    "SweepCancelled": "chainlab.sweep.engine",
    "run_sweep": "chainlab.sweep.engine",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'chainlab.sweep' has no attribute {name!r}")
