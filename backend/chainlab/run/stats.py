"""Latency statistics of a run (one shape for measured and predicted) and the KS distance to a prediction."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import numpy as np

from chainlab.files import LATENCIES, UserFileError, excerpt, read_user_text


def read_latencies(csv: Path) -> np.ndarray:
    """Latencies (ns) from a run's latencies.csv (iteration,start_ns,end_ns).

    Parameters
    ----------
    csv
        The file, read by the one reader (a regular file of at most 1 GiB).

    Returns
    -------
    numpy.ndarray
        end_ns - start_ns per row (int64), empty for a file with the header only.

    Raises
    ------
    UserFileError
        The file cannot be read as a latencies CSV: file and reason (a cell is quoted at most briefly).
    """
    text = read_user_text(csv, LATENCIES)
    if not text.partition("\n")[2].strip():  # the header only: no iteration completed
        return np.zeros(0, dtype=np.int64)
    try:
        data = np.loadtxt(io.StringIO(text), delimiter=",", skiprows=1, dtype=np.int64, ndmin=2)
    except ValueError as error:  # numpy names the row and column and quotes the cell
        why = excerpt(str(error), 120)
        raise UserFileError(csv, LATENCIES, f"not iteration,start_ns,end_ns rows ({why})") from None
    if data.size == 0:
        return np.zeros(0, dtype=np.int64)
    if data.shape[1] < 3:
        raise UserFileError(csv, LATENCIES, f"{data.shape[1]} columns, not iteration,start_ns,end_ns")
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


def measured_etp(lat: np.ndarray, bins: int = 20, grid_ns: int = 10_000) -> list[tuple[int, int]]:
    """A run's latencies as a small ETP: `bins` equal bins between the extremes, each at its centre rounded up
    onto `grid_ns` (0.01 ms), with its count. The editor writes it as `etp pmf { … }`; the report's end-to-end
    analysis with the measured chain uses it too."""
    if lat.size == 0:
        return []
    lo, hi = float(lat.min()), float(lat.max())
    width = (hi - lo) / bins or 1.0
    index = np.minimum(bins - 1, np.floor((lat - lo) / width)).astype(np.int64)
    centres = (np.ceil((lo + (index + 0.5) * width) / grid_ns) * grid_ns).astype(np.int64)
    values, counts = np.unique(centres, return_counts=True)
    return [(int(v), int(n)) for v, n in zip(values, counts)]


def latency_histogram_ms(lat: np.ndarray, bin_ms: float = 0.05) -> list[list[float]]:
    """The measured distribution for a plot: [ms, probability] on `bin_ms` bins (nearest bin centre)."""
    if lat.size == 0:
        return []
    bins = np.floor(lat / 1e6 / bin_ms + 0.5) * bin_ms
    values, counts = np.unique(np.round(bins, 6), return_counts=True)
    return [[float(v), float(n) / lat.size] for v, n in zip(values, counts)]


def pmf_quantile(points: list[tuple[int, float]], q: float) -> float:
    """The smallest value whose cumulative probability reaches q (0..1) in (value, probability) points."""
    points = sorted(points)
    cum = np.cumsum([p for _, p in points])
    i = int(np.searchsorted(cum, q * cum[-1] - 1e-12))
    return float(points[min(i, len(points) - 1)][0])


def pmf_latency_stats(points: list[tuple[int, float]], samples: int) -> dict[str, Any]:
    """A predicted distribution's statistics in the shape of a measurement's (latency_stats), its percentiles
    read off the points as the scenarios' predicted quantiles are: the same numbers in table, markers and CLI."""
    if not points:
        return {"samples": 0}
    values = np.array([v for v, _ in points], dtype=float)
    probs = np.array([p for _, p in points], dtype=float)
    probs /= probs.sum()
    mean = float(values @ probs)
    return {
        "samples": int(samples),
        "mean_ns": mean,
        "std_ns": float(np.sqrt(((values - mean) ** 2) @ probs)),
        "min_ns": int(values[probs > 0].min()),
        "p50_ns": int(pmf_quantile(points, 0.5)),
        "p99_ns": int(pmf_quantile(points, 0.99)),
        "max_ns": int(values[probs > 0].max()),
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
