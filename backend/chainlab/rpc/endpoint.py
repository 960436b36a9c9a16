"""JSON-RPC 2.0 requests to handlers: a worker pool runs them, each request is answered exactly once.

The reader hands over one checked message at a time (chainlab.rpc.framing); a request is answered with its
result or an error, never twice and never for another request's id. `$/cancelRequest` cancels a request that
has not started; `exit` ends the loop. Errors the handlers do not expect reach the client as one line
(INTERNAL_ERROR) and the log, never as a traceback on the wire. The pending requests are bounded in number
(MAX_PENDING) and in the bytes of their frames (MAX_PENDING_BYTES): beyond either a request is answered BUSY at once;
cheap methods bypass the queue.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from concurrent import futures
from typing import Any

from chainlab.rpc.contract import ERROR_CODES

log = logging.getLogger("chainlab.rpc")

METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
REQUEST_CANCELLED = -32800
BUSY = ERROR_CODES["BACKEND_BUSY"]

#: Requests accepted and not yet answered (running or waiting for a worker) beyond which new ones are refused: a
#: client that floods the backend gets errors at once instead of the backend growing without bound.
MAX_PENDING = 1000
#: The frames of the pending requests together: each holds its params (an IR of up to 64 MiB) in memory, so a thousand
#: large ones would need tens of GB. A request is always accepted when nothing is pending, whatever its size.
MAX_PENDING_BYTES = 256 * 1024 * 1024


class RpcError(Exception):
    """A request refused with a JSON-RPC error code (and optional data)."""

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_json(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


#: method, params -> the work to run in the pool (raises RpcError to refuse the request at once).
Dispatch = Callable[[str, Any], Callable[[], Any]]


def _run_now(work: Callable[[], Any]) -> futures.Future[Any]:
    """work() run on this thread, as a finished future (answered as the pool's are)."""
    future: futures.Future[Any] = futures.Future()
    try:
        future.set_result(work())
    except Exception as error:  # a signal's BaseException (the server's Terminated) goes on up
        future.set_exception(error)
    return future


class Endpoint:
    """Runs requests in a pool of `max_workers`; at most `max_pending` wait or run at a time, the rest are refused
    (BUSY) at once. Methods in `inline` (cheap ones such as the version handshake) are answered on the caller's
    thread as they arrive, ahead of the work already queued."""

    def __init__(
        self,
        dispatch: Dispatch,
        send: Callable[[dict[str, Any]], None],
        max_workers: int = 2,
        *,
        max_pending: int = MAX_PENDING,
        max_pending_bytes: int = MAX_PENDING_BYTES,
        inline: frozenset[str] = frozenset(),
    ) -> None:
        self._dispatch = dispatch
        self._send = send
        self._pool = futures.ThreadPoolExecutor(max_workers=max_workers)
        self._pending: dict[Any, tuple[futures.Future[Any], int]] = {}
        self._pending_bytes = 0
        self._lock = threading.Lock()
        self._max_pending = max_pending
        self._max_pending_bytes = max_pending_bytes
        self._inline = inline

    def notify(self, method: str, params: Any) -> None:
        self._send({"jsonrpc": "2.0", "method": method, "params": params})

    def consume(self, message: dict[str, Any], size: int = 0) -> None:
        """One checked message (chainlab.rpc.framing.message_problem): a request, a notification or a response;
        `size`: the bytes of its frame's body."""
        method = message.get("method")
        if method is None:
            return  # a response: the backend sends no requests
        if "id" not in message:
            if method == "$/cancelRequest":
                self._cancel(message.get("params"))
            return  # `exit` is the server's; other notifications have no handler
        self._request(message["id"], method, message.get("params"), size)

    def _request(self, msg_id: Any, method: str, params: Any, size: int) -> None:
        try:
            work = self._dispatch(method, params)
        except RpcError as error:
            self._reply(msg_id, error=error)
            return
        if method in self._inline:
            self._finished(msg_id, _run_now(work))
            return
        with self._lock:
            busy = self._busy(size)
            future = None if busy else self._pool.submit(work)
            if future is not None:
                self._pending[msg_id] = (future, size)
                self._pending_bytes += size
        if future is None:  # each waiting request holds its params in memory: refused rather than queued
            self._reply(msg_id, error=RpcError(BUSY, f"busy: {busy}; send it again later"))
            return
        future.add_done_callback(lambda done: self._finished(msg_id, done))

    def _busy(self, size: int) -> str | None:
        """Why a request of `size` bytes cannot be queued now (called with the lock held), or None."""
        if len(self._pending) >= self._max_pending:
            return f"{len(self._pending)} requests pending"
        if self._pending and self._pending_bytes + size > self._max_pending_bytes:
            held = (
                f"{self._pending_bytes / 2**20:.0f} MiB"
                if self._pending_bytes >= 2**20
                else f"{self._pending_bytes} bytes"
            )
            return f"{len(self._pending)} requests of {held} pending"
        return None

    def _finished(self, msg_id: Any, future: futures.Future[Any]) -> None:
        with self._lock:
            entry = self._pending.get(msg_id)
            if entry is not None and entry[0] is future:
                del self._pending[msg_id]
                self._pending_bytes -= entry[1]
        if future.cancelled():
            self._reply(msg_id, error=RpcError(REQUEST_CANCELLED, "the request was cancelled"))
            return
        error = future.exception()
        if error is None:
            self._reply(msg_id, result=future.result())
        elif isinstance(error, RpcError):
            self._reply(msg_id, error=error)
        else:
            log.error("%s", error, exc_info=error)  # the log keeps the traceback, the client gets one line
            self._reply(msg_id, error=RpcError(INTERNAL_ERROR, f"internal error: {type(error).__name__}: {error}"))

    def _cancel(self, params: Any) -> None:
        msg_id = params.get("id") if isinstance(params, dict) else None
        with self._lock:
            entry = self._pending.get(msg_id)
        if entry is not None:
            entry[0].cancel()  # only a request that has not started; a running one finishes

    def _reply(self, msg_id: Any, *, result: Any = None, error: RpcError | None = None) -> None:
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": msg_id}
        if error is not None:
            reply["error"] = error.to_json()
        else:
            reply["result"] = result
        try:
            self._send(reply)
        except (TypeError, ValueError) as bad:  # a result JSON cannot carry (NaN: the field's path): still one answer
            # clients name the method of a failed request themselves: "failed in ptts/explore: its reply was not sent"
            what = f"its reply was not sent: {bad}"
            self._send({"jsonrpc": "2.0", "id": msg_id, "error": RpcError(INTERNAL_ERROR, what).to_json()})

    def shutdown(self) -> None:
        """Waits for the requests already accepted: each still gets its answer."""
        self._pool.shutdown(wait=True)
