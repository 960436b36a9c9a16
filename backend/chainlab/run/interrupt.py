"""Ctrl-C during a run: stop the chain cleanly so that what it measured so far is still written and reported.

The backend's SIGINT handler (installed by the RPC server) marks the run interrupted and passes SIGINT on to
the chain processes it started; the chain binary then stops its threads, writes latencies.csv and run.json
with status 'stopped', and exits normally. Scenario loops check `interrupted()` and start nothing new.

SIGTERM and SIGHUP (also the client's death: PR_SET_PDEATHSIG) do the same and then end the backend once the
work in flight has replied (`Terminated` leaves the server's read loop); so does the end of its stdin.
"""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_children: set[subprocess.Popen] = set()
_lock = threading.Lock()
_interrupted = threading.Event()


class Terminated(BaseException):
    """SIGTERM or SIGHUP: raised in the main thread (the server's read loop) after the run was interrupted."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def install() -> None:
    signal.signal(signal.SIGINT, _on_sigint)
    signal.signal(signal.SIGTERM, _on_terminate)
    signal.signal(signal.SIGHUP, _on_terminate)


def _on_terminate(signum: int, frame: object) -> None:
    stop_all()
    raise Terminated(signum)


def _on_sigint(signum: int, frame: object) -> None:
    stop_all()


def stop_all() -> None:
    """Stop the run in flight (keeping what it measured) and anything it would start next."""
    _interrupted.set()
    with _lock:
        children = list(_children)
    for proc in children:
        if proc.poll() is None:
            proc.send_signal(signal.SIGINT)


def interrupted() -> bool:
    return _interrupted.is_set()


def reset() -> None:
    """A new run starts: an earlier Ctrl-C does not stop it."""
    _interrupted.clear()


@contextmanager
def interruptible(proc: subprocess.Popen) -> Iterator[subprocess.Popen]:
    with _lock:
        _children.add(proc)
    if _interrupted.is_set() and proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        yield proc
    finally:
        with _lock:
            _children.discard(proc)
