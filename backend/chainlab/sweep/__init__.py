"""Design-space sweeps: one analysis over many points, in this process or on Dask distributed (issue 18)."""

from chainlab.sweep.cluster import Engine
from chainlab.sweep.engine import SweepCancelled, run_sweep
from chainlab.sweep.store import RowStore, StoreMismatch

__all__ = ["Engine", "RowStore", "StoreMismatch", "SweepCancelled", "run_sweep"]
