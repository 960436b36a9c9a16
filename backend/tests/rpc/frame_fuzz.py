"""Hostile input for the backend's framing (hypothesis strategies) and the check of one case, shared by the
fuzz test (tests/rpc/test_framing_fuzz.py, a few hundred cases) and bench/rpc/fuzz_framing.py (10,000+)."""

from __future__ import annotations

import io
import json
import threading
import tracemalloc
from typing import Any

from hypothesis import strategies as st

from chainlab.rpc.framing import FrameReader
from chainlab.rpc.server import serve

#: Methods safe to call many times in a fuzz run (no build, no measurement).
METHODS = ["backend/version", "ir/validate", "no/such", "shutdown", "$/cancelRequest", "exit", "ptts/analyze"]
SENTINEL_ID = "sentinel"

json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
    max_leaves=12,
)
# bytes that cannot form a header by accident (no ':'), so the case's own frames decide what is read
garbage = st.binary(max_size=200).map(lambda b: b.replace(b":", b";"))


def _frame(body: bytes, length: bytes | None = None) -> bytes:
    return b"Content-Length: " + (b"%d" % len(body) if length is None else length) + b"\r\n\r\n" + body


@st.composite
def messages(draw: st.DrawFn) -> bytes:
    message: dict[str, Any] = {"jsonrpc": draw(st.sampled_from(["2.0", "2.0", "1.0"])), "method": "x"}
    message["method"] = draw(st.sampled_from(METHODS) | st.text(max_size=10) | st.integers())
    if draw(st.booleans()):
        message["id"] = draw(st.integers(-5, 50) | st.text(max_size=5) | st.none() | st.booleans())
    if draw(st.booleans()):
        message["params"] = draw(json_values)
    if message["method"] == "exit":
        message["method"] = "shutdown"  # exit ends the case early: the sentinel would go unanswered
    return json.dumps(message).encode()


bad_lengths = st.sampled_from([b"abc", b"-5", b"-0", b"1e3", b"0x10", b"", b" ", b"10 20", b"\xff"]) | st.integers(
    64 * 1024 * 1024 + 1, 10**30
).map(lambda n: b"%d" % n)

chunks = st.one_of(
    messages().map(_frame),
    json_values.map(lambda v: _frame(json.dumps(v).encode())),
    garbage.map(_frame),
    st.tuples(garbage, bad_lengths).map(lambda t: _frame(t[0], t[1])),
    garbage,
    st.sampled_from([b"\r\n", b"\n", b"\r\n\r\n", b"Content-Type: x\r\n\r\n", b"content-length: 2\r\n\r\n{}"]),
)
cases = st.lists(chunks, max_size=8).map(b"".join)


def sentinel() -> bytes:
    return b"\r\n" + _frame(json.dumps({"jsonrpc": "2.0", "id": SENTINEL_ID, "method": "backend/version"}).encode())


def replies(data: bytes) -> list[dict[str, Any]]:
    """The messages a FrameReader finds in data (bad frames left out)."""
    reader = FrameReader(io.BytesIO(data))
    found: list[dict[str, Any]] = []
    while (message := reader.read()) is not None:
        if isinstance(message, dict):
            found.append(message)
    return found


def check_case(data: bytes, timeout_s: float = 10.0, memory_limit: int = 32 * 1024 * 1024) -> None:
    """Serves `data` then a sentinel request: the server ends, answers the sentinel exactly once, answers no
    request more often than it was sent, and its traced memory stays under memory_limit."""
    out = io.BytesIO()
    out.close = lambda: None  # type: ignore[method-assign]  # serve() closes its output; the test reads it after
    tracemalloc.start()
    try:
        worker = threading.Thread(target=serve, args=(io.BytesIO(data + sentinel()), out), daemon=True)
        worker.start()
        worker.join(timeout_s)
        assert not worker.is_alive(), "the server did not finish its input"
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < memory_limit, f"peak traced memory {peak} B"
    answered = replies(out.getvalue())
    ids = [m["id"] for m in answered if "id" in m and m["id"] is not None]
    assert ids.count(SENTINEL_ID) == 1, answered[-3:]
    sent = replies(data)  # what a correct reader finds in the input: each request answered at most that often
    for msg_id in set(ids) - {SENTINEL_ID}:
        assert ids.count(msg_id) <= sum(1 for m in sent if m.get("id") == msg_id and "method" in m), msg_id
    for m in answered:
        assert m.get("error", {}).get("code") != -32603, m  # an internal error is a bug, whatever the input
