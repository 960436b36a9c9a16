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

import dataclasses
import importlib
import time
from collections.abc import Callable, Sequence
from typing import Any, Generic, TypeVar

from dask.base import tokenize
from distributed import Client, Future, as_completed
from distributed.scheduler import KilledWorker

from chainlab.errors import ChainlabError
from chainlab.sweep.batches import PROBE_SECONDS, fixed_batches, plan_batches, point_seconds, probe_order
from chainlab.sweep.cluster import Engine, check_cluster, open_client
from chainlab.sweep.store import RowStore

T = TypeVar("T")
Row = dict[str, Any]

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
    cost: Callable[[T], float] | None = None,
    workers: int | None = None,
    on_engine: Callable[[Engine], None] | None = None,
) -> list[dict[str, Any]]:
    """fn(shared, point) for every point, in the order of `points` (see the module's docstring).

    cluster: None or "local": a LocalCluster sized to this machine (processes, one thread each), closed before
    returning; "process": here, without Dask; "tcp://HOST:PORT": an existing scheduler, left unchanged.
    store: rows already in it are not recomputed; new rows are written as they complete.
    progress(done, total) counts unique points, stored ones included. batch: points per Dask task (default: batches
    of about TASK_SECONDS, from the time of the first points here and cost(point), a point's relative cost, when
    given). workers: the LocalCluster's worker processes (default: one a core). on_engine(Engine) says what runs the
    sweep, before the work on the cluster starts (Engine.start_s: the time its start took).
    Raises SweepCancelled when cancelled() turns true; the finished rows are in the store and the exception.
    """
    check_cluster(cluster)
    if batch is not None and batch < 1:
        raise ValueError(f"batch must be positive, not {batch}")
    if workers is not None and workers < 1:
        raise ValueError(f"workers must be positive, not {workers}")
    sweep = _Sweep.of(points, key, store, progress or (lambda _d, _t: None))
    stop = cancelled or (lambda: False)
    announce = on_engine or (lambda _engine: None)
    todo = sweep.todo()
    sweep.report()
    if not todo:
        announce(Engine("process", 1))
        return sweep.rows()
    if cluster == "process":
        announce(Engine("process", 1))
        try:
            _in_process(fn, shared, [(k, sweep.unique[k]) for k in todo], sweep.finish, sweep.report, stop)
        except _Stopped:
            raise sweep.cancelled() from None
        return sweep.rows()
    # The first points run here: a broken model fails at once (not once per worker), and their times size the batches
    left = _probe_here(fn, shared, sweep, todo, cost, batch)
    sweep.report()
    if not left.todo:
        announce(Engine("process", 1))
        return sweep.rows()
    _on_cluster(fn, shared, sweep, left, cluster, workers, batch, announce, stop)
    return sweep.rows()


@dataclasses.dataclass
class _Sweep(Generic[T]):
    """The unique points by key and the rows done so far, shared by every way of running a sweep."""

    keys: list[str]  # one a point, in the order of the points (repeated keys included)
    unique: dict[str, T]
    done: dict[str, Row]
    store: RowStore | None
    progress: Callable[[int, int], None]

    @classmethod
    def of(
        cls, points: Sequence[T], key: Callable[[T], str], store: RowStore | None, progress: Callable[[int, int], None]
    ) -> _Sweep[T]:
        keys = [key(p) for p in points]
        unique: dict[str, T] = {}
        for k, p in zip(keys, points):
            unique.setdefault(k, p)
        done: dict[str, Row] = {}
        if store is not None:
            done.update({k: r for k, r in store.rows().items() if k in unique})
        return cls(keys, unique, done, store, progress)

    def todo(self) -> list[str]:
        return [k for k in self.unique if k not in self.done]

    def finish(self, finished: list[tuple[str, Row]]) -> None:
        if self.store is not None:
            self.store.append_many(finished)  # on disk before it counts as done
        self.done.update(finished)

    def report(self) -> None:
        self.progress(len(self.done), len(self.unique))

    def rows(self) -> list[Row]:
        return [self.done[k] for k in self.keys]

    def cancelled(self) -> SweepCancelled:
        return SweepCancelled([self.done.get(k) for k in self.keys], len(self.done), len(self.unique))


@dataclasses.dataclass(frozen=True)
class _Unprobed:
    """The points the probe here left for the cluster: their keys, relative costs, and the seconds it measured for
    each cost class."""

    todo: list[str]
    costs: list[float]
    measured: dict[float, float]

    def batches(self, batch: int | None, workers: int) -> list[list[str]]:
        if batch is not None:
            return fixed_batches(self.todo, batch)
        seconds = point_seconds(self.measured)
        return plan_batches(self.todo, [seconds(c) for c in self.costs], workers)


def _probe_here(
    fn: Callable[[Any, Any], Row],
    shared: Any,
    sweep: _Sweep[Any],
    todo: list[str],
    cost: Callable[[Any], float] | None,
    batch: int | None,
) -> _Unprobed:
    """Runs the first points here (one when the batch size is given; else the probe order's, see _probe)."""
    weight = cost or (lambda _p: 1.0)
    costs = [float(weight(sweep.unique[k])) for k in todo]
    chosen = probe_order(costs) if batch is None else [0]
    measured, ran = _probe(fn, shared, [(todo[i], sweep.unique[todo[i]], costs[i]) for i in chosen], sweep.finish)
    rest = [i for i in range(len(todo)) if i not in set(chosen[:ran])]
    return _Unprobed([todo[i] for i in rest], [costs[i] for i in rest], measured)


def _on_cluster(
    fn: Callable[[Any, Any], Row],
    shared: Any,
    sweep: _Sweep[Any],
    left: _Unprobed,
    cluster: str | None,
    workers: int | None,
    batch: int | None,
    announce: Callable[[Engine], None],
    stop: Callable[[], bool],
) -> None:
    """Runs the points left on Dask: a LocalCluster opened (and closed) here, or an existing scheduler."""
    opening = time.perf_counter()
    with open_client(cluster, workers) as (client, engine):
        _import_on_workers(client, fn, cluster)
        engine = dataclasses.replace(engine, start_s=time.perf_counter() - opening)
        announce(engine)
        batches = left.batches(batch, engine.workers)
        try:
            _distributed(client, fn, shared, batches, sweep.unique, sweep.finish, sweep.report, stop)
        except _Stopped:  # the futures are released; leaving the `with` closes a LocalCluster
            raise sweep.cancelled() from None


def _in_process(
    fn: Callable[[Any, Any], Row],
    shared: Any,
    todo: list[tuple[str, Any]],
    finish: Callable[[list[tuple[str, Row]]], None],
    flushed_some: Callable[[], None],
    stop: Callable[[], bool],
) -> None:
    pending: list[tuple[str, Row]] = []  # written together every FLUSH_S: one fsync, not one a point
    flushed = time.monotonic()
    for k, point in todo:
        if stop():
            finish(pending)
            raise _Stopped
        pending.append((k, fn(shared, point)))
        if time.monotonic() - flushed >= FLUSH_S:
            finish(pending)
            pending, flushed = [], time.monotonic()
            flushed_some()
    finish(pending)
    flushed_some()


def _probe(
    fn: Callable[[Any, Any], Row],
    shared: Any,
    points: list[tuple[str, Any, float]],
    finish: Callable[[list[tuple[str, Row]]], None],
) -> tuple[dict[float, float], int]:
    """Times points (key, point, cost) here in order, the first always, the warm ones (a class seen before) until
    PROBE_SECONDS have gone by; their rows are kept. Returns the last time measured for each cost class and how
    many of the points ran."""
    measured: dict[float, float] = {}
    rows: list[tuple[str, Row]] = []
    started = time.perf_counter()
    for k, p, c in points:
        if c in measured and time.perf_counter() - started >= PROBE_SECONDS:
            break
        t0 = time.perf_counter()
        rows.append((k, fn(shared, p)))
        measured[c] = time.perf_counter() - t0
    finish(rows)
    return measured, len(rows)


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
