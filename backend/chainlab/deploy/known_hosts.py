"""known_hosts as OpenSSH reads it, read once by chainlab and handed to asyncssh as read.

The file goes through the one reader (chainlab.files: a regular file of at most 4 MiB; a FIFO or /dev/zero is
refused before it can block or fill memory). Each line is kept or skipped on its own, as OpenSSH does: a line
chainlab cannot use (too few fields, an unknown marker, a bad hashed name, a key it cannot read, bytes that are not
UTF-8) is skipped with a warning naming the file and the line number, never the line's content. `@revoked` and
`@cert-authority` lines are kept with their meaning. The lines kept are what asyncssh gets (`entries`), so that
chainlab's advice (unknown, changed, revoked) and asyncssh's decision when it connects rest on the same entries.
"""

from __future__ import annotations

import ipaddress
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

import asyncssh

from chainlab.files import KNOWN_HOSTS, UserFileError, read_user_bytes

MARKERS = ("@revoked", "@cert-authority")
SHOWN_LINES = 5  # line numbers a warning lists before "and N more"


def known_hosts_path() -> Path:
    """CHAINLAB_KNOWN_HOSTS when set, else ~/.ssh/known_hosts."""
    return Path(os.environ.get("CHAINLAB_KNOWN_HOSTS") or Path.home() / ".ssh" / "known_hosts").expanduser()


@dataclass(frozen=True)
class HostKeys:
    """The entries that apply to one host, as asyncssh will apply them when it connects."""

    keys: list[asyncssh.SSHKey]  # trusted plain keys
    ca_keys: list[asyncssh.SSHKey]  # @cert-authority: host certificates they signed are trusted
    revoked: list[asyncssh.SSHKey]  # @revoked: refused whatever else the file says

    def is_revoked(self, key: asyncssh.SSHKey) -> bool:
        return any(k.public_data == key.public_data for k in self.revoked)

    def trusts(self, key: asyncssh.SSHKey) -> bool:
        return any(k.public_data == key.public_data for k in self.keys)


@dataclass
class KnownHosts:
    """A known_hosts file as read: its lines as they were (for a rewrite), the entries made of the lines understood,
    and the numbers of the lines skipped."""

    path: Path
    lines: list[bytes] = field(default_factory=list)
    entries: asyncssh.SSHKnownHosts = field(default_factory=asyncssh.SSHKnownHosts)
    skipped: list[int] = field(default_factory=list)

    def match(self, host: str, port: int) -> HostKeys:
        """The entries for host:port, looked up as asyncssh.connect looks them up: no port for 22 (and `host` alone
        when nothing names host:port), the host as an address too when it is one."""
        address = host if _is_address(host) else ""
        keys, ca_keys, revoked, *_ = self.entries.match(host, address, None if port == 22 else port)
        return HostKeys(_unique(keys), _unique(ca_keys), _unique(revoked))

    def warnings(self) -> list[str]:
        """One line naming the skipped lines (numbers only: a line's content is never echoed), or none."""
        if not self.skipped:
            return []
        shown = ", ".join(str(n) for n in self.skipped[:SHOWN_LINES])
        more = f" and {len(self.skipped) - SHOWN_LINES} more" if len(self.skipped) > SHOWN_LINES else ""
        which = "line" if len(self.skipped) == 1 else "lines"
        return [f"{self.path}: {which} {shown}{more} skipped: not a known_hosts entry chainlab can read"]


def load_known_hosts(path: Path | None = None) -> KnownHosts:
    """The known_hosts file at `path` (default: known_hosts_path()); a missing file is an empty one.

    Parameters
    ----------
    path
        The file; CHAINLAB_KNOWN_HOSTS or ~/.ssh/known_hosts when None.

    Returns
    -------
    KnownHosts
        Its entries (for chainlab's checks and for asyncssh) and the lines skipped.

    Raises
    ------
    UserFileError
        The file is not a regular file, cannot be read or is above 4 MiB: the file and the reason, in one line.
    """
    known = KnownHosts(path or known_hosts_path())
    try:
        data = read_user_bytes(known.path, KNOWN_HOSTS)
    except UserFileError as error:
        if not error.missing:
            raise
        return known
    known.lines = data.splitlines(keepends=True)
    for number, raw in enumerate(known.lines, 1):
        text = _text(raw)
        if text is not None and (not text or text.startswith("#")):
            continue
        if text is None or not _load_line(known.entries, text):
            known.skipped.append(number)
    return known


def _unique(keys: Sequence[asyncssh.SSHKey]) -> list[asyncssh.SSHKey]:
    """Each key once (a line for the host and one for its address both match an address)."""
    return list({k.public_data: k for k in keys}.values())


def _text(raw: bytes) -> str | None:
    try:
        return raw.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None


def _load_line(entries: asyncssh.SSHKnownHosts, line: str) -> bool:
    """Adds one line's entry; False (nothing added) for a line asyncssh would refuse, or skip without a word (a key
    it cannot read), or split in two (a vertical tab or other line break Python knows inside it)."""
    marked = line.startswith("@")
    fields = line.split(None, 2 if marked else 1)
    if len(fields) != (3 if marked else 2) or (marked and fields[0] not in MARKERS) or len(line.splitlines()) != 1:
        return False
    if not _is_key(fields[-1]):
        return False
    try:
        entries.load(line)
    except ValueError:  # a hashed name (|1|salt|hash) that is not one
        return False
    return True


def _is_key(data: str) -> bool:
    for read in (asyncssh.import_public_key, asyncssh.import_certificate):
        try:
            read(data)
            return True
        except (asyncssh.KeyImportError, ValueError):
            continue
    return False


def _is_address(host: str) -> bool:
    try:
        ipaddress.ip_address(host)
    except ValueError:
        return False
    return True


def lines_without(known: KnownHosts, host: str, port: int, fingerprint: str) -> bytes:
    """The file's bytes without the plain-key lines that give host:port the key with `fingerprint`; every other
    line (comments, @revoked, @cert-authority, lines skipped) is kept as it was."""
    return b"".join(raw for raw in known.lines if not _gives_key(raw, known.path, host, port, fingerprint))


def _gives_key(raw: bytes, path: Path, host: str, port: int, fingerprint: str) -> bool:
    text = _text(raw)
    line = KnownHosts(path)
    if not text or text.startswith(("#", "@")) or not _load_line(line.entries, text):
        return False
    return any(k.get_fingerprint("sha256") == fingerprint for k in line.match(host, port).keys)
