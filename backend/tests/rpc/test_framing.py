"""chainlab.rpc.framing on its own: limits, bad headers, bad bodies and how the reader finds the next frame."""

from __future__ import annotations

import io

from chainlab.rpc.framing import INVALID_REQUEST, PARSE_ERROR, FrameError, FrameReader, FrameWriter

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
