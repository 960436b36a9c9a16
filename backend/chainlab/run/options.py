"""How to run a chain: one options object for every entry point (`chainlab run`, `chainlab deploy`, the editor's
*Run on target*, the heuristics experiment), which differ only in their defaults."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from chainlab.deploy.targets import HERE
from chainlab.plan import PlanOptions
from chainlab.progress import ProgressFn


def _quiet(_line: str) -> None:
    return None


@dataclass(frozen=True)
class RunOptions:
    """What a run of one chain needs besides the model.

    Parameters
    ----------
    target : str
        A target of the model; ``here`` without one of that name is this machine, every core an rt-core.
    scenarios : tuple of str
        baseline (the chain alone), congested (+ best-effort work on the be-cores), throttled (+ the throttler).
    iterations : int or None
        Iterations per scenario; None: the chain's own (default 1000).
    calibrate : int
        > 0: first run the chain that many iterations with every sub-box timed, keep the times beside the model
        and plan and predict with them; 0: use the stored calibration of the chain on the target, if any.
    plan : PlanOptions
        Heuristic, memory allocator, threads (default: one per rt-core of the target).
    period_ns : int or None
        Release period; None: the chain's source period (free running without one); 0: free running.
    out_dir : Path or None
        The run's folder here; None: a dated folder under ``runs_root``.
    runs_root : Path
        Where dated run folders go when ``out_dir`` is None.
    model_file : str or None
        The model's file: calibrations are kept beside it, and ssh targets' keys are resolved from it.
    chain_args : tuple of str
        More arguments for the chain binary (e.g. ``("--fifo", "80")``: its threads SCHED_FIFO at that priority).
    progress, log : callables
        Progress as (fraction, message) and one line per step.
    """

    target: str = HERE
    scenarios: tuple[str, ...] = ("baseline",)
    iterations: int | None = None
    calibrate: int = 0
    plan: PlanOptions = field(default_factory=PlanOptions)
    period_ns: int | None = None
    out_dir: Path | None = None
    runs_root: Path = Path("runs")
    model_file: str | None = None
    chain_args: tuple[str, ...] = ()
    progress: ProgressFn | None = None
    log: Callable[[str], None] = _quiet

    def calibration_share(self, iterations: int) -> float:
        """The part of the run's progress the calibration run takes (by iterations): the bar never goes back."""
        total = self.calibrate + iterations * len(self.scenarios)
        return self.calibrate / total if total else 0.0
