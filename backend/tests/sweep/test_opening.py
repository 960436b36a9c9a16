"""The sweep's cluster opened in a thread: this thread goes on meanwhile, gets the client (or what its opening
raised) once it waits for it, and leaving closes what was opened on every path."""

from __future__ import annotations

import threading
import time

import pytest
from dask_processes import DaskProcesses

from chainlab.errors import ChainlabError, ModelError
from chainlab.sweep.opening import opening


def test_the_client_opens_while_this_thread_goes_on(dask_cluster: DaskProcesses) -> None:
    started = time.perf_counter()
    with opening(dask_cluster.address, None, ["chainlab.sweep.engine"]) as opened:
        returned = time.perf_counter() - started
        assert any(t.name == "chainlab-sweep-opening" for t in threading.enumerate())
        client, engine = opened()
        assert client.submit(sum, [1, 2]).result() == 3
        assert (engine.engine, engine.workers) == (dask_cluster.address, 2)
        assert 0 < engine.start_s and returned < engine.start_s  # the `with` did not wait for the opening
    assert client.status == "closed"


def test_what_the_opening_raised_is_raised_where_it_is_waited_for(dask_cluster: DaskProcesses) -> None:
    with (
        opening(dask_cluster.address, None, ["no_such_sweep_module"]) as opened,
        pytest.raises(ChainlabError, match="cannot import no_such_sweep_module"),
    ):
        opened()
    with opening("tcp://127.0.0.1:9", None, []) as opened, pytest.raises(ModelError, match="cannot reach"):
        opened()


def test_an_error_before_waiting_still_closes_the_client(dask_cluster: DaskProcesses) -> None:
    threads = threading.active_count()
    with pytest.raises(ValueError, match="broken model"), opening(dask_cluster.address, None, []):
        raise ValueError("broken model")
    assert not any(t.name == "chainlab-sweep-opening" for t in threading.enumerate())
    deadline = time.monotonic() + 5  # the client's own threads end once it is closed
    while threading.active_count() > threads and time.monotonic() < deadline:
        time.sleep(0.05)
    assert threading.active_count() <= threads
