"""Host keys: an ssh target is reached only when its key is in known_hosts. An unknown key is refused with its
SHA256 fingerprint and the one command that accepts it (`chainlab trust-host`); a changed key is refused, by
`trust-host` too, unless it is replaced explicitly (`--replace OLD-FINGERPRINT`); a key marked @revoked is refused by
both. known_hosts is read once (chainlab.deploy.known_hosts) and what was read is what asyncssh is given: the advice
here and asyncssh's decision rest on the same entries."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from chainlab.deploy.known_hosts import KnownHosts, known_hosts_path, lines_without, load_known_hosts
from chainlab.deploy.reach import server_host_key
from chainlab.deploy.transport import TransportError
from chainlab.files import KNOWN_HOSTS, UserFileError, atomic_path, special_reason

__all__ = ["Trusted", "fingerprint", "host_pattern", "known_hosts_path", "server_key", "trust", "verify"]


def host_pattern(host: str, port: int) -> str:
    return host if port == 22 else f"[{host}]:{port}"


async def server_key(host: str, port: int) -> asyncssh.SSHKey:
    key = await server_host_key(host, port)  # bounded, and a failure says why (chainlab.deploy.reach)
    if key is None:
        raise TransportError(f"{host}:{port} offered no host key")
    return key


def fingerprint(key: asyncssh.SSHKey) -> str:
    return key.get_fingerprint("sha256")


async def verify(host: str, port: int, file: str, target: str, path: Path | None = None) -> KnownHosts:
    """Raises TransportError unless the host's current key is trusted as asyncssh will trust it when it connects;
    returns the known_hosts read, which the connection is then given (not the file: it is not read twice)."""
    known = load_known_hosts(path)  # before the network: a file that cannot be read is refused at once
    key = await server_key(host, port)
    keys = known.match(host, port)
    pattern = host_pattern(host, port)
    if keys.is_revoked(key):
        raise TransportError(
            f"the host key of {pattern} (target {target}), {fingerprint(key)}, is marked @revoked in {known.path}. "
            f"Refusing to connect; remove the @revoked line only if you know why the key was revoked."
        )
    if keys.trusts(key) or keys.ca_keys:  # with a @cert-authority for the host asyncssh checks its certificate
        return known
    if not keys.keys:
        raise TransportError(
            f"the host key of {pattern} (target {target}) is not known; "
            f"its fingerprint is {fingerprint(key)}.\n"
            f"If that is the lab machine's key, accept it with:\n  npx chainlab trust-host {file} --target {target}"
        )
    raise TransportError(
        f"the host key of {pattern} (target {target}) CHANGED: it now offers {fingerprint(key)}, "
        f"{known.path} has {', '.join(fingerprint(k) for k in keys.keys)}. Refusing to connect (a reinstalled "
        f"machine, or someone in between). Remove the old line from {known.path} only if you know why it changed."
    )


@dataclass(frozen=True)
class Trusted:
    """What trust-host did: the host's key, whether it was added (False: it was trusted already), what to warn of."""

    fingerprint: str
    added: bool
    warnings: list[str] = field(default_factory=list)


async def trust(
    host: str, port: int, path: Path | None = None, *, replace: str | None = None, file: str = "FILE", target: str = ""
) -> Trusted:
    """Adds the host's key to known_hosts unless it is trusted already.

    A host whose known key CHANGED is refused (the old and the new fingerprint in the message) unless `replace`
    names the old fingerprint: then the lines with that key for this host are replaced by the new one. A key marked
    @revoked is refused: added, it would still be refused by deploy."""
    known = load_known_hosts(path)
    key = await server_key(host, port)
    keys = known.match(host, port)
    pattern = host_pattern(host, port)
    if keys.is_revoked(key):
        raise TransportError(
            f"the host key of {pattern}, {fingerprint(key)}, is marked @revoked in {known.path}: not trusting it "
            f"(deploy refuses a revoked key whatever else the file says). Remove the @revoked line only if you know "
            f"why the key was revoked."
        )
    if keys.trusts(key):
        return Trusted(fingerprint(key), False, known.warnings())
    if keys.keys:
        old = [fingerprint(k) for k in keys.keys]
        again = f"npx chainlab trust-host {file} --target {target or 'NAME'} --replace {old[0]}"
        if replace is None:
            raise TransportError(
                f"the host key of {pattern} CHANGED: it now offers {fingerprint(key)}, {known.path} has "
                f"{', '.join(old)}. Not trusting it (a reinstalled machine, or someone in between). If you know why "
                f"it changed, replace the old key with:\n  {again}"
            )
        if replace not in old:
            raise TransportError(
                f"--replace {replace}: {known.path} has no such key for {pattern} (it has {', '.join(old)}); "
                f"the host now offers {fingerprint(key)}"
            )
        _rewrite(known.path, lines_without(known, host, port, replace))
        known = load_known_hosts(known.path)
    _append(known, f"{pattern} {key.export_public_key('openssh').decode().strip()}\n")
    return Trusted(fingerprint(key), True, known.warnings())


def _append(known: KnownHosts, line: str) -> None:
    """Appends one line (after a line end, should the file's last line lack one). O_NONBLOCK: a FIFO put there since
    the file was read is refused (ENXIO, or by the check after) instead of blocking the open."""
    known.path.parent.mkdir(parents=True, exist_ok=True)
    ends = not known.lines or known.lines[-1].endswith((b"\n", b"\r"))
    fd = os.open(known.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    try:
        special = special_reason(os.fstat(fd).st_mode)
        if special:
            raise UserFileError(known.path, KNOWN_HOSTS, special)
        data = ("" if ends else "\n").encode() + line.encode()
        written = 0
        while written < len(data):
            written += os.write(fd, data[written:])
    finally:
        os.close(fd)


def _rewrite(path: Path, data: bytes) -> None:
    """known_hosts replaced by `data` at once (a temporary file beside it, renamed), with the file's mode."""
    mode = path.stat().st_mode & 0o777
    with atomic_path(path) as tmp:
        tmp.write_bytes(data)
        os.chmod(tmp, mode)
