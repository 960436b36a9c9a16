"""A sweep's batches as Dask tasks: every batch's rows come back under its keys, a stop cancels what is left, and
workers that cannot import the sweep's code are one clear error."""

from __future__ import annotations

import time

import pytest
from dask_processes import DaskProcesses
from distributed import Client
from distributed.protocol import serialize
from sweep_fns import mix, mix_many, slow

from chainlab.errors import ChainlabError
from chainlab.sweep.on_dask import Points, Rows, Stopped, import_on_workers, run_batch, run_batches, run_task

SHARED = {"a": 0.731, "b": 3.5}


def test_a_task_computes_its_batch_with_many_where_given() -> None:
    points = [[1, 2], [3, 4]]
    assert run_task(mix, None, SHARED, Points.of(points)) == Rows([mix(SHARED, p) for p in points])
    assert run_task(mix, mix_many, SHARED, Points.of(points)) == Rows(run_batch(mix, mix_many, SHARED, points))
    assert [r["together"] for r in run_batch(mix, mix_many, SHARED, points)] == [2, 2]


def test_a_tasks_rows_travel_as_one_frame_not_one_a_row() -> None:
    rows = run_task(mix, None, SHARED, Points.of([[x, 1] for x in range(50)]))
    # how a worker serializes a task's result for the client: a list is split into one frame (and pickle) a row
    assert len(serialize(rows.items, iterate_collection=True)[1]) == 50
    assert len(serialize(rows, iterate_collection=True)[1]) == 1


def test_every_batch_comes_back_under_its_keys(dask_cluster: DaskProcesses) -> None:
    unique = {f"{x},{y}": [x, y] for x in range(6) for y in range(5)}
    keys = list(unique)
    batches = [keys[i : i + 4] for i in range(0, len(keys), 4)]
    finished: list[list[tuple[str, dict]]] = []
    with Client(dask_cluster.address, set_as_default=False) as client:
        run_batches(client, mix, None, SHARED, batches, unique, finished.append, lambda: None, lambda: False)
    got = dict(pair for rows in finished for pair in rows)
    assert sorted(got) == sorted(keys) and sum(map(len, finished)) == len(keys)  # each key once
    assert all(got[k] == mix(SHARED, p) for k, p in unique.items())


def test_a_stop_cancels_every_outstanding_task(dask_cluster: DaskProcesses) -> None:
    unique = {str(p): p for p in range(40)}
    batches = [[k] for k in unique]
    finished: list[list[tuple[str, dict]]] = []
    with Client(dask_cluster.address, set_as_default=False) as client:
        with pytest.raises(Stopped):
            run_batches(
                client,
                slow,
                None,
                {"sleep": 0.2},
                batches,
                unique,
                finished.append,
                lambda: None,
                lambda: len(finished) >= 2,
            )

        def busy() -> list[str]:
            return [str(k) for keys in client.processing().values() for k in keys if str(k).startswith("sweep-")]

        deadline = time.monotonic() + 5
        while busy() and time.monotonic() < deadline:
            time.sleep(0.05)
        assert busy() == []
    assert 2 <= len(finished) < len(batches)


def test_workers_that_cannot_import_the_code_are_one_clear_error(dask_cluster: DaskProcesses) -> None:
    with (
        Client(dask_cluster.address, set_as_default=False) as client,
        pytest.raises(ChainlabError, match=r"cannot import no_such_sweep_module.*install chainlab there"),
    ):
        import_on_workers(client, ["no_such_sweep_module"], dask_cluster.address)
