"""The one reader of files a user or the environment names (chainlab/files.py: read_user_bytes, read_user_text):
real FIFOs, devices, sockets, directories, procfs files and files above their limit."""

from __future__ import annotations

import os
import socket
import threading
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from special_files import special_file

from chainlab.files import (
    KNOWN_HOSTS,
    MEASUREMENT,
    FileKind,
    UserFileError,
    check_regular,
    excerpt,
    read_user_bytes,
    read_user_text,
)

TINY = FileKind("test", 64)


def refusal(read: Callable[[], object], seconds: float = 5) -> UserFileError:
    """The UserFileError that `read` raises, which must come within `seconds` (a FIFO's open would block)."""
    caught: list[BaseException] = []

    def attempt() -> None:
        try:
            read()
        except BaseException as error:
            caught.append(error)

    thread = threading.Thread(target=attempt, daemon=True)
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), "the read blocked"
    assert caught and isinstance(caught[0], UserFileError), caught
    return caught[0]


def test_a_regular_file_is_read_whole(tmp_path: Path) -> None:
    f = tmp_path / "k"
    f.write_bytes(b"a b\nc d\n")
    assert read_user_bytes(f, KNOWN_HOSTS) == b"a b\nc d\n"
    assert read_user_text(str(f), KNOWN_HOSTS) == "a b\nc d\n"
    (tmp_path / "empty").touch()
    assert read_user_text(tmp_path / "empty", KNOWN_HOSTS) == ""


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path: Path) -> None:
    fifo = special_file("fifo", tmp_path, "fifo")
    error = refusal(lambda: read_user_bytes(fifo, KNOWN_HOSTS))
    assert str(error) == f"error: known_hosts {fifo}: it is a pipe (FIFO), not a regular file"
    assert not error.missing


def test_a_device_is_refused_and_dev_zero_is_not_read(tmp_path: Path) -> None:
    error = refusal(lambda: read_user_text("/dev/zero", MEASUREMENT))
    assert error.reason == "it is a device, not a regular file" and error.path == "/dev/zero"


def test_a_directory_and_a_socket_are_refused(tmp_path: Path) -> None:
    assert refusal(lambda: read_user_bytes(tmp_path, TINY)).reason == "it is a directory, not a regular file"
    path = tmp_path / "sock"
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as server:
        server.bind(str(path))
        server.listen()
        assert refusal(lambda: read_user_bytes(path, TINY)).reason == "it is a socket, not a regular file"


def test_a_missing_file_says_so_and_is_marked_missing(tmp_path: Path) -> None:
    error = refusal(lambda: read_user_bytes(tmp_path / "nothing", KNOWN_HOSTS))
    assert error.reason == "no such file" and error.missing
    assert check_regular(tmp_path / "nothing", KNOWN_HOSTS) is False
    under_a_file = tmp_path / "f"
    under_a_file.write_text("x")
    assert refusal(lambda: read_user_bytes(under_a_file / "x", TINY)).reason == "not a directory"


def test_a_procfs_file_of_size_0_is_read_whole() -> None:
    assert os.stat("/proc/self/status").st_size == 0
    text = read_user_text("/proc/self/status", MEASUREMENT)
    assert text.startswith("Name:") and "\nPid:" in text and text.endswith("\n")


def test_a_file_that_is_longer_than_stat_says_is_refused_not_cut() -> None:
    """stat says 0 bytes for a procfs file, below the limit; reading finds more than the limit: refused, where a
    reader that trusted the size (or stopped at the limit) would return a cut file."""
    error = refusal(lambda: read_user_bytes("/proc/self/status", TINY))
    assert error.reason == "more than the limit of 64 bytes for test files"


def test_limits_hold_at_the_byte(tmp_path: Path) -> None:
    f = tmp_path / "f"
    f.write_bytes(b"x" * TINY.limit)
    assert len(read_user_bytes(f, TINY)) == TINY.limit
    f.write_bytes(b"x" * (TINY.limit + 1))
    assert "above the limit" in refusal(lambda: read_user_bytes(f, TINY)).reason


def test_a_huge_file_is_refused_before_it_is_read(tmp_path: Path) -> None:
    big = tmp_path / "big"
    with open(big, "wb") as f:
        f.truncate(5 * 1024 * 1024)  # sparse: 5 MiB by stat, nothing on disk
    started = time.monotonic()
    error = refusal(lambda: read_user_bytes(big, KNOWN_HOSTS))
    assert error.reason == "5.0 MiB, above the limit of 4.0 MiB for known_hosts files"
    assert time.monotonic() - started < 1


def test_invalid_utf8_names_line_and_column_not_content(tmp_path: Path) -> None:
    f = tmp_path / "cal.json"
    f.write_bytes(b'{"a":\n  "secret\xff"}\n')
    error = refusal(lambda: read_user_text(f, TINY))
    assert str(error) == f"error: test {f}:2:10: not UTF-8 (byte 0xff)"
    assert "secret" not in str(error)
    assert read_user_bytes(f, TINY).endswith(b'\xff"}\n')  # bytes are bytes


def test_check_regular_refuses_special_files_without_opening_them(tmp_path: Path) -> None:
    fifo = special_file("fifo", tmp_path, "fifo")
    assert refusal(lambda: check_regular(fifo, TINY)).reason == "it is a pipe (FIFO), not a regular file"
    (tmp_path / "f").write_text("")
    assert check_regular(tmp_path / "f", TINY) is True


def test_excerpt_is_short_and_quoted() -> None:
    assert excerpt("x" * 1000) == "x" * 40 + "…"
    assert excerpt("\x1b[2J\n") == "\\x1b[2J\\n"


@pytest.mark.parametrize("name", ["a file", "x" * 200])
def test_the_message_names_the_path_as_given(tmp_path: Path, name: str) -> None:
    error = refusal(lambda: read_user_bytes(tmp_path / name, TINY))
    assert error.path == str(tmp_path / name) and str(tmp_path / name) in str(error)
