"""Paths the user names and result files: results are written whole or not at all (a full disk must not leave a
truncated report that looks complete), and a path is resolved with a link loop reported as a file-system error.
Every file a user or the environment names is read by one reader (read_user_bytes, read_user_text): regular files
only, each kind of file up to its limit, refused with the file and the reason, never its content."""

from __future__ import annotations

import errno
import os
import secrets
import stat
from collections.abc import Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, BinaryIO, Literal, TextIO, overload

from chainlab.errors import ChainlabError


def resolved(path: str | Path) -> Path:
    """`path` made absolute with its links followed. A link loop (`-o loop` where loop -> loop) is an OSError (ELOOP)
    naming the path, as Python 3.13 raises it, not Python 3.11's RuntimeError, which reached the user as an internal
    error (issue 17, found by the CLI argument fuzz); the server reports an OSError as one line with path and reason."""
    try:
        return Path(path).resolve()
    except RuntimeError as error:
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path)) from error


# --- the one writer: every result file is written whole under a temporary name beside it, then renamed -------------


def named(error: OSError, path: str | Path) -> OSError:
    """`error` naming `path` where it names no file or a temporary one (a failed write(2) or fsync names none)."""
    if error.filename is None or _is_temporary(str(error.filename), Path(path)):
        error.filename = str(path)
    return error


def _is_temporary(name: str, path: Path) -> bool:
    return Path(name).parent == path.parent and Path(name).name.startswith(f".{path.name}.") and name.endswith(".tmp")


def _temporary(path: Path) -> tuple[Path, int]:
    """A new file beside `path` (same file system, so the rename is atomic), hidden and ending in .tmp: never taken
    for a result. Created with O_EXCL (a link planted at the name is not followed) and the umask's mode."""
    for _ in range(100):
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}.tmp")
        try:
            return tmp, os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o666)
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name beside it", str(path))


@overload
def atomic_writer(path: str | Path, mode: Literal["w"] = "w") -> AbstractContextManager[TextIO]: ...
@overload
def atomic_writer(path: str | Path, mode: Literal["wb"]) -> AbstractContextManager[BinaryIO]: ...
def atomic_writer(path: str | Path, mode: Literal["w", "wb"] = "w") -> AbstractContextManager[IO[Any]]:
    """A file object for writers that need one (matplotlib's savefig, csv writers), written as write_atomic writes.

    Parameters
    ----------
    path
        The file to write; it is replaced only when the block ends without an exception.
    mode
        "w" for UTF-8 text, "wb" for bytes.

    Raises
    ------
    OSError
        Naming `path` (never the temporary name) with the system's reason; nothing is left at the temporary name,
        and `path` is as it was. Any other exception of the block also leaves `path` as it was.
    """
    return _atomic(Path(path), mode)


@contextmanager
def _atomic(path: Path, mode: str) -> Iterator[IO[Any]]:
    tmp: Path | None = None
    try:
        tmp, fd = _temporary(path)
        with os.fdopen(fd, mode, encoding=None if "b" in mode else "utf-8") as f:
            yield f
        os.replace(tmp, path)  # only after close: a write the kernel refuses at close fails before the rename
        tmp = None
    except OSError as error:
        raise named(error, path) from None
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)


@contextmanager
def atomic_path(path: str | Path) -> Iterator[Path]:
    """A temporary name beside `path` for a writer that opens files itself (an SFTP download): renamed over `path`
    when the block ends without an exception, removed otherwise. An OSError naming the temporary name names `path`
    instead; others (a lost connection) pass unchanged."""
    final = Path(path)
    tmp: Path | None = None
    try:
        tmp, fd = _temporary(final)
        os.close(fd)
        yield tmp
        os.replace(tmp, final)
        tmp = None
    except OSError as error:
        if error.filename is not None and _is_temporary(str(error.filename), final):
            error.filename = str(final)
        raise
    finally:
        if tmp is not None:
            tmp.unlink(missing_ok=True)


def write_atomic(path: str | Path, text: str) -> None:
    """Writes `text` (UTF-8) to a temporary name beside `path`, then renames it over `path`.

    Parameters
    ----------
    path
        The file to write.
    text
        Its whole content.

    Raises
    ------
    OSError
        Naming `path`, with the reason (a full disk, a read-only folder, a file-size limit); nothing is left at
        the temporary name and `path` is as it was: never half a file.
    """
    with atomic_writer(path, "w") as f:
        f.write(text)


def write_atomic_bytes(path: str | Path, data: bytes) -> None:
    """write_atomic for bytes (a PNG, a downloaded file)."""
    with atomic_writer(path, "wb") as f:
        f.write(data)


# --- the one reader: every file a user or the environment names is read through read_user_bytes / read_user_text ----

MiB = 1024 * 1024


@dataclass(frozen=True)
class FileKind:
    """What a file is for (its name in messages) and the most bytes chainlab reads of it."""

    name: str
    limit: int


# Limits: a real file of the kind is far below its limit; above it the file is refused before it can exhaust memory.
KNOWN_HOSTS = FileKind("known_hosts", 4 * MiB)  # OpenSSH's own files hold a few hundred lines
CALIBRATION = FileKind("calibration", 16 * MiB)  # 1000 kept iterations of every sub-box
SWEEP_CSV = FileKind("sweep CSV", 1024 * MiB)  # a sweep holds at most a million rows, each in memory anyway
IR_JSON = FileKind("IR JSON", 64 * MiB)  # the largest RPC frame: an IR is sent in one
MEASUREMENT = FileKind("measurement", 256 * MiB)  # a trace or measured times (the CLI's measurement files: the same)
IMPORTED_MODEL = FileKind("imported model", 4 * MiB)  # the .chain limit: what it becomes must parse
TIMINGS_CSV = FileKind("timings CSV", 1024 * MiB)  # measured times per sample: millions of rows
LATENCIES = FileKind("latencies CSV", 1024 * MiB)  # about 30 million iterations of a run


class UserFileError(ChainlabError):
    """A file that was not read: the kind and path, and the reason, never the file's content beyond a short prefix.

    `missing` tells a file that does not exist (callers that have a default for it use the default)."""

    code = "file-system"

    def __init__(self, path: str | Path, kind: FileKind, reason: str, *, missing: bool = False, at: str = "") -> None:
        super().__init__(f"{kind.name} {path}{at}: {reason}")
        self.path, self.kind, self.reason, self.missing = str(path), kind, reason, missing


def special_reason(mode: int) -> str | None:
    """What a non-regular file is, in the words of the CLI's reader (language/src/dsl/regular-file.ts)."""
    if stat.S_ISREG(mode):
        return None
    if stat.S_ISDIR(mode):
        what = "a directory"
    elif stat.S_ISFIFO(mode):
        what = "a pipe (FIFO)"
    elif stat.S_ISCHR(mode) or stat.S_ISBLK(mode):
        what = "a device"
    elif stat.S_ISSOCK(mode):
        what = "a socket"
    else:
        what = "a special file"
    return f"it is {what}, not a regular file"


def _size(n: int) -> str:
    return f"{n / MiB:.1f} MiB" if n >= MiB else f"{n} bytes"


def _too_large(size: int | None, kind: FileKind) -> str:
    """size None: the file held more than its stat size, past the limit (it grew, or procfs said 0)."""
    if size is None:
        return f"more than the limit of {_size(kind.limit)} for {kind.name} files"
    return f"{_size(size)}, above the limit of {_size(kind.limit)} for {kind.name} files"


def _reason(error: OSError) -> str:
    if isinstance(error, FileNotFoundError):
        return "no such file"
    reason = error.strerror or type(error).__name__
    return reason[:1].lower() + reason[1:]


def check_regular(path: str | Path, kind: FileKind) -> bool:
    """Whether `path` exists, refusing (UserFileError) a path that is there but is no regular file. Only stat(2):
    nothing is opened, so a FIFO for a file that will be written is refused before an open could block."""
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        return False
    except OSError as error:
        raise UserFileError(path, kind, _reason(error)) from None
    special = special_reason(mode)
    if special:
        raise UserFileError(path, kind, special)
    return True


def read_user_bytes(path: str | Path, kind: FileKind) -> bytes:
    """The whole content of a regular file of at most `kind.limit` bytes.

    Parameters
    ----------
    path
        The file, as the user or the environment named it.
    kind
        What it is for (KNOWN_HOSTS, CALIBRATION, SWEEP_CSV, IR_JSON, MEASUREMENT, LATENCIES): its limit and its
        name in messages.

    Returns
    -------
    bytes
        Read until end of file: a procfs file (size 0 in stat) is read whole.

    Raises
    ------
    UserFileError
        A missing or unreadable file, a FIFO, device, socket or directory (refused before any read; a FIFO's
        open cannot block), or one above the limit, also when it grew past it after fstat (refused, never cut).
    """
    if not check_regular(path, kind):  # stat first: a device is refused without being opened
        raise UserFileError(path, kind, "no such file", missing=True)
    try:
        # O_NONBLOCK: a FIFO put there since the stat must not block the open; it is refused by the fstat below
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    except OSError as error:
        raise UserFileError(path, kind, _reason(error), missing=isinstance(error, FileNotFoundError)) from None
    try:
        return _read_all(fd, path, kind)
    except OSError as error:
        raise UserFileError(path, kind, _reason(error)) from None
    finally:
        os.close(fd)


def _read_all(fd: int, path: str | Path, kind: FileKind) -> bytes:
    st = os.fstat(fd)
    special = special_reason(st.st_mode)
    if special:
        raise UserFileError(path, kind, special)
    if st.st_size > kind.limit:
        raise UserFileError(path, kind, _too_large(st.st_size, kind))
    chunks: list[bytes] = []
    total, want = 0, min(st.st_size, kind.limit) + 1  # one byte more than stat says: end of file is seen at once
    while total <= kind.limit:
        chunk = os.read(fd, min(max(want, 64 * 1024), kind.limit + 1 - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
        want = 0
    if total > kind.limit:  # it grew since fstat, or stat said 0 (procfs): refused, never cut
        raise UserFileError(path, kind, _too_large(None, kind))
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_user_text(path: str | Path, kind: FileKind) -> str:
    """read_user_bytes decoded as UTF-8; bytes that are not UTF-8 are a UserFileError naming the line and column.

    Parameters
    ----------
    path, kind
        As for read_user_bytes.

    Returns
    -------
    str
        The text, line ends as they are.

    Raises
    ------
    UserFileError
        As read_user_bytes, and `PATH:LINE:COLUMN: not UTF-8` (the byte's value, no content).
    """
    return decode_text(read_user_bytes(path, kind), path, kind)


def decode_text(data: bytes, path: str | Path, kind: FileKind) -> str:
    """`data`, read from `path`, as UTF-8; a UserFileError naming the line and column of the first byte that is not."""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line = data.count(b"\n", 0, error.start) + 1
        column = error.start - (data.rfind(b"\n", 0, error.start) + 1) + 1
        reason = f"not UTF-8 (byte 0x{data[error.start]:02x})"
        raise UserFileError(path, kind, reason, at=f":{line}:{column}") from None


def excerpt(text: str, limit: int = 40) -> str:
    """At most `limit` characters of `text` for a message (a line of a file is never echoed whole), control
    characters escaped so that none reaches a terminal."""
    shown = "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text[:limit])
    return shown + ("…" if len(text) > limit else "")
