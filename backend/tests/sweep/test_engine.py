"""The sweep engine gives the same rows in this process, on a LocalCluster and on a separate scheduler with two
workers; a killed worker costs time, not rows; a killed client leaves no worker busy with its tasks."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from dask_processes import HERE, DaskProcesses, env
from distributed import Client
from ptts_cases import config
from sweep_fns import mix, mix_calls, mix_many, slow

from chainlab.ptts.explore import _resolved_ir
from chainlab.ptts.explore_points import Point, Shared, analyse_point, point_key
from chainlab.ptts.offset_runs import analyse_points
from chainlab.sweep import Engine, RowStore, SweepCancelled, run_sweep
from chainlab.sweep.engine import _Batch, _probe

GRID = [[x, y] for x in range(12) for y in range(10)]
SHARED = {"a": 0.731, "b": 3.5}


def grid_key(p: list[int]) -> str:
    return f"{p[0]},{p[1]}"


def test_same_rows_in_process_on_a_local_cluster_and_on_a_scheduler(dask_cluster: DaskProcesses) -> None:
    engines: list[str] = []
    here = run_sweep(mix, SHARED, GRID, key=grid_key, cluster="process", on_engine=lambda e: engines.append(e.engine))
    local = run_sweep(mix, SHARED, GRID, key=grid_key, on_engine=lambda e: engines.append(e.engine), batch=7)
    remote = run_sweep(mix, SHARED, GRID, key=grid_key, cluster=dask_cluster.address, batch=5)
    assert engines == ["process", "local"]
    assert len(here) == len(GRID) and [[r["x"], r["y"]] for r in here] == GRID
    # dict equality compares floats exactly: the same bits, not approximately the same numbers
    assert local == here
    assert remote == here
    assert [r["acc"].hex() for r in remote] == [r["acc"].hex() for r in here]


def test_many_computes_every_batch_in_every_mode_with_the_rows_of_fn(dask_cluster: DaskProcesses) -> None:
    here = run_sweep(mix, SHARED, GRID, key=grid_key, cluster="process")
    runs = {
        "process": run_sweep(mix, SHARED, GRID, key=grid_key, cluster="process", many=mix_many),
        "scheduler": run_sweep(mix, SHARED, GRID, key=grid_key, cluster=dask_cluster.address, many=mix_many),
        "scheduler, batches of 7": run_sweep(
            mix, SHARED, GRID, key=grid_key, cluster=dask_cluster.address, batch=7, many=mix_many
        ),
    }
    sizes = {name: [r.pop("together") for r in rows] for name, rows in runs.items()}  # every row came from many
    assert all(rows == here for rows in runs.values())
    assert sizes["process"] == [len(GRID)] * len(GRID)  # one call: fewer points than a slice of this process
    assert max(sizes["scheduler, batches of 7"]) == 7 and max(sizes["scheduler"]) > 1


def test_points_labelled_together_are_computed_in_one_call(dask_cluster: DaskProcesses) -> None:
    here = run_sweep(mix, SHARED, GRID, key=grid_key, cluster="process")
    rows = run_sweep(
        mix, SHARED, GRID, key=grid_key, cluster=dask_cluster.address, many=mix_calls, together=lambda p: p[0]
    )
    calls = {x: {r["call"] for r in rows if r["x"] == x} for x in range(12)}
    assert calls[0] == {"0,0", "0,8"}  # probed here: 8 points (the warm group: run 1 whole), the rest in one task
    assert all(len(calls[x]) == 1 for x in range(1, 12)), calls  # every other run of one x in one task
    assert len({r["call"] for r in rows}) > 3  # and the rest of the sweep was still cut into several
    assert [{k: v for k, v in r.items() if k != "call"} for r in rows] == here


def test_progress_counts_every_point_and_ends_complete(dask_cluster: DaskProcesses) -> None:
    seen: list[tuple[int, int]] = []
    run_sweep(mix, SHARED, GRID, key=grid_key, cluster=dask_cluster.address, progress=lambda d, t: seen.append((d, t)))
    assert seen[0] == (0, len(GRID)) and seen[-1] == (len(GRID), len(GRID))
    assert [d for d, _ in seen] == sorted(d for d, _ in seen)


def test_a_killed_worker_costs_time_not_rows(dask_cluster: DaskProcesses) -> None:
    points = list(range(40))
    done = threading.Event()

    def progress(d: int, _t: int) -> None:
        if d >= 6:
            done.set()

    result: dict[str, object] = {}

    def sweep() -> None:
        result["rows"] = run_sweep(
            slow, {"sleep": 0.15}, points, key=str, cluster=dask_cluster.address, batch=1, progress=progress
        )

    worker = threading.Thread(target=sweep)
    worker.start()
    with Client(dask_cluster.address, set_as_default=False) as client:
        pids = client.run(os.getpid)
        assert done.wait(60), "the sweep did not start"
        victim = sorted(pids.values())[0]
        os.kill(victim, signal.SIGKILL)
        worker.join(120)
        assert not worker.is_alive()
        assert result["rows"] == [{"p": p, "square": p * p} for p in points]
        assert victim not in client.run(os.getpid).values()
    dask_cluster.wait_for_workers(2)  # the nanny starts a new worker process: the cluster is whole again


def _sweep_script(cluster: str | None, points: int, sleep: float) -> str:
    target = repr(cluster)
    return f"""
import sys
sys.path.insert(0, {str(HERE)!r})
from sweep_fns import slow
from chainlab.sweep import run_sweep
if __name__ == "__main__":
    def progress(d, t):
        print(d, flush=True)
    run_sweep(slow, {{"sleep": {sleep}}}, list(range({points})), key=str, cluster={target}, batch=1, progress=progress)
"""


def _start_client(cluster: str | None) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-c", _sweep_script(cluster, 200, 0.4)], env=env(), stdout=subprocess.PIPE, text=True
    )


def _wait_for_progress(proc: subprocess.Popen[str], rows: int) -> None:
    assert proc.stdout is not None
    for line in proc.stdout:
        if int(line) >= rows:
            return
    pytest.fail("the sweep ended before it made progress")


def test_a_killed_client_leaves_no_worker_busy_with_its_tasks(dask_cluster: DaskProcesses) -> None:
    with Client(dask_cluster.address, set_as_default=False) as client:

        def busy() -> list[str]:
            return [str(k) for keys in client.processing().values() for k in keys if str(k).startswith("sweep-")]

        proc = _start_client(dask_cluster.address)
        try:
            _wait_for_progress(proc, 4)
            assert busy(), "the scheduler shows none of the sweep's tasks while it runs"
        finally:
            proc.kill()
            proc.wait()
        deadline = time.monotonic() + 5
        while busy() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert busy() == [], "the scheduler still has workers processing the dead client's tasks"


def _descendants(pid: int) -> set[int]:
    out: set[int] = set()
    stack = [pid]
    while stack:
        p = stack.pop()
        for task in Path(f"/proc/{p}/task").glob("*"):
            try:
                children = (task / "children").read_text().split()
            except OSError:
                continue
            for c in map(int, children):
                if c not in out:
                    out.add(c)
                    stack.append(c)
    return out


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split(")")[-1].split()[0] != "Z"
    except OSError:
        return False


def test_a_killed_client_takes_its_local_cluster_with_it() -> None:
    proc = _start_client(None)
    try:
        _wait_for_progress(proc, 4)
        workers = _descendants(proc.pid)
        assert len(workers) >= 2, "the LocalCluster's worker processes are not the client's children"
    finally:
        proc.kill()
        proc.wait()
    deadline = time.monotonic() + 10
    while any(_alive(p) for p in workers) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not [p for p in workers if _alive(p)], "worker processes outlived the client"


def test_resume_after_an_interruption_recomputes_nothing_stored(tmp_path: Path, dask_cluster: DaskProcesses) -> None:
    points = list(range(30))
    out = tmp_path / "sweep.csv"
    first_log, second_log = tmp_path / "first.log", tmp_path / "second.log"
    store = RowStore(out, "hash-1")
    with pytest.raises(SweepCancelled) as stopped:
        run_sweep(
            slow,
            {"sleep": 0.05, "log": str(first_log)},
            points,
            key=str,
            cluster=dask_cluster.address,
            store=store,
            batch=1,
            cancelled=lambda: len(store) >= 8,
        )
    store.close()
    kept = {int(k) for k in RowStore(out, "hash-1", resume=True).rows()}
    assert 8 <= len(kept) < len(points)
    assert {r["p"] for r in stopped.value.rows if r is not None} == kept
    store = RowStore(out, "hash-1", resume=True)
    rows = run_sweep(
        slow, {"sleep": 0.0, "log": str(second_log)}, points, key=str, cluster=dask_cluster.address, store=store
    )
    store.close()
    recomputed = [int(line) for line in second_log.read_text().split()]
    assert sorted(recomputed) == sorted(set(points) - kept)  # each missing point once, no stored one again
    assert rows == [{"p": p, "square": p * p} for p in points]
    assert len(RowStore(out, "hash-1", resume=True).rows()) == len(points)


def test_cancelled_in_process_keeps_the_finished_rows(tmp_path: Path) -> None:
    calls = iter(range(100))
    with pytest.raises(SweepCancelled) as stopped:
        run_sweep(slow, {"sleep": 0}, list(range(10)), key=str, cluster="process", cancelled=lambda: next(calls) >= 4)
    assert stopped.value.rows[:4] == [{"p": p, "square": p * p} for p in range(4)]
    assert stopped.value.rows[4:] == [None] * 6 and stopped.value.done == 4


def test_duplicate_points_are_computed_once_and_returned_in_order(tmp_path: Path) -> None:
    log = tmp_path / "log"
    rows = run_sweep(slow, {"sleep": 0, "log": str(log)}, [3, 1, 3, 2], key=str, cluster="process")
    assert [r["p"] for r in rows] == [3, 1, 3, 2]
    assert sorted(map(int, log.read_text().split())) == [1, 2, 3]


def _ptts_points() -> tuple[Shared, list[Point], dict[int, float]]:
    """A small explore grid of the case study (two candidate periods of C2, 100x apart in eq. 5.15)."""
    ir = _resolved_ir(config("e"), None)
    points: list[Point] = [
        {"offsets_ns": {"C1": a, "C2": b}, "periods_ns": {"C2": period}}
        for period in (16_600_000, 16_700_000)
        for a in range(0, 16_000_000, 5_250_000)
        for b in range(0, period, 1_750_000)
    ]
    return Shared(ir, 160_000_000, "<=", 10**12), points, {16_600_000: 249.0, 16_700_000: 83_166.0}


def test_ptts_rows_are_the_same_bits_in_every_mode_and_batch_size(dask_cluster: DaskProcesses) -> None:
    shared, points, ops = _ptts_points()

    def cost(p: Point) -> float:
        return ops[p["periods_ns"]["C2"]]

    here = run_sweep(analyse_point, shared, points, key=point_key, cluster="process")
    runs = {
        "one-worker LocalCluster, cost-sized batches": run_sweep(
            analyse_point, shared, points, key=point_key, cluster="local", workers=1, cost=cost
        ),
        "scheduler, batches of 1": run_sweep(
            analyse_point, shared, points, key=point_key, cluster=dask_cluster.address, batch=1
        ),
        "scheduler, batches of 7": run_sweep(
            analyse_point, shared, points, key=point_key, cluster=dask_cluster.address, batch=7
        ),
        "scheduler, cost-sized batches": run_sweep(
            analyse_point, shared, points, key=point_key, cluster=dask_cluster.address, cost=cost
        ),
        "runs in one pass, this process": run_sweep(
            analyse_point, shared, points, key=point_key, cluster="process", many=analyse_points
        ),
        "runs in one pass, scheduler, batches of 5": run_sweep(
            analyse_point, shared, points, key=point_key, cluster=dask_cluster.address, batch=5, many=analyse_points
        ),
        "runs in one pass, scheduler, cost-sized batches": run_sweep(
            analyse_point, shared, points, key=point_key, cluster=dask_cluster.address, cost=cost, many=analyse_points
        ),
    }
    want = [[float(v).hex() for v in r.values() if isinstance(v, float)] for r in here]
    assert len(want) == len(points) and all(len(w) == 6 for w in want)
    for name, rows in runs.items():
        assert rows == here, name
        assert [[float(v).hex() for v in r.values() if isinstance(v, float)] for r in rows] == want, name


def test_a_local_cluster_has_the_workers_asked_for() -> None:
    engines: list[Engine] = []
    run_sweep(slow, {"sleep": 0}, list(range(12)), key=str, cluster="local", workers=1, on_engine=engines.append)
    assert [(e.engine, e.workers) for e in engines] == [("local", 1)] and engines[0].start_s > 0
    with pytest.raises(ValueError, match="workers must be positive"):
        run_sweep(slow, {"sleep": 0}, [1], key=str, cluster="local", workers=0)


def test_a_warm_probe_group_is_cut_to_what_fits_in_the_probes_time() -> None:
    def many(_shared: Any, points: list[int]) -> list[dict[str, Any]]:
        time.sleep(0.01 * len(points))
        return [{"p": p} for p in points]

    batch = _Batch(lambda _s, p: {"p": p}, many)
    cold, warm = [(f"{i}", i, 1.0) for i in range(2)], [(f"{i}", i, 1.0) for i in range(2, 66)]
    finished: list[tuple[str, Any]] = []
    measured, ran = _probe(batch, None, [cold, warm], finished.extend)
    assert ran[0] == 2 and 5 <= ran[1] < 30  # ~PROBE_SECONDS / 10 ms of the 64 warm points
    assert [k for k, _ in finished] == [f"{i}" for i in range(2 + ran[1])] and measured[1.0] >= 0.01
