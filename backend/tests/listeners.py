"""Ports that are not what a client expects, for the connection tests: real listening sockets served by a thread.

- "silent": accepts every connection and never sends a byte (a hung server, a port that waits for the client);
- "http": answers whatever arrives with an HTTP 400 reply, as a web server answers bytes it cannot parse;
- "closing": accepts and closes at once;
- "banner": sends an SSH version line, then nothing (an sshd hung after its banner);
- "smtp": greets as a mail server does (a service that speaks first, but not SSH).
"""

from __future__ import annotations

import contextlib
import socket
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

GREETINGS = {"banner": b"SSH-2.0-OpenSSH_9.2p1 Debian-2\r\n", "smtp": b"220 lab ESMTP Postfix\r\n"}
HTTP_REPLY = b"HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nContent-Length: 11\r\n\r\nBad Request"


@dataclass
class Listening:
    """The port a listener serves and the connections it accepted so far (a client is waiting on it)."""

    port: int
    accepted: list[socket.socket] = field(default_factory=list)


@contextmanager
def listener(kind: str, host: str = "127.0.0.1") -> Iterator[Listening]:
    """A port on `host` that behaves as `kind` (see the module) while the `with` lasts."""
    if kind not in GREETINGS and kind not in ("silent", "http", "closing"):
        raise ValueError(f"no listener kind {kind!r}")
    server = socket.create_server((host, 0))
    listening = Listening(server.getsockname()[1])
    accepted = listening.accepted
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                conn, _ = server.accept()
            except OSError:
                return
            accepted.append(conn)  # kept open (silent) until the `with` ends
            if kind == "closing":
                conn.close()
            elif kind in GREETINGS:
                conn.sendall(GREETINGS[kind])
            elif kind == "http":
                threading.Thread(target=_answer_http, args=(conn,), daemon=True).start()

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield listening
    finally:
        stop.set()
        with contextlib.suppress(OSError):
            server.shutdown(socket.SHUT_RDWR)  # wakes the accept() of the thread
        server.close()
        thread.join(5)
        for conn in accepted:
            conn.close()


def _answer_http(conn: socket.socket) -> None:
    try:
        conn.settimeout(30)
        if conn.recv(65536):
            conn.sendall(HTTP_REPLY)
    except OSError:
        pass
