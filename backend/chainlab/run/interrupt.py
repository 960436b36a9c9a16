"""Ctrl-C during a run: stop the chain cleanly so that what it measured so far is still written and reported.

The backend's SIGINT handler (installed by the RPC server) marks the run interrupted and passes SIGINT on to
the chain processes it started; the chain binary then stops its threads, writes latencies.csv and run.json
with status 'stopped', and exits normally. Scenario loops check `interrupted()` and start nothing new.

SIGTERM and SIGHUP (also the client's death: PR_SET_PDEATHSIG) do the same and then end the backend once the
work in flight has replied (`Terminated` leaves the server's read loop); so does the end of its stdin. Unlike a
Ctrl-C, that is final: a run whose request was accepted just before (its handler not yet started) does not start,
instead of clearing the stop as a new run after a Ctrl-C does and running to its last iteration for nobody.
"""

from __future__ import annotations

import signal
import subprocess
import threading
from collections.abc import Iterator
from contextlib import contextmanager

_children: set[subprocess.Popen] = set()
_lock = threading.Lock()  # guards _children
# Plain flags, not Events: a signal handler runs in the main thread between two bytecodes, possibly inside another
# handler; one that takes a lock the code it interrupted holds (an Event's own) waits for itself forever (CI: a
# backend hung after SIGTERM and SIGHUP came together). Storing a global is one bytecode: no lock needed.
_interrupted = False  # Ctrl-C: the run in flight stops; the next run starts afresh
_ending = False  # SIGTERM, SIGHUP, the client gone: nothing runs any more in this backend
_signalling = threading.local()  # .active: this thread is signalling the children (a nested handler leaves it)


class Terminated(BaseException):
    """SIGTERM or SIGHUP: raised in the main thread (the server's read loop) after the run was interrupted."""

    def __init__(self, signum: int):
        super().__init__(signum)
        self.signum = signum


def install() -> None:
    signal.signal(signal.SIGINT, _on_sigint)
    signal.signal(signal.SIGTERM, _on_terminate)
    signal.signal(signal.SIGHUP, _on_terminate)


def ignore_from_now() -> None:
    """The backend is exiting: a signal still on its way changes nothing. (Python puts back the default handlers as
    it finalizes: a late SIGHUP would end the process by itself, with another exit status.)"""
    for signum in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)


def _on_terminate(signum: int, frame: object) -> None:
    first = not _ending
    end()
    if first:  # a second SIGTERM/SIGHUP does not cut short the wait for the replies of the work in flight
        raise Terminated(signum)


def _on_sigint(signum: int, frame: object) -> None:
    stop_all()


def stop_all() -> None:
    """Stop the run in flight (keeping what it measured) and anything it would start next."""
    global _interrupted
    _interrupted = True
    _signal_children()


def end() -> None:
    """The backend is ending: stop the run in flight, and every run that would start after it."""
    global _ending
    _ending = True
    _signal_children()


def _signal_children() -> None:
    """SIGINT to the chain processes still running. A signal handler that interrupted this very call in the same
    thread returns at once: the call it interrupted goes on signalling them, and _lock is not taken twice."""
    if getattr(_signalling, "active", False):
        return
    _signalling.active = True
    try:
        with _lock:
            children = list(_children)
        for proc in children:
            if proc.poll() is None:
                proc.send_signal(signal.SIGINT)
    finally:
        _signalling.active = False


def interrupted() -> bool:
    return _interrupted or _ending


def reset() -> bool:
    """A new run starts: an earlier Ctrl-C does not stop it. False when the backend is ending: start nothing."""
    global _interrupted
    _interrupted = False
    return not _ending


def start_serving() -> None:
    """A server starts unstopped, also after an earlier one in this process (tests serve in-process). Not reset when
    a server ends: a SIGTERM still on its way then does not interrupt the exit a second time."""
    global _interrupted, _ending
    _interrupted = _ending = False


@contextmanager
def interruptible(proc: subprocess.Popen) -> Iterator[subprocess.Popen]:
    with _lock:
        _children.add(proc)
    if interrupted() and proc.poll() is None:
        proc.send_signal(signal.SIGINT)
    try:
        yield proc
    finally:
        with _lock:
            _children.discard(proc)
