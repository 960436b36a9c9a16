"""Reaching an ssh target's port: every step within a stated time, every failure with its reason.

A TCP connection comes first (TCP_TIMEOUT_S), then the server's SSH banner (BANNER_TIMEOUT_S): a port that accepts
TCP but stays silent (not an sshd, a hung one) is named as such instead of surfacing as a bare time-out. What comes
after the banner (key exchange, login) is asyncssh's, bounded by LOGIN_TIMEOUT_S. Both the host-key check and the
connection itself go through `ssh_socket`, so they fail the same way.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import socket

import asyncssh

from chainlab.deploy.transport import TransportError

TCP_TIMEOUT_S = 5.0  # a LAN host answers a SYN in milliseconds; a filtered port never does
BANNER_TIMEOUT_S = 5.0  # sshd sends its banner at once (OpenSSH's own clients wait as long as their ConnectTimeout)
LOGIN_TIMEOUT_S = 10.0  # key exchange and authentication after the banner


def reason(error: BaseException) -> str:
    """An exception as a reason a user can read: its message, or its type's name when it has none (a time-out)."""
    text = str(error).strip()
    if isinstance(error, socket.gaierror) and error.strerror:
        text = error.strerror
    elif isinstance(error, OSError) and error.errno:  # asyncio's "Connect call failed (...)" hides the errno's text
        text = os.strerror(error.errno)
    return text or type(error).__name__


async def ssh_socket(host: str, port: int) -> socket.socket:
    """A connected socket to host:port on which an SSH banner has started to arrive (not consumed: asyncssh reads
    it). Like OpenSSH, each address the name resolves to is tried in turn, each for TCP_TIMEOUT_S; the first that
    accepts TCP is the one asked for its banner. Raises TransportError with the reason, "cannot reach HOST:PORT: …"
    (one reason per address tried), within TCP_TIMEOUT_S per address + BANNER_TIMEOUT_S."""
    where = f"cannot reach {host}:{port}"
    loop = asyncio.get_running_loop()
    try:
        infos = await asyncio.wait_for(loop.getaddrinfo(host, port, type=socket.SOCK_STREAM), TCP_TIMEOUT_S)
    except (OSError, TimeoutError) as e:
        raise TransportError(f"{where}: the host name does not resolve ({reason(e)})") from None
    failures: list[str] = []
    addresses = list(dict.fromkeys(infos))  # getaddrinfo may repeat an address
    for family, kind, proto, _, address in addresses:
        sock = socket.socket(family, kind, proto)
        sock.setblocking(False)
        try:
            await asyncio.wait_for(loop.sock_connect(sock, address), TCP_TIMEOUT_S)
        except (TimeoutError, OSError) as e:
            sock.close()
            why = f"no TCP connection within {TCP_TIMEOUT_S:g} s" if isinstance(e, TimeoutError) else reason(e)
            failures.append(why if len(addresses) == 1 else f"{address[0]}: {why}")
            continue
        except BaseException:
            sock.close()
            raise
        try:
            await _banner(sock, where)
        except BaseException:
            sock.close()
            raise
        return sock
    raise TransportError(f"{where}: {'; '.join(failures)}")


async def _banner(sock: socket.socket, where: str) -> None:
    """Waits until the peer has sent something (peeked, left for asyncssh); a silent or closing port is refused, and
    so is one whose first line is not an SSH version (RFC 4253 lets a server send other lines first; OpenSSH never
    does, and a port that does is far more often another service)."""
    loop = asyncio.get_running_loop()
    readable: asyncio.Future[None] = loop.create_future()

    def ready() -> None:
        if not readable.done():
            readable.set_result(None)

    loop.add_reader(sock.fileno(), ready)
    try:
        await asyncio.wait_for(readable, BANNER_TIMEOUT_S)
        head = sock.recv(256, socket.MSG_PEEK)
    except TimeoutError:
        raise TransportError(
            f"{where}: the port accepts TCP but does not speak SSH (no banner within {BANNER_TIMEOUT_S:g} s)"
        ) from None
    except OSError as e:
        raise TransportError(f"{where}: {reason(e)}") from None
    finally:
        loop.remove_reader(sock.fileno())
    if not head:
        raise TransportError(f"{where}: the port accepts TCP but closed the connection without an SSH banner")
    if not head.startswith(b"SSH-") and (len(head) >= 4 or b"\n" in head):
        first = head.splitlines()[0].decode("ascii", errors="replace")[:60]
        shown = "".join(c if c.isprintable() else "?" for c in first)
        raise TransportError(f"{where}: the port does not speak SSH (it sent {shown!r}, not an SSH banner)")


async def server_host_key(host: str, port: int) -> asyncssh.SSHKey | None:
    """The host key host:port offers (None if it offers none), within the time-outs above."""
    sock = await ssh_socket(host, port)
    try:
        return await asyncio.wait_for(asyncssh.get_server_host_key(host, port, sock=sock), LOGIN_TIMEOUT_S)
    except TimeoutError:
        raise TransportError(
            f"cannot reach {host}:{port}: it sent a banner but no host key within {LOGIN_TIMEOUT_S:g} s"
        ) from None
    except (OSError, asyncssh.Error) as e:
        raise TransportError(f"cannot reach {host}:{port}: {reason(e)}") from None
    finally:
        with contextlib.suppress(OSError):
            sock.close()
