"""Running a chain on a target (this machine or a lab machine over SSH): prepare (plan, calibrate, pin, generate,
build), a session of its scenarios through a Transport, one RunReport."""

from chainlab.run.build import build_project
from chainlab.run.options import RunOptions
from chainlab.run.pipeline import run_chain
from chainlab.run.report import RunReport
from chainlab.run.stats import ks_distance, latency_stats, read_latencies

__all__ = ["RunOptions", "RunReport", "build_project", "ks_distance", "latency_stats", "read_latencies", "run_chain"]
