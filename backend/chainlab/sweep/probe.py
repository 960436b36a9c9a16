"""Is this address a Dask scheduler? Asked once, within CONNECT_TIMEOUT_S, before a Client is made for it.

distributed's own connect reads the peer's handshake without a time-out (a port that accepts and never answers
hangs it) and takes the first 8 bytes of any reply for a frame length (an HTTP server's "HTTP/1.1" asks for
3 EiB: MemoryError). Here the handshake and an `identity` request run under one time-out, and anything that goes
wrong in them is a one-line reason.
"""

from __future__ import annotations

import asyncio
import os
import socket
import time
from typing import Any

from distributed.comm import connect
from distributed.comm.addressing import parse_address, parse_host_port
from distributed.security import Security

from chainlab.errors import ModelError

CONNECT_TIMEOUT_S = 5.0  # a scheduler answers in milliseconds on a LAN; also the Client's connect time-out


class NotAScheduler(ModelError):
    """The address is reachable but what answers there is not a Dask scheduler (or nothing answers)."""


#: The schemes a scheduler on another machine is reached by (distributed's own; ucx/ws need extra packages).
SCHEMES = ("tcp", "tls")


def connection_args(address: str) -> dict[str, Any]:
    """What distributed needs to connect to `address`: for tls://, the TLS settings of Dask's own configuration
    (the same ones the Client takes). Raises ModelError for another scheme or a tls:// address without them."""
    scheme = parse_address(address, strict=False)[0] if "://" in address else "tcp"
    if scheme not in SCHEMES:
        raise ModelError(f"{address}: a Dask scheduler address is tcp://HOST:PORT or tls://HOST:PORT, not {scheme}://")
    args = Security().get_connection_args("client")
    if scheme == "tls" and args.get("ssl_context") is None:
        raise ModelError(
            f"{address}: a tls:// scheduler needs Dask's TLS settings (distributed.comm.tls.ca-file, "
            "distributed.comm.tls.client.cert and .key in the Dask configuration, or the "
            "DASK_DISTRIBUTED__COMM__TLS__* environment variables); none are set"
        )
    return args


async def _identity(address: str, timeout: float) -> dict[str, Any]:
    comm = await connect(address, timeout=timeout, **connection_args(address))
    try:
        await comm.write({"op": "identity", "reply": True})
        reply = await comm.read()
    finally:
        comm.abort()
    return reply if isinstance(reply, dict) else {"type": type(reply).__name__}


async def _ask(address: str, timeout: float) -> dict[str, Any]:
    # the outer bound is a little longer than connect's own: a refused port is then "cannot reach" (connect's
    # OSError), a silent one is the time-out here
    return await asyncio.wait_for(_identity(address, timeout), timeout + 0.5)


def check_scheduler(address: str, timeout: float = CONNECT_TIMEOUT_S) -> None:
    """Returns when a Dask scheduler answers at `address`; raises ModelError (not reachable) or NotAScheduler
    (something else answers, or nothing does within `timeout` seconds), each one line with the reason."""
    connection_args(address)  # a scheme or TLS settings that cannot work are refused before anything is tried
    start = time.monotonic()
    try:
        info = asyncio.run(_ask(address, timeout))
    except TimeoutError:
        raise _silent(address, timeout) from None
    except OSError:
        why = _unreachable(address)
        if why is None and time.monotonic() - start >= timeout:  # a TLS handshake that never ends: connect's time-out
            raise _silent(address, timeout) from None
        if why is None:  # TCP is fine: the peer hung up instead of answering
            raise NotAScheduler(
                f"{address} is not a Dask scheduler (it accepts connections but closes them without a Dask handshake)"
            ) from None
        raise ModelError(f"cannot reach the Dask scheduler at {address}: {why}") from None
    except Exception as e:  # what distributed raises reading a reply in another protocol (MemoryError, msgpack...)
        raise NotAScheduler(
            f"{address} is not a Dask scheduler (it answers in another protocol: reading its reply raised "
            f"{type(e).__name__})"
        ) from None
    kind = info.get("type")
    if kind != "Scheduler":
        raise NotAScheduler(f"{address} is not a Dask scheduler (it is a Dask {kind or 'server of unknown type'})")


def _silent(address: str, timeout: float) -> NotAScheduler:
    return NotAScheduler(
        f"{address} is not a Dask scheduler (it accepted the connection but sent no Dask handshake "
        f"within {timeout:g} s)"
    )


def _unreachable(address: str) -> str | None:
    """Why `address` cannot be reached by TCP, or None when it can. distributed retries a refused connection until
    its time-out and then says only that it timed out; one plain connection asks the system for the reason."""
    try:
        host, port = parse_host_port(parse_address(address)[1])
        socket.create_connection((host, port), timeout=1).close()
    except OSError as e:
        return os.strerror(e.errno) if e.errno else str(e) or type(e).__name__
    except ValueError as e:  # not HOST:PORT (a scheme without one)
        return str(e)
    return None
