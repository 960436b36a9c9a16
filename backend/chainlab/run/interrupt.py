"""Ctrl-C during a run: stop the chain cleanly so that what it measured so far is still written and reported.

The backend's SIGINT handler (installed by the RPC server) marks the run interrupted and passes SIGINT on to
the chain processes it started; the chain binary then stops its threads, writes latencies.csv and run.json
with status 'stopped', and exits normally. Scenario loops check `interrupted()` and start nothing new.
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


def install() -> None:
    signal.signal(signal.SIGINT, _on_sigint)


def _on_sigint(signum: int, frame: object) -> None:
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
