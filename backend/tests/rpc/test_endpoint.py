"""chainlab.rpc.endpoint: one answer per request, cancellation of work not started, unexpected failures as one
line (no traceback on the wire)."""

from __future__ import annotations

import threading
from typing import Any

from chainlab.rpc.endpoint import INTERNAL_ERROR, METHOD_NOT_FOUND, REQUEST_CANCELLED, Endpoint, RpcError


def endpoint(dispatch: Any, workers: int = 1) -> tuple[Endpoint, list[dict[str, Any]]]:
    sent: list[dict[str, Any]] = []
    lock = threading.Lock()

    def send(message: dict[str, Any]) -> None:
        with lock:
            sent.append(message)

    return Endpoint(dispatch, send, max_workers=workers), sent


def test_results_errors_and_unexpected_failures_are_answered_once() -> None:
    def dispatch(method: str, params: Any) -> Any:
        if method == "missing":
            raise RpcError(METHOD_NOT_FOUND, "no method")
        if method == "boom":
            return lambda: {}["key"]
        return lambda: params

    ep, sent = endpoint(dispatch)
    for msg_id, method in enumerate(["echo", "missing", "boom"]):
        ep.consume({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": {"n": msg_id}})
    ep.shutdown()
    by_id = {m["id"]: m for m in sent}
    assert len(sent) == 3
    assert by_id[0]["result"] == {"n": 0}
    assert by_id[1]["error"]["code"] == METHOD_NOT_FOUND
    assert by_id[2]["error"] == {"code": INTERNAL_ERROR, "message": "internal error: KeyError: 'key'"}


def test_cancel_answers_a_waiting_request_as_cancelled() -> None:
    release = threading.Event()
    started = threading.Event()

    def dispatch(method: str, params: Any) -> Any:
        def work() -> str:
            started.set()
            release.wait(10)
            return method

        return work

    ep, sent = endpoint(dispatch)
    ep.consume({"jsonrpc": "2.0", "id": 1, "method": "slow"})
    started.wait(10)
    ep.consume({"jsonrpc": "2.0", "id": 2, "method": "queued"})
    ep.consume({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": {"id": 2}})
    ep.consume({"jsonrpc": "2.0", "method": "$/cancelRequest", "params": "nonsense"})
    release.set()
    ep.shutdown()
    by_id = {m["id"]: m for m in sent}
    assert len(sent) == 2
    assert by_id[1]["result"] == "slow"
    assert by_id[2]["error"]["code"] == REQUEST_CANCELLED


def test_a_result_json_cannot_carry_is_still_one_answer() -> None:
    sent: list[dict[str, Any]] = []

    def send(message: dict[str, Any]) -> None:
        if "result" in message:
            raise TypeError("Object of type set is not JSON serializable")
        sent.append(message)

    ep = Endpoint(lambda method, params: lambda: {1, 2}, send)
    ep.consume({"jsonrpc": "2.0", "id": 7, "method": "m"})
    ep.shutdown()
    assert [m["id"] for m in sent] == [7] and sent[0]["error"]["code"] == INTERNAL_ERROR
