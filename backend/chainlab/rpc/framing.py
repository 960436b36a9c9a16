"""LSP-style Content-Length framing of JSON-RPC over a byte stream, read defensively.

Each frame the reader returns is either a JSON-RPC message (a dict) or a FrameError to answer with id null;
nothing in a bad frame can make the reader return an earlier message again, read more than MAX_FRAME_BYTES
into memory or stop it reading the frames that follow. After a header it cannot trust (no, a non-numeric or
a too-large Content-Length) it does not know where the body ends: it drops bytes up to the next
`Content-Length:` header and goes on from there.
"""

from __future__ import annotations

import contextlib
import json
import re
import threading
from dataclasses import dataclass
from typing import Any, BinaryIO

from chainlab import finite_json

#: The largest body read into memory; a bigger frame is refused (the IR of a large model is a few MiB).
MAX_FRAME_BYTES = 64 * 1024 * 1024
#: A header line longer than this is not a header: it is dropped in pieces of this size.
MAX_HEADER_LINE = 8 * 1024
#: Header lines in one frame; more and the block is not a header.
MAX_HEADER_LINES = 32

PARSE_ERROR = -32700
INVALID_REQUEST = -32600

_CONTENT_LENGTH = re.compile(rb"content-length:", re.IGNORECASE)


@dataclass(frozen=True)
class FrameError:
    """A frame that is not a JSON-RPC message: answered with this code and message, id null."""

    code: int
    message: str

    def reply(self) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": None, "error": {"code": self.code, "message": self.message}}


def _shown(value: bytes, limit: int = 40) -> str:
    """A short printable quote of untrusted bytes for an error message."""
    text = value[:limit].decode("ascii", errors="replace")
    text = "".join(c if c.isprintable() else "?" for c in text)
    return text + ("..." if len(value) > limit else "")


def _not_json(constant: str) -> Any:
    """Python's json reads NaN, Infinity and -Infinity, which are not JSON: a request holding one is refused."""
    raise ValueError(f"{constant} is not JSON (numbers are finite)")


def message_problem(message: Any) -> str | None:
    """Why a decoded body is not a JSON-RPC 2.0 request, notification or response; None when it is one."""
    if not isinstance(message, dict):
        return f"a message must be a JSON object, not {type(message).__name__ if message is not None else 'null'}"
    if message.get("jsonrpc") != "2.0":
        return 'a message must carry "jsonrpc": "2.0"'
    if "method" in message and not isinstance(message["method"], str):
        return "method must be a string"
    if "id" in message and (isinstance(message["id"], bool) or not isinstance(message["id"], str | int | None)):
        return "id must be a string, an integer or null"
    if "method" not in message and "id" not in message:
        return "a message needs a method or an id"
    return None


class FrameReader:
    """Reads frames from `rfile` until end of input or close()."""

    def __init__(self, rfile: BinaryIO, max_bytes: int = MAX_FRAME_BYTES) -> None:
        self._rfile = rfile
        self._max_bytes = max_bytes
        self._closed = False
        self._pending: bytes | None = None  # a header line found inside dropped bytes
        self.last_size = 0  # the body bytes of the frame read last (what a queued request holds in memory)

    def close(self) -> None:
        self._closed = True

    def _line(self) -> bytes:
        if self._pending is not None:
            line, self._pending = self._pending, None
            return line
        return self._rfile.readline(MAX_HEADER_LINE)

    def _resync(self) -> bool:
        """Drops bytes up to the next line holding `Content-Length:` (kept for the next header); False at EOF."""
        while not self._closed:
            line = self._rfile.readline(MAX_HEADER_LINE)
            if not line:
                return False
            found = _CONTENT_LENGTH.search(line)
            if found:
                self._pending = line[found.start() :]
                return True
        return False

    def read(self) -> dict[str, Any] | FrameError | None:
        """The next message, or the error to answer for a bad frame; None at end of input (or after close)."""
        if self._closed:
            return None
        headers: list[bytes] = []
        while True:
            line = self._line()
            if not line:
                return None
            if not line.strip():
                if headers:
                    break
                continue  # blank lines between frames
            found = _CONTENT_LENGTH.search(line)
            if found and found.start() > 0:
                line = line[found.start() :]  # the rest of a dropped body glued to the next header
            if not line.endswith(b"\n") or len(headers) >= MAX_HEADER_LINES:
                if found and line.endswith(b"\n"):  # the header after too many lines starts the next frame
                    self._pending = line
                    return FrameError(PARSE_ERROR, f"bad frame: more than {MAX_HEADER_LINES} header lines")
                return self._after_bad_header(f"header line too long or too many header lines: {_shown(line)}")
            headers.append(line)
        length = self._content_length(headers)
        if isinstance(length, str):
            return self._after_bad_header(length)
        body = self._rfile.read(length) if length else b""
        if len(body) < length:
            return None  # input ended inside the body
        self.last_size = length
        return self._decode(body)

    def _after_bad_header(self, reason: str) -> FrameError:
        # the body's length is unknown: skip to the next header rather than read the body as headers
        self._resync()
        return FrameError(PARSE_ERROR, f"bad frame: {reason}")

    def _content_length(self, headers: list[bytes]) -> int | str:
        """The body's length, or why the header gives none that can be trusted."""
        value: bytes | None = None
        for line in headers:
            name, sep, rest = line.partition(b":")
            if sep and name.strip().lower() == b"content-length":
                value = rest.strip()
        if value is None:
            return f"no Content-Length header in {_shown(b' '.join(h.strip() for h in headers))}"
        if not value.isdigit() or not value.isascii():
            return f"Content-Length must be a non-negative decimal integer, not '{_shown(value)}'"
        if len(value) > 12 or int(value) > self._max_bytes:
            return f"Content-Length {_shown(value)} is over the limit of {self._max_bytes} bytes"
        return int(value)

    @staticmethod
    def _decode(body: bytes) -> dict[str, Any] | FrameError:
        try:
            message = json.loads(body.decode("utf-8"), parse_constant=_not_json)
        except (UnicodeDecodeError, ValueError, RecursionError) as error:
            return FrameError(PARSE_ERROR, f"the body is not UTF-8 JSON: {error}"[:200])
        problem = message_problem(message)
        if problem is not None:
            return FrameError(INVALID_REQUEST, f"invalid request: {problem}")
        assert isinstance(message, dict)
        return message


class FrameWriter:
    """Writes messages as frames; safe from several threads; a closed or broken output drops them."""

    def __init__(self, wfile: BinaryIO) -> None:
        self._wfile = wfile
        self._lock = threading.Lock()

    def write(self, message: dict[str, Any]) -> None:
        """Sends `message` as one frame; NonFiniteNumber (a ValueError naming the field) for NaN or Infinity in
        it, which would reach the client as a body no JSON parser reads: nothing is sent then."""
        body = finite_json.dumps(message).encode("ascii")  # \u escapes: a lone surrogate cannot break the frame
        with self._lock:
            if self._wfile.closed:
                return
            try:
                self._wfile.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
                self._wfile.flush()
            except (OSError, ValueError):
                pass  # the client is gone: nobody to tell

    def close(self) -> None:
        with self._lock, contextlib.suppress(OSError):
            self._wfile.close()
