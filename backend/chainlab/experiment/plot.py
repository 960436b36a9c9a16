"""The papers' Fig. 3 for this experiment: box plots of the per-chain predicted mean latency, one box per
heuristic/allocator (ms, log scale: simple/naive is an order of magnitude above the rest), the same as a ratio to
the chain's simple/naive plan, and the arena (MiB, where the reuse allocator shows). PNG and SVG."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from chainlab.experiment.plans import PLANS, column, plan_label
from chainlab.experiment.tables import ratios
from chainlab.files import atomic_writer


def boxplot(rows: Sequence[dict[str, Any]], out: Path, title: str) -> list[Path]:
    """Writes out.png and out.svg; returns them."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib import ticker

    labels = [plan_label(h, m) for h, m in PLANS]
    absolute = [np.array([r[column(h, m, "mean_ns")] for r in rows], dtype=float) / 1e6 for h, m in PLANS]
    relative = [ratios(rows, "mean_ns", plan) for plan in PLANS]
    arena = [np.array([r[column(h, m, "arena_bytes")] for r in rows], dtype=float) / 2**20 for h, m in PLANS]
    fig, axes = plt.subplots(1, 3, figsize=(16, 4.8), layout="constrained")
    for ax, data, ylabel in (
        (axes[0], absolute, "predicted mean latency per chain (ms)"),
        (axes[1], relative, "mean latency / the chain's simple/naive"),
        (axes[2], arena, "arena per chain (MiB)"),
    ):
        ax.boxplot(data, tick_labels=labels, whis=(0, 100), medianprops={"color": "black"})
        ax.set_yscale("log")
        # 1-2-5 labels and limits on such a tick: every box lies between two labelled values
        ax.yaxis.set_major_locator(ticker.LogLocator(subs=(1.0, 2.0, 5.0)))
        ax.yaxis.set_major_formatter(ticker.FormatStrFormatter("%g"))
        ax.yaxis.set_minor_formatter(ticker.NullFormatter())
        ax.set_ylim(*_one_two_five_span(np.concatenate(data)))
        ax.set_ylabel(ylabel)
        ax.tick_params(axis="x", labelrotation=35)
        ax.grid(alpha=0.3, axis="y", which="both")
    fig.suptitle(title)
    files = [out.with_suffix(".png"), out.with_suffix(".svg")]
    # SVG without its creation date and with fixed ids: the same rows give the same file
    with matplotlib.rc_context({"svg.hashsalt": "chainlab", "svg.fonttype": "none"}):
        for f in files:
            with atomic_writer(f, "wb") as file:  # written whole, then renamed: never half a picture
                metadata = {"Date": None} if f.suffix == ".svg" else {"Software": None}
                fig.savefig(file, format=f.suffix[1:], dpi=120, metadata=metadata)
    plt.close(fig)
    return files


def _one_two_five_span(values: np.ndarray) -> tuple[float, float]:
    """The nearest 1-2-5 values below the smallest and above the largest positive value, 10 % away from them at
    least (a box on the frame would be hidden by it)."""
    positive = values[values > 0]
    low, high = (float(positive.min()) / 1.1, float(positive.max()) * 1.1) if positive.size else (1.0, 10.0)
    steps = np.array([1.0, 2.0, 5.0, 10.0])
    below = 10 ** np.floor(np.log10(low)) * steps
    above = 10 ** np.floor(np.log10(high)) * steps
    return float(below[below <= low].max()), float(above[above >= high].min())
