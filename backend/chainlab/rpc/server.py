"""JSON-RPC 2.0 over stdio (LSP-style Content-Length framing), the interface the CLI and the language server share.

Requests run in a worker pool so that a long analysis does not block
cancellation or other requests; `$/cancelRequest` cancels requests that have
not started. Progress goes out as `progress` notifications.
"""

from __future__ import annotations

import contextlib
import ctypes
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import Any, BinaryIO

from pylsp_jsonrpc.endpoint import Endpoint
from pylsp_jsonrpc.exceptions import JsonRpcException, JsonRpcInvalidParams
from pylsp_jsonrpc.streams import JsonRpcStreamReader, JsonRpcStreamWriter

from chainlab.errors import ChainlabError
from chainlab.progress import ProgressFn
from chainlab.rpc.context import RequestContext
from chainlab.rpc.contract import ERROR_CODES, ContractMismatch
from chainlab.rpc.methods import METHODS, load_method_modules
from chainlab.run import interrupt

log = logging.getLogger("chainlab.rpc")

#: JSON-RPC error code for errors in the user's model (contract/schemas/errors.json).
MODEL_ERROR_CODE = ERROR_CODES["MODEL_ERROR"]


class ModelErrorResponse(JsonRpcException):
    CODE = MODEL_ERROR_CODE
    MESSAGE = "model error"


class ContractMismatchResponse(JsonRpcException):
    CODE = ERROR_CODES["CONTRACT_MISMATCH"]
    MESSAGE = "contract mismatch"


class Dispatcher:
    """Maps method names to handlers; handlers return callables so the endpoint runs them in its pool."""

    def __init__(self, endpoint_ref: Callable[[], Endpoint | None], on_exit: Callable[[], None]):
        self._endpoint_ref = endpoint_ref
        self._on_exit = on_exit

    def __getitem__(self, method: str) -> Callable[[Any], Any]:
        if method == "shutdown":
            return lambda _params: None
        if method == "exit":
            return lambda _params: self._on_exit()
        handler = METHODS[method]  # KeyError → method not found

        def run(params: Any) -> Callable[[], Any]:
            if params is not None and not isinstance(params, dict):
                raise JsonRpcInvalidParams(message=f"{method}: params must be an object")
            params = dict(params or {})
            context = RequestContext(self._progress(params.pop("progressToken", None)))

            def work() -> Any:
                try:
                    return handler(params, context)
                except ChainlabError as error:
                    raise ModelErrorResponse(message=str(error), data=error.to_json()) from error
                except ContractMismatch as error:
                    raise ContractMismatchResponse(message=str(error), data=error.data) from error

            return work

        return run

    def _progress(self, token: Any) -> ProgressFn | None:
        """`progress` notifications carrying the client's token; None when it sent none."""
        endpoint = self._endpoint_ref()
        if token is None or endpoint is None:
            return None

        def notify(fraction: float, message: str = "") -> None:
            endpoint.notify("progress", {"token": token, "fraction": fraction, "message": message})

        return notify


def serve(rfile: BinaryIO, wfile: BinaryIO) -> None:
    stop = threading.Event()
    endpoint: Endpoint | None = None
    writer = JsonRpcStreamWriter(wfile)
    reader = JsonRpcStreamReader(rfile)

    def on_exit() -> None:
        stop.set()
        reader.close()

    endpoint = Endpoint(Dispatcher(lambda: endpoint, on_exit), writer.write, max_workers=2)
    try:
        reader.listen(endpoint.consume)
        if not stop.is_set():  # stdin ended without `exit`: the client is gone, nobody waits for the run
            interrupt.stop_all()
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
        serve(sys.stdin.buffer, sys.stdout.buffer)
    except interrupt.Terminated as t:
        sys.exit(128 + t.signum)


if __name__ == "__main__":
    main()
