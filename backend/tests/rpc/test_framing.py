"""chainlab.rpc.framing on its own: limits, bad headers, bad bodies and how the reader finds the next frame; NaN and
Infinity, which are not JSON, refused in and out, on their own and through the real backend process (a resumed sweep
CSV holding a NaN ends its request with an error reply, not with a reply no client can read)."""

from __future__ import annotations

import io
import json
import math
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import pytest
from rpc_client import Client

from chainlab.finite_json import NonFiniteNumber
from chainlab.rpc.framing import INVALID_REQUEST, PARSE_ERROR, FrameError, FrameReader, FrameWriter

GOLDEN = Path(__file__).resolve().parents[3] / "tests" / "golden" / "samples"
OK = b'{"jsonrpc": "2.0", "id": 1, "method": "m"}'


def frame(body: bytes, length: bytes | None = None) -> bytes:
    return b"Content-Length: " + (b"%d" % len(body) if length is None else length) + b"\r\n\r\n" + body


def read_all(data: bytes, max_bytes: int = 1024) -> list[object]:
    reader = FrameReader(io.BytesIO(data), max_bytes)
    found = []
    while (item := reader.read()) is not None:
        found.append(item)
    return found


def codes(items: list[object]) -> list[object]:
    return [i.code if isinstance(i, FrameError) else i["id"] for i in items]  # type: ignore[index]


def test_good_frames_with_other_headers_and_blank_lines() -> None:
    data = b"\r\n" + b"Content-Type: x\r\ncontent-length: %d\r\n\r\n" % len(OK) + OK + frame(OK)
    assert codes(read_all(data)) == [1, 1]


def test_the_reader_tells_the_size_of_the_frame_it_read() -> None:
    """The endpoint bounds the bytes its pending requests hold by these sizes."""
    bigger = b'{"jsonrpc": "2.0", "id": 2, "method": "m", "params": {"pad": "' + b"x" * 100 + b'"}}'
    reader = FrameReader(io.BytesIO(frame(OK) + frame(bigger)), 1024)
    sizes = []
    for _ in range(2):
        reader.read()
        sizes.append(reader.last_size)
    assert sizes == [len(OK), len(bigger)]


def test_bad_lengths_are_errors_and_the_next_frame_is_read() -> None:
    for bad in (b"abc", b"-5", b"", b"0x10", b"1e3", b"2000", b"99999999999999999999999"):
        items = read_all(frame(OK, bad) + frame(OK))
        assert codes(items) == [PARSE_ERROR, 1], bad
        assert "Content-Length" in items[0].message  # type: ignore[union-attr]


def test_over_the_limit_is_refused_before_reading_the_body() -> None:
    items = read_all(frame(b"x" * 2000) + frame(OK))
    assert codes(items) == [PARSE_ERROR, 1]
    assert "over the limit of 1024 bytes" in items[0].message  # type: ignore[union-attr]


def test_bodies_that_are_no_message() -> None:
    bodies = [b"1", b"null", b"[]", b'"x"', b"{", b"\xff", b"", b'{"id": 1}', b'{"jsonrpc": "2.0"}']
    items = read_all(b"".join(frame(b) for b in bodies))
    assert codes(items) == [INVALID_REQUEST] * 4 + [PARSE_ERROR] * 3 + [INVALID_REQUEST] * 2


def test_deep_nesting_and_huge_numbers_are_parse_errors() -> None:
    assert codes(read_all(frame(b"[" * 100_000) + frame(b"1" * 5000, None))) == [PARSE_ERROR, PARSE_ERROR]


def test_garbage_glued_to_a_header_and_overlong_lines() -> None:
    data = b"garbage" + frame(OK) + b"x" * 20_000 + b"\r\n\r\n" + frame(OK)
    assert codes(read_all(data)) == [1, PARSE_ERROR, 1]


def test_too_many_header_lines_then_a_frame() -> None:
    assert codes(read_all(b"X-A: 1\r\n" * 40 + frame(OK))) == [PARSE_ERROR, 1]


def test_truncated_body_is_end_of_input() -> None:
    assert read_all(frame(OK)[:-3]) == []


def test_writer_frames_and_survives_a_closed_output() -> None:
    out = io.BytesIO()
    writer = FrameWriter(out)
    writer.write({"a": "é"})
    assert out.getvalue() == b'Content-Length: 15\r\n\r\n{"a": "\\u00e9"}'
    writer.close()
    writer.write({"b": 1})  # dropped, no exception


def test_nan_and_infinity_are_refused_both_ways() -> None:
    # in: Python's json would read them; a request holding one is a parse error
    bodies = [b'{"jsonrpc": "2.0", "id": 1, "method": "m", "params": {"x": %s}}' % c for c in (b"NaN", b"-Infinity")]
    items = read_all(b"".join(frame(b) for b in bodies) + frame(OK))
    assert codes(items) == [PARSE_ERROR, PARSE_ERROR, 1]
    assert "NaN is not JSON" in items[0].message  # type: ignore[union-attr]
    # out: nothing is sent, and the error names the field
    out = io.BytesIO()
    with pytest.raises(NonFiniteNumber, match=r"^result\.points\[1\]\.p99_ms is Infinity, which JSON cannot carry$"):
        FrameWriter(out).write({"jsonrpc": "2.0", "id": 3, "result": {"points": [{}, {"p99_ms": math.inf}]}})
    assert out.getvalue() == b""


@pytest.fixture()
def client() -> Iterator[Client]:
    c = Client()
    yield c
    if c.process.poll() is None:
        c.process.kill()
    c.process.communicate()


def _within(timeout: float, client: Client, call: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """`call`'s reply, or a failed test after `timeout` s (the backend is killed then, which ends the read)."""
    with ThreadPoolExecutor(1) as pool:
        reply = pool.submit(call)
        try:
            return reply.result(timeout)
        except TimeoutError:
            client.process.kill()
            pytest.fail(f"no reply within {timeout} s")


def test_a_resumed_sweep_csv_holding_nan_ends_with_an_error_reply(client: Client, tmp_path: Path) -> None:
    ir = json.loads((GOLDEN / "ptts" / "case-study.ir.json").read_text())
    out = tmp_path / "sweep.csv"
    params = {"ir": ir, "ptts": "ConfigE", "vary": ["Wall"], "step_ns": 4_000_000, "out": str(out)}
    assert "result" in _within(120, client, lambda: client.request("ptts/explore", params))
    lines = out.read_text().splitlines()
    cells = lines[2].split(",")
    cells[lines[0].split(",").index("p99_ms")] = "NaN"
    out.write_text("\n".join([*lines[:2], ",".join(cells), *lines[3:]]) + "\n")
    reply = _within(60, client, lambda: client.request("ptts/explore", {**params, "resume": True}))
    assert "result" not in reply
    message = reply["error"]["message"]
    # refused where the reply is written (NaN, the field) or where the CSV is read (the file, the row)
    assert ("NaN" in message or str(out) in message) and "\n" not in message, message
    assert client.close() == 0


def test_the_backend_answers_a_request_holding_nan_with_a_parse_error(client: Client) -> None:
    assert client.process.stdin is not None
    body = b'{"jsonrpc": "2.0", "id": 1, "method": "backend/version", "params": {"x": NaN}}'
    client.process.stdin.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    client.process.stdin.flush()
    reply = _within(30, client, client.receive)
    assert reply["id"] is None and reply["error"]["code"] == PARSE_ERROR
    assert "NaN is not JSON" in reply["error"]["message"]
    assert client.close() == 0
