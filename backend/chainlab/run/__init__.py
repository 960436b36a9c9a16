"""Local runs: plan -> generate -> build (cached) -> calibrate -> run -> statistics and report."""

from chainlab.run.build import build_project
from chainlab.run.local import RunResult, run_local
from chainlab.run.stats import ks_distance, latency_stats, read_latencies

__all__ = ["RunResult", "build_project", "ks_distance", "latency_stats", "read_latencies", "run_local"]
