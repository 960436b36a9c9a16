"""Latency statistics of a run, the KS distance to a prediction, and the CDF plot."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np


def read_latencies(csv: Path) -> np.ndarray:
    """Latencies (ns) from a run's latencies.csv (iteration,start_ns,end_ns)."""
    data = np.loadtxt(csv, delimiter=",", skiprows=1, dtype=np.int64, ndmin=2)
    if data.size == 0:
        return np.zeros(0, dtype=np.int64)
    return data[:, 2] - data[:, 1]


def latency_stats(lat: np.ndarray) -> dict[str, Any]:
    if lat.size == 0:
        return {"samples": 0}
    return {
        "samples": int(lat.size),
        "mean_ns": float(lat.mean()),
        "std_ns": float(lat.std()),
        "min_ns": int(lat.min()),
        "p50_ns": int(np.percentile(lat, 50)),
        "p99_ns": int(np.percentile(lat, 99)),
        "max_ns": int(lat.max()),
    }


def ks_distance(measured: np.ndarray, points: list[tuple[int, float]]) -> float:
    """sup |F_measured - F_predicted| with the prediction given as (value, probability) points."""
    if measured.size == 0 or not points:
        return float("nan")
    xs = np.array([p[0] for p in points], dtype=float)
    ps = np.cumsum([p[1] for p in points])
    grid = np.union1d(xs, np.sort(measured).astype(float))
    f_meas = np.searchsorted(np.sort(measured), grid, side="right") / measured.size
    idx = np.searchsorted(xs, grid, side="right") - 1
    f_pred = np.where(idx >= 0, ps[np.clip(idx, 0, None)], 0.0)
    return float(np.max(np.abs(f_meas - f_pred)))


def plot_cdf(measured: np.ndarray, points: list[tuple[int, float]] | None, title: str, out: Path) -> list[Path]:
    """CDF of measured (and predicted) latencies as PNG and SVG; returns the files written."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    m = np.sort(measured) / 1e6
    ax.step(m, np.arange(1, m.size + 1) / max(1, m.size), where="post", label="measured")
    if points:
        ax.step([p[0] / 1e6 for p in points], np.cumsum([p[1] for p in points]), where="post", label="predicted")
    ax.set_xlabel("latency (ms)")
    ax.set_ylabel("P(latency <= x)")
    ax.set_title(title)
    ax.grid(alpha=0.3)
    ax.legend()
    files = [out.with_suffix(".png"), out.with_suffix(".svg")]
    for f in files:
        fig.savefig(f, dpi=120)
    plt.close(fig)
    return files
