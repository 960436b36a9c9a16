"""A run's statistics: the measured ETP (the editor writes it as `etp pmf { … }`), the plot's histogram, one
statistics shape for measured and predicted latency, and the KS distance."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from special_files import KINDS, Kind, special_file

from chainlab.files import UserFileError
from chainlab.run.stats import (
    ks_distance,
    latency_histogram_ms,
    latency_stats,
    measured_etp,
    pmf_latency_stats,
    pmf_quantile,
    read_latencies,
)


def skewed(n: int = 2000) -> np.ndarray:
    """2,000 frames between 20 and 30 ms, skewed towards 20 (deterministic)."""
    return np.array([round(20e6 + 10e6 * ((i * 7919) % n / n) ** 2) for i in range(n)], dtype=np.int64)


def test_measured_etp_twenty_bins_on_the_10_us_grid_with_their_counts():
    lat = skewed()
    etp = measured_etp(lat)
    assert 5 < len(etp) <= 20
    assert sum(n for _, n in etp) == lat.size
    assert all(v % 10_000 == 0 and lat.min() <= v <= lat.max() + 10_000 for v, _ in etp)
    assert [v for v, _ in etp] == sorted(v for v, _ in etp)
    assert etp[0] == (20_250_000, 447)  # the first 0.5 ms bin holds the skew


def test_measured_etp_of_equal_latencies_is_one_point():
    assert measured_etp(np.full(50, 12_345_678, dtype=np.int64)) == [(12_350_000, 50)]
    assert measured_etp(np.zeros(0, dtype=np.int64)) == []


def test_histogram_percentiles_match_the_raw_latencies_within_a_bin():
    lat = skewed()
    points = latency_histogram_ms(lat)
    assert sum(p for _, p in points) == pytest.approx(1.0, abs=1e-9)
    ordered = np.sort(lat)
    for q in (0.5, 0.99):
        exact = ordered[int(np.ceil(q * lat.size)) - 1] / 1e6
        assert abs(pmf_quantile([(v, p) for v, p in points], q) - exact) <= 0.05 + 1e-9


def test_a_prediction_has_the_statistics_of_a_measurement_read_off_its_points():
    points = [(10, 0.25), (30, 0.5), (20, 0.25)]
    stats = pmf_latency_stats(points, 10_000)
    assert stats == {
        "samples": 10_000,
        "mean_ns": 22.5,
        "std_ns": pytest.approx(8.29, abs=0.01),
        "min_ns": 10,
        "p50_ns": 20,
        "p99_ns": 30,
        "max_ns": 30,
    }
    assert set(stats) == set(latency_stats(np.array([1, 2], dtype=np.int64)))
    assert pmf_latency_stats([], 0) == {"samples": 0}


def test_statistics_and_ks():
    lat = np.array([1, 2, 3, 4], dtype=np.int64) * 1000
    s = latency_stats(lat)
    assert s["mean_ns"] == 2500 and s["max_ns"] == 4000
    assert ks_distance(lat, [(1000, 0.25), (2000, 0.25), (3000, 0.25), (4000, 0.25)]) == pytest.approx(0)
    assert ks_distance(lat, [(10_000, 1.0)]) == pytest.approx(1)


# ---- the latencies file, read by the one reader (chainlab/files.py)


def test_read_latencies_of_a_run_and_of_a_header_only(tmp_path: Path) -> None:
    csv = tmp_path / "latencies.csv"
    csv.write_text("iteration,start_ns,end_ns\n0,100,350\n1,1100,1300\n")
    assert read_latencies(csv).tolist() == [250, 200]
    csv.write_text("iteration,start_ns,end_ns\n")
    assert read_latencies(csv).size == 0


@pytest.mark.parametrize("kind", KINDS)
def test_read_latencies_refuses_what_is_no_regular_file(tmp_path: Path, kind: Kind) -> None:
    path = special_file(kind, tmp_path, "latencies.csv")
    with pytest.raises(UserFileError, match=", not a regular file"):
        read_latencies(path)


@pytest.mark.parametrize(
    ("rows", "why"),
    [("0,1,nan\n", "could not convert string 'nan'"), ("0,1\n", "2 columns"), ("0,1," + "9" * 500 + "\n", "")],
)
def test_read_latencies_names_a_bad_row_briefly(tmp_path: Path, rows: str, why: str) -> None:
    csv = tmp_path / "latencies.csv"
    csv.write_text("iteration,start_ns,end_ns\n" + rows)
    with pytest.raises(UserFileError, match=f"latencies CSV {csv}: .*{why}") as e:
        read_latencies(csv)
    assert len(str(e.value)) < 250 + len(str(csv))
