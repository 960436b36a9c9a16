"""A sweep's cluster opened in a thread while this one goes on (times the first points, see chainlab.sweep.engine).

A LocalCluster takes ~0.5 s to start, nearly all of it in its worker processes (importing numpy and chainlab);
the points the engine times here before it cost 0.05-0.1 s more, cold. Side by side, the start hides them.
"""

from __future__ import annotations

import dataclasses
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import ExitStack, contextmanager

from distributed import Client

from chainlab.sweep.cluster import Engine, open_client
from chainlab.sweep.on_dask import import_on_workers

Opened = tuple[Client, Engine]


@contextmanager
def opening(cluster: str | None, workers: int | None, modules: list[str]) -> Iterator[Callable[[], Opened]]:
    """Opens `open_client(cluster, workers)` and has every worker import `modules`, in a thread.

    Parameters
    ----------
    cluster, workers : as `chainlab.sweep.cluster.open_client`.
    modules : list of str
        The modules the sweep's tasks need on the workers.

    Yields
    ------
    callable
        Waits until the client is open and returns it with its Engine (start_s: the seconds its opening took,
        from the thread's start); raises what the opening raised. Leaving the `with` waits for the opening to end
        and closes what it opened (a LocalCluster) on every path.
    """
    stack = ExitStack()
    outcome: list[Opened] = []
    failure: list[BaseException] = []

    def open_it() -> None:
        started = time.perf_counter()
        try:
            client, engine = stack.enter_context(open_client(cluster, workers))
            import_on_workers(client, modules, cluster)
            outcome.append((client, dataclasses.replace(engine, start_s=time.perf_counter() - started)))
        except BaseException as e:  # handed to the caller's thread, raised there
            failure.append(e)

    thread = threading.Thread(target=open_it, name="chainlab-sweep-opening", daemon=True)
    thread.start()

    def opened() -> Opened:
        thread.join()
        if failure:
            raise failure[0]
        return outcome[0]

    try:
        yield opened
    finally:
        thread.join()
        stack.close()
