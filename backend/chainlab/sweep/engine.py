"""The sweep engine: one function applied to many independent points, in this process or on Dask distributed.

`run_sweep(fn, shared, points, key=...)` returns fn(shared, point) for every point, in the order of `points`, and the
rows are the same bit for bit wherever they ran: the same code computes each row from the same inputs; the engine
only moves them. On Dask, `shared` (a resolved IR, say) is shipped once to every worker and each task carries a
batch of points; rows stream back as tasks finish and go to the store (if any) at once, so an interruption keeps
every finished row and a resumed sweep recomputes none of them.

A killed worker costs time, not rows: the scheduler recomputes its tasks on the others, and a batch the scheduler
gave up on (KilledWorker) is submitted again. Cancellation (`cancelled()` turning true, e.g. Ctrl-C) releases every
outstanding future, so no worker starts another task of the sweep, and raises SweepCancelled with the rows done.
"""

from __future__ import annotations

import importlib
import math
import time
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

from dask.base import tokenize
from distributed import Client, Future, as_completed
from distributed.scheduler import KilledWorker

from chainlab.errors import ChainlabError
from chainlab.sweep.cluster import Engine, check_cluster, open_client
from chainlab.sweep.store import RowStore

T = TypeVar("T")
Row = dict[str, Any]

TASK_SECONDS = 0.3  # aimed-at duration of one Dask task: long enough to hide the ~1 ms task overhead, short enough
# that a cancelled or killed task wastes little and the progress moves
TASKS_PER_WORKER = 4  # at least: the last tasks then balance over the workers
RESUBMITS = 3  # a batch the scheduler declared bad (KilledWorker) is submitted this many times again
POLL_S = 0.1
FLUSH_S = 0.2  # in this process, rows go to the store (and progress) this often: a kill loses at most this much


class SweepCancelled(ChainlabError):
    """The sweep was cancelled: `rows` holds the finished rows (in the order of the points; None where not done)."""

    def __init__(self, rows: list[Row | None], done: int, total: int):
        super().__init__(f"the sweep was cancelled after {done} of {total} points")
        self.rows = rows
        self.done = done
        self.total = total


class _Stopped(Exception):
    pass


def _run_batch(fn: Callable[[Any, Any], Row], shared: Any, points: list[Any]) -> list[Row]:
    return [fn(shared, p) for p in points]


def run_sweep(
    fn: Callable[[Any, T], dict[str, Any]],
    shared: Any,
    points: Sequence[T],
    *,
    key: Callable[[T], str],
    cluster: str | None = None,
    store: RowStore | None = None,
    progress: Callable[[int, int], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    batch: int | None = None,
    on_engine: Callable[[Engine], None] | None = None,
) -> list[dict[str, Any]]:
    """fn(shared, point) for every point, in the order of `points` (see the module's docstring).

    cluster: None or "local": a LocalCluster sized to this machine (processes, one thread each), closed before
    returning; "process": here, without Dask; "tcp://HOST:PORT": an existing scheduler, left unchanged.
    store: rows already in it are not recomputed; new rows are written as they complete.
    progress(done, total) counts unique points, stored ones included. batch: points per Dask task (default sized
    from the time of the first point). on_engine(Engine) says what runs the sweep, before the work starts.
    Raises SweepCancelled when cancelled() turns true; the finished rows are in the store and the exception.
    """
    check_cluster(cluster)
    if batch is not None and batch < 1:
        raise ValueError(f"batch must be positive, not {batch}")
    keys = [key(p) for p in points]
    unique: dict[str, T] = {}
    for k, p in zip(keys, points):
        unique.setdefault(k, p)
    done: dict[str, Row] = {}
    if store is not None:
        done.update({k: r for k, r in store.rows().items() if k in unique})
    todo = [k for k in unique if k not in done]
    total = len(unique)
    report = progress or (lambda _d, _t: None)
    stop = cancelled or (lambda: False)

    def finish(finished: list[tuple[str, Row]]) -> None:
        if store is not None:
            store.append_many(finished)  # on disk before it counts as done
        done.update(finished)

    def ordered() -> list[Row | None]:
        return [done.get(k) for k in keys]

    report(len(done), total)
    if not todo:
        if on_engine:
            on_engine(Engine("process", 1))
        return [done[k] for k in keys]
    if cluster == "process":
        if on_engine:
            on_engine(Engine("process", 1))
        pending: list[tuple[str, Row]] = []  # written together every FLUSH_S: one fsync, not one a point
        flushed = time.monotonic()
        for k in todo:
            if stop():
                finish(pending)
                raise SweepCancelled(ordered(), len(done), total)
            pending.append((k, fn(shared, unique[k])))
            if time.monotonic() - flushed >= FLUSH_S:
                finish(pending)
                pending, flushed = [], time.monotonic()
                report(len(done), total)
        finish(pending)
        report(len(done), total)
        return [done[k] for k in keys]
    # The first point runs here: a broken model fails at once (not once per worker), and its time sizes the batches.
    t0 = time.perf_counter()
    first = todo.pop(0)
    finish([(first, fn(shared, unique[first]))])
    seconds = time.perf_counter() - t0
    report(len(done), total)
    if not todo:
        if on_engine:
            on_engine(Engine("process", 1))
        return [done[k] for k in keys]
    with open_client(cluster) as (client, engine):
        _import_on_workers(client, fn, cluster)
        if on_engine:
            on_engine(engine)
        size = batch or _batch_size(seconds, len(todo), engine.workers)
        batches = [todo[i : i + size] for i in range(0, len(todo), size)]
        try:
            _distributed(client, fn, shared, batches, unique, finish, lambda: report(len(done), total), stop)
        except _Stopped:  # the futures are released; leaving the `with` closes a LocalCluster
            raise SweepCancelled(ordered(), len(done), total) from None
    return [done[k] for k in keys]


def _import_on_workers(client: Client, fn: Callable[..., Any], cluster: str | None) -> None:
    """Every worker imports fn's module now: the import (numpy, chainlab) is part of the start, not of the first
    tasks, and workers that cannot import it (another environment) are one clear error, not failed tasks."""
    module = getattr(fn, "__module__", None)
    if not module:
        return
    try:
        client.run(importlib.import_module, module)
    except ImportError as e:
        where = cluster or "the LocalCluster"
        raise ChainlabError(f"the Dask workers of {where} cannot import {module}: {e} (install chainlab there)") from e


def _batch_size(seconds_per_point: float, n: int, workers: int) -> int:
    by_time = max(1, math.ceil(TASK_SECONDS / max(seconds_per_point, 1e-6)))
    by_balance = max(1, n // (TASKS_PER_WORKER * max(1, workers)))
    return min(by_time, by_balance)


def _distributed(
    client: Client,
    fn: Callable[[Any, Any], Row],
    shared: Any,
    batches: list[list[str]],
    unique: dict[str, Any],
    finish: Callable[[list[tuple[str, Row]]], None],
    batch_done: Callable[[], None],
    stop: Callable[[], bool],
) -> None:
    [shared_future] = client.scatter([shared], broadcast=True, hash=False)
    name = f"{getattr(fn, '__module__', '')}.{getattr(fn, '__qualname__', 'fn')}".replace(".", "-")
    token = tokenize(name, shared_future.key)
    outstanding: dict[Future, tuple[list[str], int]] = {}

    def submit(keys: list[str], attempt: int) -> Future:
        future = client.submit(
            _run_batch,
            fn,
            shared_future,
            [unique[k] for k in keys],
            key=f"sweep-{name}-{tokenize(token, keys, attempt)}",
            pure=False,
        )
        outstanding[future] = (keys, attempt)
        return future

    completed = as_completed([submit(b, 0) for b in batches], loop=client.loop)
    try:
        while outstanding:
            if stop():
                raise _Stopped
            ready = completed.next_batch(block=False)
            if not ready:
                time.sleep(POLL_S)
                continue
            for future in ready:
                keys, attempt = outstanding.pop(future)
                try:
                    rows = future.result()
                except KilledWorker:
                    if attempt >= RESUBMITS:
                        raise
                    completed.add(submit(keys, attempt + 1))
                    continue
                finally:
                    future.release()
                finish(list(zip(keys, rows)))
                batch_done()
    finally:
        if outstanding:  # cancelled or failed: no worker goes on with this sweep's tasks
            client.cancel(list(outstanding), force=True)
        shared_future.release()
