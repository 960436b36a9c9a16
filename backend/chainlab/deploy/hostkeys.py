"""Host keys: an ssh target is reached only when its key is in known_hosts. An unknown key is refused with its
SHA256 fingerprint and the one command that accepts it (`chainlab trust-host`); a changed key is refused, by
`trust-host` too, unless it is replaced explicitly (`--replace OLD-FINGERPRINT`)."""

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


async def trust(
    host: str, port: int, path: Path | None = None, *, replace: str | None = None, file: str = "FILE", target: str = ""
) -> tuple[str, bool]:
    """Adds the host's key to known_hosts; returns (fingerprint, whether it was new).

    A host whose known key CHANGED is refused (the old and the new fingerprint in the message) unless `replace`
    names the old fingerprint: then the lines with that key for this host are replaced by the new one."""
    path = path or known_hosts_path()
    key = await server_key(host, port)
    known = known_keys(host, port, path)
    if any(k.public_data == key.public_data for k in known):
        return fingerprint(key), False
    pattern = host_pattern(host, port)
    if known:
        old = [fingerprint(k) for k in known]
        again = f"npx chainlab trust-host {file} --target {target or 'NAME'} --replace {old[0]}"
        if replace is None:
            raise TransportError(
                f"the host key of {pattern} CHANGED: it now offers {fingerprint(key)}, {path} has {', '.join(old)}. "
                f"Not trusting it (a reinstalled machine, or someone in between). If you know why it changed, "
                f"replace the old key with:\n  {again}"
            )
        if replace not in old:
            raise TransportError(
                f"--replace {replace}: {path} has no such key for {pattern} (it has {', '.join(old)}); "
                f"the host now offers {fingerprint(key)}"
            )
        _drop(path, host, port, replace)
    path.parent.mkdir(parents=True, exist_ok=True)
    line = f"{pattern} {key.export_public_key('openssh').decode().strip()}\n"
    with open(path, "a") as f:
        f.write(line)
    return fingerprint(key), True


def _drop(path: Path, host: str, port: int, old: str) -> None:
    """Rewrite known_hosts without the lines that give `host` the key with fingerprint `old` (atomically)."""
    kept = []
    for line in path.read_text().splitlines(keepends=True):
        try:
            trusted = asyncssh.import_known_hosts(line).match(host, "", port)[0]
        except (ValueError, asyncssh.KeyImportError):
            trusted = []
        if not any(fingerprint(k) == old for k in trusted):
            kept.append(line)
    tmp = path.with_name(f".{path.name}.chainlab-{os.getpid()}")
    tmp.write_text("".join(kept))
    os.chmod(tmp, path.stat().st_mode & 0o777)
    os.replace(tmp, path)
