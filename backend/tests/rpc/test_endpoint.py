"""chainlab.rpc.endpoint: one answer per request, cancellation of work not started, unexpected failures as one
line (no traceback on the wire), a result JSON cannot carry (NaN) as an error naming the method and the field."""

from __future__ import annotations

import io
import math
import threading
from typing import Any

from chainlab.rpc.endpoint import BUSY, INTERNAL_ERROR, METHOD_NOT_FOUND, REQUEST_CANCELLED, Endpoint, RpcError
from chainlab.rpc.framing import FrameReader, FrameWriter


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


def test_a_result_holding_nan_is_an_error_naming_the_field() -> None:
    """The client names the method ("the backend failed in ptts/explore: its reply was not sent: ..."), once."""
    out = io.BytesIO()
    ep = Endpoint(lambda method, params: lambda: {"points": [{"p99_ms": math.nan}]}, FrameWriter(out).write)
    ep.consume({"jsonrpc": "2.0", "id": 7, "method": "ptts/explore"})
    ep.shutdown()
    reply = FrameReader(io.BytesIO(out.getvalue())).read()
    assert reply == {
        "jsonrpc": "2.0",
        "id": 7,
        "error": {
            "code": INTERNAL_ERROR,
            "message": "its reply was not sent: result.points[0].p99_ms is NaN, which JSON cannot carry",
        },
    }


def test_requests_beyond_the_bound_are_refused_busy_and_inline_methods_answered_at_once() -> None:
    release, started = threading.Event(), threading.Event()

    def dispatch(method: str, params: Any) -> Any:
        if method == "version":
            return lambda: "v"

        def work() -> str:
            started.set()
            release.wait(10)
            return method

        return work

    sent: list[dict[str, Any]] = []
    ep = Endpoint(dispatch, sent.append, max_workers=1, max_pending=3, inline=frozenset({"version"}))
    for msg_id in range(5):  # one runs, two wait, two are refused
        ep.consume({"jsonrpc": "2.0", "id": msg_id, "method": "slow"})
    started.wait(10)
    ep.consume({"jsonrpc": "2.0", "id": "v", "method": "version"})
    answered_early = list(sent)
    release.set()
    ep.shutdown()
    assert answered_early == [
        {
            "jsonrpc": "2.0",
            "id": 3,
            "error": {"code": BUSY, "message": "busy: 3 requests pending; send it again later"},
        },
        {
            "jsonrpc": "2.0",
            "id": 4,
            "error": {"code": BUSY, "message": "busy: 3 requests pending; send it again later"},
        },
        {"jsonrpc": "2.0", "id": "v", "result": "v"},
    ]
    assert sorted(m["id"] for m in sent[3:]) == [0, 1, 2] and all(m["result"] == "slow" for m in sent[3:])


def test_requests_beyond_the_byte_bound_are_refused_busy_but_one_alone_is_always_taken() -> None:
    release, answered = threading.Event(), threading.Event()
    sent: list[dict[str, Any]] = []

    def send(message: dict[str, Any]) -> None:
        sent.append(message)
        answered.set()

    ep = Endpoint(lambda method, params: lambda: release.wait(10) and method, send, max_pending_bytes=100)
    ep.consume({"jsonrpc": "2.0", "id": 1, "method": "big"}, size=150)  # alone: taken, whatever its size
    ep.consume({"jsonrpc": "2.0", "id": 2, "method": "small"}, size=10)
    assert sent == [
        {
            "jsonrpc": "2.0",
            "id": 2,
            "error": {"code": BUSY, "message": "busy: 1 requests of 150 bytes pending; send it again later"},
        }
    ]
    answered.clear()
    release.set()
    assert answered.wait(10) and sent[-1] == {"jsonrpc": "2.0", "id": 1, "result": "big"}
    ep.consume({"jsonrpc": "2.0", "id": 3, "method": "after"}, size=90)  # the big one's bytes were given back
    ep.shutdown()
    assert sent[-1] == {"jsonrpc": "2.0", "id": 3, "result": "after"}
