"""A sweep's batches as Dask tasks: submitted at once, their rows taken as they finish, a batch the scheduler gave
up on (KilledWorker) submitted again, and every outstanding task cancelled when the sweep stops.

What the client does per task is the engine's serial part (on a LocalCluster its scheduler shares the client's
event loop): it collects every task that finished since it last looked with one gather, not one request a task.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from typing import Any

from dask.base import tokenize
from distributed import Client, Future, as_completed
from distributed.protocol import pickle
from distributed.scheduler import KilledWorker

from chainlab.errors import ChainlabError

Row = dict[str, Any]
Many = Callable[[Any, list[Any]], list[Row]]

RESUBMITS = 3  # a batch the scheduler declared bad (KilledWorker) is submitted this many times again
POLL_S = 0.05  # how often the client looks for a cancel while no task finishes (a finished task wakes it at once)


class Stopped(Exception):
    """The sweep's `cancelled()` turned true: the outstanding tasks are cancelled."""


@dataclasses.dataclass(frozen=True)
class Points:
    """A task's points, pickled once here and unpickled by the worker that runs it. As a list, Dask walks them for
    futures element by element (in the client, ~0.15 ms a point of two nested dicts: more than a light point's
    analysis); as an object, the scheduler unpickles each task's to read its graph (0.13 CPU-s of the client's
    event loop, where a LocalCluster's scheduler runs, for a light sweep). Bytes it passes on as they are."""

    packed: bytes

    @classmethod
    def of(cls, items: list[Any]) -> Points:
        return cls(pickle.dumps(items))

    @property
    def items(self) -> list[Any]:
        return list(pickle.loads(self.packed))


@dataclasses.dataclass(frozen=True)
class Rows:
    """A task's rows as one object: a list of dicts is serialized row by row by Dask (each row its own pickle, with
    its own metrics and frame: 0.3 CPU-s of a worker's event loop for the 8978 rows of a light sweep, as much as
    half their analysis), one object in one pickle."""

    items: list[Row]


def run_batch(fn: Callable[[Any, Any], Row], many: Many | None, shared: Any, points: list[Any]) -> list[Row]:
    """The rows of a batch of points: many(shared, points) where the caller gave it, else fn of each point."""
    return many(shared, points) if many is not None else [fn(shared, p) for p in points]


def run_task(fn: Callable[[Any, Any], Row], many: Many | None, shared: Any, points: Points) -> Rows:
    """What a worker runs: the rows of one batch."""
    return Rows(run_batch(fn, many, shared, points.items))


def import_on_workers(client: Client, modules: list[str], cluster: str | None) -> None:
    """Every worker imports `modules` now: the import (numpy, chainlab) is part of the start, not of the first
    tasks, and workers that cannot import it (another environment) are one clear error, not failed tasks."""
    for module in modules:
        try:
            client.run(importlib.import_module, module)
        except ImportError as e:
            where = cluster or "the LocalCluster"
            raise ChainlabError(
                f"the Dask workers of {where} cannot import {module}: {e} (install chainlab there)"
            ) from e


@dataclasses.dataclass
class _Tasks:
    """The sweep's outstanding tasks: each future's keys and how many times its batch was submitted before."""

    client: Client
    fn: Callable[[Any, Any], Row]
    many: Many | None
    shared: Future
    unique: dict[str, Any]
    outstanding: dict[Future, tuple[list[str], int]] = dataclasses.field(default_factory=dict)
    name: str = dataclasses.field(init=False)  # of the function, in the tasks' keys (the dashboard shows it)
    token: str = dataclasses.field(init=False)

    def __post_init__(self) -> None:
        f = self.many or self.fn
        self.name = f"{getattr(f, '__module__', '')}.{getattr(f, '__qualname__', 'fn')}".replace(".", "-")
        self.token = tokenize(self.name, self.shared.key)

    def submit(self, keys: list[str], attempt: int) -> Future:
        future = self.client.submit(
            run_task,
            self.fn,
            self.many,
            self.shared,
            Points.of([self.unique[k] for k in keys]),
            key=f"sweep-{self.name}-{tokenize(self.token, keys, attempt)}",
            pure=False,
        )
        self.outstanding[future] = (keys, attempt)
        return future

    def collect(self, ready: list[Future]) -> tuple[list[tuple[str, Row]], list[Future]]:
        """The rows of the finished futures (one gather for all) and the futures of batches submitted again."""
        finished = [f for f in ready if f.status == "finished"]
        rows: list[tuple[str, Row]] = []
        again: list[Future] = []
        for future in ready:
            if any(future is f for f in finished):
                continue
            keys, attempt = self.outstanding.pop(future)
            try:
                # raises the task's error (or CancelledError); a task whose worker was lost may be run again by the
                # scheduler meanwhile and then return its rows here
                rows += zip(keys, future.result().items)
            except KilledWorker:
                if attempt >= RESUBMITS:
                    raise
                again.append(self.submit(keys, attempt + 1))
            finally:
                future.release()
        results = self.client.gather(finished)
        for future, result in zip(finished, results):
            keys, _attempt = self.outstanding.pop(future)
            future.release()
            rows += zip(keys, result.items)
        return rows, again


def run_batches(
    client: Client,
    fn: Callable[[Any, Any], Row],
    many: Many | None,
    shared: Any,
    batches: list[list[str]],
    unique: dict[str, Any],
    finish: Callable[[list[tuple[str, Row]]], None],
    batch_done: Callable[[], None],
    stop: Callable[[], bool],
) -> None:
    """The rows of every batch (points by key in `unique`), handed to finish() as tasks finish; raises Stopped when
    stop() turns true (no worker starts another of the sweep's tasks)."""
    [shared_future] = client.scatter([shared], broadcast=True, hash=False)
    tasks = _Tasks(client, fn, many, shared_future, unique)
    completed = as_completed([tasks.submit(b, 0) for b in batches], loop=client.loop)
    try:
        while tasks.outstanding:
            if stop():
                raise Stopped
            ready = completed.next_batch(block=False)
            if not ready:
                _wait_for_one(completed)
                continue
            rows, again = tasks.collect(ready)
            completed.update(again)
            if rows:
                finish(rows)
                batch_done()
    finally:
        if tasks.outstanding:  # cancelled or failed: no worker goes on with this sweep's tasks
            client.cancel(list(tasks.outstanding), force=True)
        shared_future.release()


def _wait_for_one(completed: as_completed) -> None:
    """Returns when a task finishes or POLL_S have gone by. A fixed sleep instead made every task's rows (and the
    sweep's last) wait half of it on average: as_completed queues a finished future, then notifies its condition,
    so one found missing under the lock cannot be missed."""
    with completed.thread_condition:
        if completed.queue.empty():
            completed.thread_condition.wait(timeout=POLL_S)
