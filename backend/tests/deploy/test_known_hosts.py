"""known_hosts as chainlab reads it (chainlab/deploy/known_hosts.py), with real files and real keys: lines skipped
as OpenSSH skips them, @revoked and @cert-authority kept with their meaning, the same entries asyncssh is handed."""

from __future__ import annotations

from pathlib import Path

import asyncssh
import pytest
from special_files import special_file

from chainlab.deploy.known_hosts import KnownHosts, lines_without, load_known_hosts
from chainlab.files import UserFileError

HOST = "10.200.77.2"


def public(key: asyncssh.SSHKey) -> str:
    return key.export_public_key("openssh").decode().strip()


@pytest.fixture(scope="module")
def keys() -> list[asyncssh.SSHKey]:
    return [asyncssh.generate_private_key("ssh-ed25519") for _ in range(3)]


def written(tmp_path: Path, data: bytes) -> KnownHosts:
    path = tmp_path / "known_hosts"
    path.write_bytes(data)
    return load_known_hosts(path)


def test_lines_chainlab_cannot_use_are_skipped_and_named_by_number_only(
    tmp_path: Path, keys: list[asyncssh.SSHKey]
) -> None:
    good = public(keys[0])
    lines = [
        b"# a comment\n",
        b"x" * 300 + b"\n",  # one field: asyncssh raised "Invalid known hosts entry: xxxx..." with the whole line
        f"@foo {HOST} {good}\n".encode(),  # an unknown marker
        f"{HOST} {good}\n".encode(),
        b"\n",
        f"@revoked {HOST}\n".encode(),  # a marker without a key
        b"|1|notbase64|either " + good.encode() + b"\n",  # a hashed name that is not one
        f"{HOST} ssh-ed25519 AAAAnot-a-key\n".encode(),  # a key asyncssh would skip without a word
        b"\xff\xfe" + good.encode() + b"\n",  # not UTF-8
        f"{HOST} {good}\x0bother {good}\n".encode(),  # a line Python would split in two
        f"{HOST} {good}".encode(),  # the last line, without its line end
    ]
    known = written(tmp_path, b"".join(lines))
    assert known.skipped == [2, 3, 6, 7, 8, 9, 10]
    assert known.warnings() == [
        f"{known.path}: lines 2, 3, 6, 7, 8 and 2 more skipped: not a known_hosts entry chainlab can read"
    ]
    assert "xxx" not in known.warnings()[0] and "foo" not in known.warnings()[0]
    assert [k.public_data for k in known.match(HOST, 22).keys] == [keys[0].public_data]  # lines 4 and 11
    assert known.lines[1] == b"x" * 300 + b"\n"  # kept as it was, for a rewrite


def test_one_skipped_line_is_named_in_the_singular(tmp_path: Path) -> None:
    assert written(tmp_path, b"garbage\n").warnings() == [
        f"{tmp_path / 'known_hosts'}: line 1 skipped: not a known_hosts entry chainlab can read"
    ]


def test_a_missing_file_is_empty_but_a_fifo_or_device_is_refused(tmp_path: Path) -> None:
    missing = load_known_hosts(tmp_path / "none")
    assert missing.lines == [] and missing.skipped == [] and missing.match(HOST, 22).keys == []
    fifo = special_file("fifo", tmp_path, "fifo")
    with pytest.raises(UserFileError, match="it is a pipe"):
        load_known_hosts(fifo)
    with pytest.raises(UserFileError, match="known_hosts /dev/zero: it is a device, not a regular file"):
        load_known_hosts(Path("/dev/zero"))
    big = tmp_path / "big"
    big.write_bytes(b"# padding\n" * (500 * 1024))  # 5 MB of comments
    with pytest.raises(UserFileError, match=r"above the limit of 4\.0 MiB for known_hosts files"):
        load_known_hosts(big)


def test_revoked_and_cert_authority_lines_keep_their_meaning(tmp_path: Path, keys: list[asyncssh.SSHKey]) -> None:
    known = written(
        tmp_path,
        (
            f"{HOST} {public(keys[0])}\n@revoked * {public(keys[0])}\n"
            f"@cert-authority {HOST} {public(keys[1])}\n[{HOST}]:2222 {public(keys[2])}\n"
        ).encode(),
    )
    on22 = known.match(HOST, 22)
    assert on22.is_revoked(keys[0]) and on22.trusts(keys[0]) and not on22.is_revoked(keys[1])
    assert [k.public_data for k in on22.ca_keys] == [keys[1].public_data]
    on2222 = known.match(HOST, 2222)  # a line for [host]:2222 is there: the lines for the host alone do not apply
    assert on2222.trusts(keys[2]) and not on2222.trusts(keys[0]) and on2222.is_revoked(keys[0])
    assert known.match(HOST, 2223).trusts(keys[0])  # nothing for [host]:2223: the host's lines apply, as in OpenSSH


def test_asyncssh_gets_the_same_entries_chainlab_checked(tmp_path: Path, keys: list[asyncssh.SSHKey]) -> None:
    known = written(tmp_path, f"bad line\n{HOST} {public(keys[0])}\n@revoked {HOST} {public(keys[1])}\n".encode())
    for port in (22, 2222):
        ours = known.match(HOST, port)
        # what asyncssh.connect looks up with the entries it is given (no port for 22, the peer's address)
        theirs = asyncssh.match_known_hosts(known.entries, HOST, HOST, None if port == 22 else port)
        assert {k.public_data for k in theirs[0]} == {k.public_data for k in ours.keys}
        assert {k.public_data for k in theirs[2]} == {k.public_data for k in ours.revoked}


def test_lines_without_drops_only_the_plain_key_lines_of_that_host(tmp_path: Path, keys: list[asyncssh.SSHKey]) -> None:
    old = public(keys[0])
    data = (
        f"# keep\n{HOST} {old}\n@revoked {HOST} {old}\nother.host {old}\n\xff garbage\n{HOST} {public(keys[1])}\n"
    ).encode("latin-1")
    known = written(tmp_path, data)
    fingerprint = keys[0].get_fingerprint("sha256")
    assert lines_without(known, HOST, 22, fingerprint) == data.replace(f"{HOST} {old}\n".encode(), b"", 1)
