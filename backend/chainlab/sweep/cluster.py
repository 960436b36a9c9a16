"""Where a sweep's tasks run: a LocalCluster sized to this machine, or an existing Dask scheduler left unchanged.

A LocalCluster lives exactly as long as the sweep: it is closed on every exit path (the `with`), and its worker
processes end with this process even when it is killed (distributed's AsyncProcess: each worker exits when the
pipe from its parent closes). Its scheduler runs here, so its settings are ours: a killed worker's tasks are
recomputed elsewhere up to ALLOWED_FAILURES times before a task is declared bad. A remote scheduler keeps its own.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import dask
from distributed import Client, LocalCluster

from chainlab.errors import ModelError
from chainlab.sweep.probe import CONNECT_TIMEOUT_S, check_scheduler

ALLOWED_FAILURES = 50
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


def check_cluster(cluster: str | None) -> None:
    if cluster in (None, "local", "process") or is_scheduler_address(cluster):
        return
    raise ModelError(f"the sweep engine is 'process', 'local' or a scheduler address tcp://HOST:PORT, not {cluster!r}")


@contextmanager
def _scheduler_client(address: str) -> Iterator[Client]:
    """A client of the scheduler at `address` once it has a worker; every wait bounded (see chainlab.sweep.probe)."""
    check_scheduler(address)
    try:
        client = Client(address, timeout=CONNECT_TIMEOUT_S, set_as_default=False)
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
        dask.config.set({"distributed.scheduler.allowed-failures": ALLOWED_FAILURES}),
        LocalCluster(
            n_workers=n,
            threads_per_worker=1,
            processes=True,
            host="127.0.0.1",  # nothing of this machine's sweep is reachable from elsewhere
            dashboard_address=None,
            scheduler_kwargs={"dashboard_address": "127.0.0.1:0"},  # its health page: any free port, not 8787
            silence_logs=logging.ERROR,
        ) as local,
        Client(local, set_as_default=False) as client,
    ):
        yield client, Engine("local", n)
