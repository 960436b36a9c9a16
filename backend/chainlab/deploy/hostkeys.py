"""Host keys: an ssh target is reached only when its key is in known_hosts. An unknown key is refused with its
SHA256 fingerprint and the one command that accepts it (`chainlab trust-host`); a changed key is refused."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import asyncssh

from chainlab.deploy.transport import TransportError


def known_hosts_path() -> Path:
    return Path(os.environ.get("CHAINLAB_KNOWN_HOSTS") or Path.home() / ".ssh" / "known_hosts").expanduser()


def host_pattern(host: str, port: int) -> str:
    return host if port == 22 else f"[{host}]:{port}"


async def server_key(host: str, port: int, timeout: float = 10) -> asyncssh.SSHKey:
    try:
        key = await asyncio.wait_for(asyncssh.get_server_host_key(host, port), timeout)
    except (TimeoutError, OSError, asyncssh.Error) as e:
        raise TransportError(f"cannot reach {host}:{port} to read its host key: {e or type(e).__name__}") from None
    if key is None:
        raise TransportError(f"{host}:{port} offered no host key")
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


def known_keys(host: str, port: int, path: Path | None = None) -> list[asyncssh.SSHKey]:
    path = path or known_hosts_path()
    if not path.exists():
        return []
    trusted, _, _, _, _, _, _ = asyncssh.read_known_hosts(str(path)).match(host, "", port)
    return list(trusted)


async def verify(host: str, port: int, file: str, target: str, path: Path | None = None) -> None:
    """Raises TransportError unless the host's current key is the known one."""
    path = path or known_hosts_path()
    key = await server_key(host, port)
    known = known_keys(host, port, path)
    if not known:
        raise TransportError(
            f"the host key of {host_pattern(host, port)} (target {target}) is not known; "
            f"its fingerprint is {fingerprint(key)}.\n"
            f"If that is the lab machine's key, accept it with:\n  npx chainlab trust-host {file} --target {target}"
        )
    if not any(k.public_data == key.public_data for k in known):
        raise TransportError(
            f"the host key of {host_pattern(host, port)} (target {target}) CHANGED: it now offers {fingerprint(key)}, "
            f"{path} has {', '.join(fingerprint(k) for k in known)}. Refusing to connect (a reinstalled machine, or "
            f"someone in between). Remove the old line from {path} only if you know why it changed."
        )


async def trust(host: str, port: int, path: Path | None = None) -> tuple[str, bool]:
    """Adds the host's key to known_hosts; returns (fingerprint, whether it was new)."""
    path = path or known_hosts_path()
    key = await server_key(host, port)
    if any(k.public_data == key.public_data for k in known_keys(host, port, path)):
        return fingerprint(key), False
    path.parent.mkdir(parents=True, exist_ok=True)
    line = f"{host_pattern(host, port)} {key.export_public_key('openssh').decode().strip()}\n"
    with open(path, "a") as f:
        f.write(line)
    return fingerprint(key), True
