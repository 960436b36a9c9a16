"""The sweep engine: one function applied to many independent points, in this process or on Dask distributed.

`run_sweep(fn, shared, points, key=...)` returns fn(shared, point) for every point, in the order of `points`, and
the rows are the same bit for bit wherever they ran: the same code computes each row from the same inputs; the
engine only moves them. A caller whose neighbouring points share work gives `many(shared, points)` too (the rows of
fn of each point, computed together): then it computes every batch, here and on the workers, and `together(point)`
labels the runs of points that share work, so that no batch cuts one (and no probed group spans two). On Dask
(chainlab.sweep.on_dask), `shared` (a resolved IR, say) is shipped once to every worker and each task carries a
batch of points; rows stream back as tasks finish and go to the store (if any) at once, so an interruption keeps
every finished row and a resumed sweep recomputes none of them. The first points are timed here (to size the
batches, and so that a broken model fails once) while the cluster starts in another thread (chainlab.sweep.opening).

A killed worker costs time, not rows: the scheduler recomputes its tasks on the others, and a batch the scheduler
gave up on (KilledWorker) is submitted again. Cancellation (`cancelled()` turning true, e.g. Ctrl-C) releases every
outstanding future, so no worker starts another task of the sweep, and raises SweepCancelled with the rows done.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

from chainlab.errors import ChainlabError
from chainlab.sweep.batches import (
    PROBE_SECONDS,
    fixed_batches,
    plan_batches,
    point_seconds,
    probe_groups,
    run_ids,
    run_slices,
)
from chainlab.sweep.cluster import Engine, check_cluster
from chainlab.sweep.on_dask import Stopped, run_batch, run_batches
from chainlab.sweep.opening import Opened, opening
from chainlab.sweep.store import RowStore

T = TypeVar("T")
Row = dict[str, Any]
Many = Callable[[Any, list[Any]], list[Row]]

FLUSH_S = 0.2  # in this process, rows go to the store (and progress) this often: a kill loses at most this much
IN_PROCESS_POINTS = 128  # points given to `many` at once in this process, at most (a cancel waits for these);
# fewer where a run ends in the second half of them
PROBE_RUN = 8  # consecutive points of one cost class (and group) `many` is timed on in the probe: not a whole run,
# which may hold hundreds of costly points, all computed here before the cluster starts


class SweepCancelled(ChainlabError):
    """The sweep was cancelled: `rows` holds the finished rows (in the order of the points; None where not done)."""

    def __init__(self, rows: list[Row | None], done: int, total: int):
        super().__init__(f"the sweep was cancelled after {done} of {total} points")
        self.rows = rows
        self.done = done
        self.total = total


@dataclasses.dataclass(frozen=True)
class _Batch:
    """What computes the rows of points: fn one by one, or many for all of them at once."""

    fn: Callable[[Any, Any], Row]
    many: Many | None
    together: Callable[[Any], Hashable] | None = None

    def rows(self, shared: Any, points: list[Any]) -> list[Row]:
        return run_batch(self.fn, self.many, shared, points)

    @property
    def probe_run(self) -> int:
        """Consecutive points of one cost class timed together in the probe."""
        return 1 if self.many is None else PROBE_RUN

    @property
    def modules(self) -> list[str]:
        return [m for m in (getattr(f, "__module__", None) for f in (self.fn, self.many) if f is not None) if m]


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
    many: Callable[[Any, list[T]], list[dict[str, Any]]] | None = None,
    together: Callable[[T], Hashable] | None = None,
) -> list[dict[str, Any]]:
    """fn(shared, point) for every point, in the order of `points` (see the module's docstring).

    cluster: None or "local": a LocalCluster sized to this machine (processes, one thread each), closed before
    returning; "process": here, without Dask; "tcp://HOST:PORT": an existing scheduler, left unchanged.
    store: rows already in it are not recomputed; new rows are written as they complete.
    progress(done, total) counts unique points, stored ones included. batch: points per Dask task (default: batches
    of about TASK_SECONDS, from the time of the first points here and cost(point), a point's relative cost, when
    given). workers: the LocalCluster's worker processes (default: one a core). on_engine(Engine) says what runs the
    sweep, before the work on the cluster starts (Engine.start_s: the time its start took). many(shared, points):
    the rows of fn of each of the points, in order, computed together (where that is faster); when given, it
    computes every batch (and fn is not called). together(point): consecutive points with equal labels share work
    in `many` (a run): a batch keeps them whole, and a group timed in the probe holds points of one label.
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
    rows_of = _Batch(fn, many, together)
    sweep.report()
    if not todo:
        announce(Engine("process", 1))
        return sweep.rows()
    if cluster == "process":
        announce(Engine("process", 1))
        try:
            _in_process(rows_of, shared, [(k, sweep.unique[k]) for k in todo], sweep.finish, sweep.report, stop)
        except Stopped:
            raise sweep.cancelled() from None
        return sweep.rows()
    probe = _ProbePlan.of(rows_of, sweep, todo, cost, batch)
    _here_then_on_cluster(rows_of, shared, sweep, probe, cluster, workers, batch, announce, stop)
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
    labels: list[int] | None  # the run of each point (batches.run_ids), kept whole in a batch

    def batches(self, batch: int | None, workers: int) -> list[list[str]]:
        if batch is not None:
            return fixed_batches(self.todo, batch)
        seconds = point_seconds(self.measured)
        return plan_batches(self.todo, [seconds(c) for c in self.costs], workers, self.labels)


@dataclasses.dataclass(frozen=True)
class _ProbePlan:
    """The points to time here: the keys to do, their relative costs and run labels, and the groups (indices into
    them) the probe runs (the first one alone when the batch size is given; else the probe groups', see _probe)."""

    todo: list[str]
    costs: list[float]
    labels: list[int] | None  # the run of each point (batches.run_ids)
    groups: list[list[int]]

    @classmethod
    def of(
        cls,
        batch_of: _Batch,
        sweep: _Sweep[Any],
        todo: list[str],
        cost: Callable[[Any], float] | None,
        batch: int | None,
    ) -> _ProbePlan:
        weight = cost or (lambda _p: 1.0)
        costs = [float(weight(sweep.unique[k])) for k in todo]
        together = batch_of.together
        labels = run_ids(together(sweep.unique[k]) for k in todo) if together is not None else None
        groups = probe_groups(costs, batch_of.probe_run, labels) if batch is None else [[0]]
        return cls(todo, costs, labels, groups)

    @property
    def points(self) -> int:
        return sum(len(g) for g in self.groups)

    def run(self, batch_of: _Batch, shared: Any, sweep: _Sweep[Any]) -> _Unprobed:
        """Runs the groups here (their rows go to the sweep) and returns what they left for the cluster."""
        todo, costs, labels = self.todo, self.costs, self.labels
        entries = [[(todo[i], sweep.unique[todo[i]], costs[i]) for i in g] for g in self.groups]
        measured, ran = _probe(batch_of, shared, entries, sweep.finish)
        sweep.report()
        done = {i for g, n in zip(self.groups, ran) for i in g[:n]}
        rest = [i for i in range(len(todo)) if i not in done]
        kept = [labels[i] for i in rest] if labels is not None else None
        return _Unprobed([todo[i] for i in rest], [costs[i] for i in rest], measured, kept)


def _here_then_on_cluster(
    batch_of: _Batch,
    shared: Any,
    sweep: _Sweep[Any],
    probe: _ProbePlan,
    cluster: str | None,
    workers: int | None,
    batch: int | None,
    announce: Callable[[Engine], None],
    stop: Callable[[], bool],
) -> None:
    """The probe's points here, beside the cluster's start (a broken model fails at once, not once per worker, and
    their times size the batches), then the rest on the cluster; no cluster when the probe did every point."""
    early = None
    if probe.points >= len(probe.todo):  # the probe may compute every point: a cluster only for what it leaves
        early = probe.run(batch_of, shared, sweep)
        if not early.todo:
            announce(Engine("process", 1))
            return
    with opening(cluster, workers, batch_of.modules) as opened:
        left = early if early is not None else probe.run(batch_of, shared, sweep)  # while the cluster starts
        _on_cluster(batch_of, shared, sweep, left, opened, batch, announce, stop)


def _on_cluster(
    batch_of: _Batch,
    shared: Any,
    sweep: _Sweep[Any],
    left: _Unprobed,
    opened: Callable[[], Opened],
    batch: int | None,
    announce: Callable[[Engine], None],
    stop: Callable[[], bool],
) -> None:
    """Runs the points left on Dask, once the client `opened()` returns is open (the caller closes it)."""
    client, engine = opened()
    announce(engine)
    batches = left.batches(batch, engine.workers)
    try:
        run_batches(client, batch_of.fn, batch_of.many, shared, batches, sweep.unique, sweep.finish, sweep.report, stop)
    except Stopped:  # the futures are released; leaving the caller's `with` closes a LocalCluster
        raise sweep.cancelled() from None


def _in_process(
    batch_of: _Batch,
    shared: Any,
    todo: list[tuple[str, Any]],
    finish: Callable[[list[tuple[str, Row]]], None],
    flushed_some: Callable[[], None],
    stop: Callable[[], bool],
) -> None:
    pending: list[tuple[str, Row]] = []  # written together every FLUSH_S: one fsync, not one a point
    flushed = time.monotonic()
    step = 1 if batch_of.many is None else IN_PROCESS_POINTS
    together = batch_of.together
    labels = run_ids(together(p) for _, p in todo) if together is not None and step > 1 else None
    for cut in run_slices(len(todo), step, labels):
        if stop():
            finish(pending)
            raise Stopped
        part = todo[cut.start : cut.stop]
        pending += zip([k for k, _ in part], batch_of.rows(shared, [p for _, p in part]))
        if time.monotonic() - flushed >= FLUSH_S:
            finish(pending)
            pending, flushed = [], time.monotonic()
            flushed_some()
    finish(pending)
    flushed_some()


def _probe(
    batch_of: _Batch,
    shared: Any,
    groups: list[list[tuple[str, Any, float]]],
    finish: Callable[[list[tuple[str, Row]]], None],
) -> tuple[dict[float, float], list[int]]:
    """Times groups of points (key, point, cost; one cost class a group) here in order, the first always, the warm
    ones (a class seen before) until PROBE_SECONDS have gone by, each cut to what its class's last time says fits in
    PROBE_SECONDS; their rows are kept. Returns the last time a point measured for each cost class and how many
    points of each group ran (a prefix)."""
    measured: dict[float, float] = {}
    rows: list[tuple[str, Row]] = []
    started = time.perf_counter()
    ran: list[int] = []
    for group in groups:
        c = group[0][2]
        if c in measured:
            if time.perf_counter() - started >= PROBE_SECONDS:
                break
            group = group[: max(1, int(PROBE_SECONDS / max(measured[c], 1e-9)))]
        t0 = time.perf_counter()
        rows += zip([k for k, _, _ in group], batch_of.rows(shared, [p for _, p, _ in group]))
        measured[c] = (time.perf_counter() - t0) / len(group)
        ran.append(len(group))
    finish(rows)
    return measured, ran
