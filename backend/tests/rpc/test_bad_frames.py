"""Bad frames sent to the backend as a real process: each is answered (or dropped), none re-runs an earlier
request, none kills the backend, and the next frame is served (issue 17: F19, F20)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rpc_client import Client


def frame(body: bytes, length: bytes | None = None) -> bytes:
    return b"Content-Length: " + (length if length is not None else b"%d" % len(body)) + b"\r\n\r\n" + body


def request(msg_id: int, method: str = "backend/version") -> bytes:
    return frame(json.dumps({"jsonrpc": "2.0", "id": msg_id, "method": method, "params": {}}).encode())


def replies_until(client: Client, msg_id: int) -> list[dict[str, Any]]:
    """Every reply up to and including the one to msg_id."""
    seen = []
    while True:
        seen.append(client.receive())
        if seen[-1].get("id") == msg_id:
            return seen


def send_raw(client: Client, data: bytes) -> None:
    assert client.process.stdin
    client.process.stdin.write(data)
    client.process.stdin.flush()


BAD_FRAMES = {
    "non-numeric length": frame(b'{"jsonrpc": "2.0", "id": 7, "method": "backend/version"}', b"abc"),
    "negative length": frame(b'{"jsonrpc": "2.0", "id": 7, "method": "backend/version"}', b"-5"),
    "huge length": frame(b"{}", b"1000000000000"),
    "body 1": frame(b"1"),
    "body null": frame(b"null"),
    "body array": frame(b"[]"),
    "invalid JSON": frame(b"{nope"),
    "not UTF-8": frame(b'{"a": "\xff"}'),
    "no jsonrpc": frame(b'{"id": 7, "method": "backend/version"}'),
    "empty body": frame(b""),
    "no Content-Length": b"Content-Type: x\r\n\r\n",
}


@pytest.mark.parametrize("name", list(BAD_FRAMES))
def test_bad_frame_is_answered_once_and_the_backend_keeps_serving(client: Client, name: str) -> None:
    send_raw(client, request(1) + BAD_FRAMES[name] + request(2))
    seen = replies_until(client, 2)
    assert [m.get("id") for m in seen] == [1, None, 2], seen  # id 1 once: never executed again
    assert seen[1]["error"]["code"] in (-32700, -32600)
    assert "result" in seen[2]
    assert client.close() == 0


def test_first_frame_bad_then_served(client: Client) -> None:
    send_raw(client, frame(b"{}", b"abc") + request(1))
    seen = replies_until(client, 1)
    assert [m.get("id") for m in seen] == [None, 1]
    assert client.close() == 0


def test_stderr_has_no_traceback(client: Client) -> None:
    send_raw(client, b"".join(BAD_FRAMES.values()) + request(9))
    replies_until(client, 9)
    assert client.close() == 0
    assert client.process.stderr
    assert b"Traceback" not in client.process.stderr.read()
