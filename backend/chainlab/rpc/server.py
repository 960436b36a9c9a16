"""JSON-RPC 2.0 over stdio (LSP-style Content-Length framing), the interface the CLI and the language server share.

Requests run in a worker pool so that a long analysis does not block
cancellation or other requests; `$/cancelRequest` cancels requests that have
not started. Progress goes out as `progress` notifications. The queue is
bounded (chainlab.rpc.endpoint.MAX_PENDING; beyond it: "busy") and
backend/version is answered ahead of it.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import queue
import signal
import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any, BinaryIO

from chainlab.errors import ChainlabError, FileSystemError
from chainlab.progress import ProgressFn
from chainlab.rpc.context import RequestContext
from chainlab.rpc.contract import ERROR_CODES, ContractMismatch
from chainlab.rpc.endpoint import INVALID_PARAMS, METHOD_NOT_FOUND, Endpoint, RpcError
from chainlab.rpc.framing import FrameError, FrameReader, FrameWriter
from chainlab.rpc.methods import METHODS, load_method_modules
from chainlab.run import interrupt

log = logging.getLogger("chainlab.rpc")

#: JSON-RPC error code for errors in the user's model (contract/schemas/errors.json).
MODEL_ERROR_CODE = ERROR_CODES["MODEL_ERROR"]


class Dispatcher:
    """Maps a request to the work its handler does (run in the endpoint's pool)."""

    def __init__(self, endpoint_ref: Callable[[], Endpoint | None]):
        self._endpoint_ref = endpoint_ref

    def __call__(self, method: str, params: Any) -> Callable[[], Any]:
        if method == "shutdown":
            return lambda: None
        handler = METHODS.get(method)
        if handler is None:
            raise RpcError(METHOD_NOT_FOUND, f"no method {method[:100]!r}")
        if params is not None and not isinstance(params, dict):
            raise RpcError(INVALID_PARAMS, f"{method}: params must be an object")
        params = dict(params or {})
        context = RequestContext(self._progress(params.pop("progressToken", None)))

        def work() -> Any:
            try:
                return handler(params, context)
            except ChainlabError as error:
                raise RpcError(MODEL_ERROR_CODE, str(error), error.to_json()) from error
            except ContractMismatch as error:
                raise RpcError(ERROR_CODES["CONTRACT_MISMATCH"], str(error), error.data) from error
            except OSError as error:  # a file-system failure is the user's to fix: path and reason, one line
                failure = FileSystemError(error)
                raise RpcError(MODEL_ERROR_CODE, str(failure), failure.to_json()) from error

        return work

    def _progress(self, token: Any) -> ProgressFn | None:
        """`progress` notifications carrying the client's token; None when it sent none."""
        endpoint = self._endpoint_ref()
        if token is None or endpoint is None:
            return None

        def notify(fraction: float, message: str = "") -> None:
            endpoint.notify("progress", {"token": token, "fraction": fraction, "message": message})

        return notify


#: How often the main thread looks up from waiting for a frame: the longest a signal waits for its handler.
SIGNAL_POLL_S = 0.25
#: Answered as they are read, ahead of queued work (a client's handshake behind a long queue must not time out).
CHEAP_METHODS = frozenset({"backend/version"})
#: Frames read ahead of the main thread: beyond them the reader waits, and so does the client writing to us.
FRAMES_AHEAD = 64


def _frames(reader: FrameReader) -> Iterator[tuple[dict[str, Any] | FrameError, int]]:
    """The frames of `reader`, read on a thread of their own. The kernel hands a SIGTERM to any thread of the
    process; Python runs its handler only when the main thread next runs Python code, which a main thread blocked
    reading stdin never does (a backend outlived its client that way). The main thread only waits here, a bounded
    time at a go, so the handler runs within SIGNAL_POLL_S whichever thread took the signal."""
    frames: queue.Queue[tuple[dict[str, Any] | FrameError, int] | None] = queue.Queue(FRAMES_AHEAD)

    def read() -> None:
        try:
            while (message := reader.read()) is not None:
                frames.put((message, reader.last_size))
                if isinstance(message, dict) and message.get("method") == "exit":
                    break
        finally:
            frames.put(None)

    # a daemon: after `exit` or a signal it may still be blocked reading, and must not hold the process up
    threading.Thread(target=read, name="chainlab-rpc-reader", daemon=True).start()
    while True:
        try:
            message = frames.get(timeout=SIGNAL_POLL_S)
        except queue.Empty:
            continue
        if message is None:
            return
        yield message


def serve(rfile: BinaryIO, wfile: BinaryIO) -> None:
    """Answers the frames of rfile on wfile until end of input or `exit`; a bad frame is answered, not fatal."""
    writer = FrameWriter(wfile)
    reader = FrameReader(rfile)
    endpoint: Endpoint | None = None
    endpoint = Endpoint(Dispatcher(lambda: endpoint), writer.write, max_workers=2, inline=CHEAP_METHODS)
    interrupt.start_serving()
    try:
        exited = False
        for message, size in _frames(reader):
            if isinstance(message, FrameError):
                log.warning("%s", message.message)
                writer.write(message.reply())
            elif message.get("method") == "exit":
                if "id" in message:
                    writer.write({"jsonrpc": "2.0", "id": message["id"], "result": None})
                exited = True
                break
            else:
                endpoint.consume(message, size)
        if not exited:  # stdin ended without `exit`: the client is gone, nobody waits for the run
            interrupt.end()
    finally:
        # the work in flight (already told to stop on SIGTERM/SIGHUP/EOF) ends and replies with what it measured
        endpoint.shutdown()
        writer.close()


def _end_with_parent() -> None:
    """The backend ends (SIGTERM: stop, keep what was measured) when the process that started it dies, even by
    SIGKILL; CHAINLAB_PARENT_PID, set by the client, catches a parent that died before the prctl. Children get
    this process's pid in CHAINLAB_PARENT_PID for their own check (the C runtime, the hog, the throttler)."""
    if sys.platform.startswith("linux"):
        pr_set_pdeathsig = 1
        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None, use_errno=True).prctl(pr_set_pdeathsig, int(signal.SIGTERM), 0, 0, 0)
    parent = os.environ.get("CHAINLAB_PARENT_PID", "")
    if parent.isdigit() and int(parent) != os.getppid():
        log.warning("the client (pid %s) is gone: exiting", parent)
        sys.exit(1)
    os.environ["CHAINLAB_PARENT_PID"] = str(os.getpid())


def main() -> None:
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr, format="chainlab-backend: %(levelname)s: %(message)s")
    # Ctrl-C stops a run but keeps what it measured; SIGTERM/SIGHUP too, then the backend exits
    interrupt.install()
    try:
        _end_with_parent()
        load_method_modules()
        # the frames are read on a daemon thread (_frames), from a reader of their own: at exit Python would wait
        # for sys.stdin's lock, held by that thread's read, and abort the process
        serve(os.fdopen(os.dup(sys.stdin.fileno()), "rb"), sys.stdout.buffer)
    except interrupt.Terminated as t:
        interrupt.ignore_from_now()
        sys.exit(128 + t.signum)


if __name__ == "__main__":
    main()
