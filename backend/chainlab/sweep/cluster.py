"""Where a sweep's tasks run: a LocalCluster sized to this machine, or an existing Dask scheduler left unchanged.

A LocalCluster lives exactly as long as the sweep: it is closed on every exit path (the `with`), and its worker
processes end with this process even when it is killed (distributed's AsyncProcess: each worker exits when the
pipe from its parent closes). Its scheduler runs here, so its settings are ours: a killed worker's tasks are
recomputed elsewhere up to ALLOWED_FAILURES times before a task is declared bad. A remote scheduler keeps its own.
"""

from __future__ import annotations

import ipaddress
import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import dask
from distributed import Client, LocalCluster
from distributed.comm.addressing import get_address_host

from chainlab.errors import ModelError
from chainlab.sweep.probe import CONNECT_TIMEOUT_S, check_scheduler

ALLOWED_FAILURES = 50
# A LocalCluster's periodic work, less often: on 2 cores its workers' event loops took 0.06-0.16 CPU-s per second of
# a task's work at the defaults (statistical profiler every 10 ms for a dashboard nobody opens here, loop tick
# every 20 ms, memory monitor every 100 ms, system monitor every 500 ms), 0.01-0.04 with these. The nannies hand
# these settings to their workers; the scheduler runs in this process, under them too.
QUIET_LOOPS = {
    "distributed.worker.profile.enabled": False,
    "distributed.admin.tick.interval": "1s",
    "distributed.worker.memory.monitor-interval": "1s",
    "distributed.admin.system-monitor.interval": "2s",
}
# Dask's nannies set MALLOC_TRIM_THRESHOLD_ (64 KiB) in their workers' environment, to hand memory back to the
# system in workers that live for days. Set at all, it also stops glibc raising its mmap threshold, so the analysis's
# large numpy arrays are mapped and faulted in afresh every time: a heavy sweep's analysis cost 0.83-0.98 CPU-s
# with it against 0.65-0.88 without (system time 0.43-0.53 vs 0.26-0.39). A LocalCluster lives for one sweep;
# None unsets it (Dask's way), the rest of Dask's worker environment (numpy on one thread) stays.
WORKER_ENVIRON = {"distributed.nanny.pre-spawn-environ.MALLOC_TRIM_THRESHOLD_": None}
WORKERS_TIMEOUT_S = 30.0  # a scheduler without workers: long enough for workers that are starting with it


@dataclass(frozen=True)
class Engine:
    """What runs the sweep: `engine` is "process", "local" or the scheduler's address; workers are its threads;
    start_s: seconds its start took (LocalCluster processes, or connecting, and every worker importing the code)."""

    engine: str
    workers: int
    start_s: float = 0.0


def local_workers() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def is_scheduler_address(cluster: str | None) -> bool:
    return cluster is not None and "://" in cluster


def on_this_machine(address: str) -> bool:
    """Whether the scheduler at `address` listens on a loopback address: its workers are then on this machine too,
    and the client can fetch rows from them directly."""
    try:
        host = get_address_host(address)
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name, or an address without a host
        return False


def check_cluster(cluster: str | None) -> None:
    if cluster in (None, "local", "process") or is_scheduler_address(cluster):
        return
    raise ModelError(f"the sweep engine is 'process', 'local' or a scheduler address tcp://HOST:PORT, not {cluster!r}")


@contextmanager
def _scheduler_client(address: str) -> Iterator[Client]:
    """A client of the scheduler at `address` once it has a worker; every wait bounded (see chainlab.sweep.probe)."""
    check_scheduler(address)
    try:
        # rows from the workers straight to the client where they can reach it (no copy through the scheduler)
        direct = on_this_machine(address)
        client = Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False, direct_to_workers=direct)
    except OSError as e:
        raise ModelError(f"cannot reach the Dask scheduler at {address}: {e}") from e
    with client:
        try:
            client.wait_for_workers(1, timeout=WORKERS_TIMEOUT_S)
        except TimeoutError:
            raise ModelError(
                f"the Dask scheduler at {address} has no workers (none joined within {WORKERS_TIMEOUT_S:g} s)"
            ) from None
        yield client


@contextmanager
def open_client(cluster: str | None, workers: int | None = None) -> Iterator[tuple[Client, Engine]]:
    """A client of a fresh LocalCluster (None or "local") of `workers` processes (default: one a core) or of the
    scheduler at `cluster` (tcp://HOST:PORT; its workers are its own)."""
    check_cluster(cluster)
    if cluster is not None and is_scheduler_address(cluster):
        with _scheduler_client(cluster) as client:
            threads = sum(w["nthreads"] for w in client.scheduler_info(n_workers=-1)["workers"].values())
            yield client, Engine(cluster, threads)
        return
    n = workers or local_workers()
    with (
        dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES, **QUIET_LOOPS, **WORKER_ENVIRON}),
        LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",  # nothing of this machine's sweep is reachable from elsewhere
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # its health page: any free port, not 8787
            silence_logs=logging.ERROR,
        ) as local,
        # rows straight from the workers: through the scheduler they cost the client's event loop (which runs the
        # LocalCluster's scheduler too) about twice the CPU a task
        Client(local, set_as_default=False, direct_to_workers=True) as client,
    ):
        yield client, Engine("local", n)
