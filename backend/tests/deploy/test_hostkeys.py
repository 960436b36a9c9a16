"""Host keys through the real processes: the CLI (node), the backend it starts and the SSH lab host (a real sshd in
a network namespace). known_hosts is read by the one reader (a FIFO or /dev/zero is refused at once and nothing is
left running), unparseable lines are skipped with a warning naming the file and the line, @revoked keys are refused by
trust-host and deploy alike, and a @cert-authority line lets asyncssh check the host's certificate."""

from __future__ import annotations

import asyncio
import subprocess
import time
from pathlib import Path

import pytest
from lab import Lab, lab_host
from special_files import Kind, special_file
from test_deploy_cycle import chainlab, model
from test_faults import Marked, wait_for

from chainlab.deploy.ssh import SshTransport
from chainlab.deploy.transport import TransportError


def lab_line(lab: Lab, marker: str = "", host: str | None = None) -> str:
    pub = " ".join(lab.host_key.with_suffix(".pub").read_text().split()[:2])
    return f"{marker + ' ' if marker else ''}{host or lab.host} {pub}\n"


def trusted_with(case: Marked, known_hosts: Path) -> dict[str, str]:
    """The environment of a CLI run that is one of `case`'s processes and reads `known_hosts`."""
    return case.env(CHAINLAB_KNOWN_HOSTS=str(known_hosts))


def trust_args(tmp_path: Path, lab: Lab) -> list[str]:
    return ["trust-host", str(model(tmp_path, lab)), "--target", "lab"]


def deploy_args(tmp_path: Path, lab: Lab) -> list[str]:
    f = str(model(tmp_path, lab))
    return ["deploy", f, "--target", "lab", "--scenario", "baseline", "--iterations", "10", "--runs", str(tmp_path)]


@pytest.mark.parametrize("command", ["trust-host", "deploy"])
@pytest.mark.parametrize("kind", ["fifo", "device"])
def test_a_known_hosts_that_is_no_regular_file_is_refused_at_once(
    lab: Lab, tmp_path: Path, command: str, kind: Kind
) -> None:
    """Issue 29: /dev/zero grew the backend to the machine's memory; a FIFO hung it in open(), and after the CLI was
    killed the backend was left behind (PPID 1) ignoring SIGTERM."""
    known = special_file(kind, tmp_path, "known_hosts")
    args = deploy_args(tmp_path, lab) if command == "deploy" else trust_args(tmp_path, lab)
    case, before = Marked(), sorted(lab.root.rglob("*"))
    started = time.monotonic()
    r = chainlab(args, trusted_with(case, known), timeout=60)
    assert time.monotonic() - started < 30
    reason = "it is a pipe (FIFO)" if kind == "fifo" else "it is a device"
    assert r.returncode == 1 and r.stderr.count("\n") == 1, r.stderr
    assert f"known_hosts {known}: {reason}, not a regular file" in r.stderr
    assert wait_for(lambda: not case.processes(), 10), case.processes()
    assert sorted(lab.root.rglob("*")) == before  # nothing reached the lab


def test_unparseable_lines_are_skipped_with_a_warning_naming_the_line(lab: Lab, tmp_path: Path) -> None:
    """Issue 29: one line asyncssh could not parse was `internal error: … ValueError: Invalid known hosts entry:`
    with the whole line echoed; OpenSSH skips such lines."""
    known = tmp_path / "known_hosts"
    known.write_bytes(b"SECRET" * 100 + b"\n" + lab_line(lab).encode() + b"@bogus marker line\n\xff\xfe\n")
    case = Marked()
    trusted = chainlab(trust_args(tmp_path, lab), trusted_with(case, known))
    assert trusted.returncode == 0 and "already in" in trusted.stdout, trusted.stderr
    warning = f"chainlab: warning: {known}: lines 1, 3, 4 skipped: not a known_hosts entry chainlab can read\n"
    assert trusted.stderr == warning
    deployed = chainlab(deploy_args(tmp_path, lab), trusted_with(case, known))
    assert deployed.returncode == 0, deployed.stderr
    assert warning.removeprefix("chainlab: warning: ") in deployed.stdout  # in the run's summary
    assert "SECRET" not in trusted.stderr + deployed.stdout + deployed.stderr
    assert wait_for(lambda: not case.processes(), 10)


@pytest.mark.parametrize("also_plain", [False, True])
def test_a_revoked_key_is_refused_by_trust_host_and_deploy(lab: Lab, tmp_path: Path, also_plain: bool) -> None:
    """Issue 29: chainlab's check ignored @revoked, so trust-host said it "added" a key that deploy was then refused
    with by asyncssh."""
    known = tmp_path / "known_hosts"
    known.write_text((lab_line(lab) if also_plain else "") + lab_line(lab, "@revoked", "*"))
    before, on_lab = known.read_bytes(), sorted(lab.root.rglob("*"))
    case = Marked()
    trusted = chainlab(trust_args(tmp_path, lab), trusted_with(case, known))
    assert trusted.returncode == 1 and "added" not in trusted.stdout
    assert f"is marked @revoked in {known}: not trusting it" in trusted.stderr, trusted.stderr
    assert known.read_bytes() == before
    deployed = chainlab(deploy_args(tmp_path, lab), trusted_with(case, known))
    assert deployed.returncode == 1 and f"is marked @revoked in {known}" in deployed.stderr, deployed.stderr
    assert sorted(lab.root.rglob("*")) == on_lab
    assert wait_for(lambda: not case.processes(), 10)


def test_trust_host_appends_after_a_last_line_without_line_end(lab: Lab, tmp_path: Path) -> None:
    known = tmp_path / "known_hosts"
    known.write_text("10.200.254.9 ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIHSHoArQDUvy/KMnFwXzuMV828uu9AFVTDdULFn8ywBf")
    trusted = chainlab(trust_args(tmp_path, lab), trusted_with(Marked(), known))
    assert trusted.returncode == 0 and "added" in trusted.stdout, trusted.stderr
    lines = known.read_text().splitlines()
    assert len(lines) == 2 and lines[1] == lab_line(lab).strip()


def test_a_cert_authority_line_lets_asyncssh_check_the_host_certificate(tmp_path: Path) -> None:
    """A host known only through @cert-authority: chainlab does not call its key unknown, asyncssh checks the
    certificate the host presents; a certificate of another CA is refused by asyncssh."""
    cas = []
    for name in ("ca", "other-ca"):
        subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(tmp_path / name)], check=True)
        cas.append(" ".join((tmp_path / f"{name}.pub").read_text().split()[:2]))
    with lab_host() as lab:
        host_pub = str(lab.host_key.with_suffix(".pub"))
        sign = ["ssh-keygen", "-q", "-s", str(tmp_path / "ca"), "-I", "lab", "-h", "-n", lab.host, host_pub]
        subprocess.run(sign, check=True)
        with open(lab.sshd_config, "a") as f:
            f.write(f"HostCertificate {lab.host_key}-cert.pub\n")
        lab.kill_sshd()
        lab.start_sshd()
        known = tmp_path / "known_hosts"

        async def echo() -> str:
            t = await SshTransport(lab.target(), known_hosts=known).connect()
            try:
                return (await t.run(["echo", "ok"])).stdout
            finally:
                await t.close()

        known.write_text(f"@cert-authority {lab.host} {cas[0]}\n")
        assert asyncio.run(echo()) == "ok\n"
        known.write_text(f"@cert-authority {lab.host} {cas[1]}\n")
        with pytest.raises(TransportError, match="Host CA key is not trusted"):
            asyncio.run(echo())
        known.write_text(f"@cert-authority {lab.host} {cas[0]}\n@revoked * {cas[0]}\n")
        with pytest.raises(TransportError, match="revoked"):
            asyncio.run(echo())
