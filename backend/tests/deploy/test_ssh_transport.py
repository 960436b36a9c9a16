"""SshTransport against a real sshd in a network namespace: commands, files, detached processes, cleanup,
host keys, a dropped connection and the remote watchdog."""

from __future__ import annotations

import asyncio
import resource
import signal
import subprocess
import time
from pathlib import Path

import pytest

from chainlab.deploy import hostkeys
from chainlab.deploy.ssh import SshTransport
from chainlab.deploy.transport import TransportError


def run(coro):
    return asyncio.run(coro)


def session_alive(marker: str) -> list[str]:
    out = subprocess.run(["ps", "-eo", "pid,stat,args"], capture_output=True, text=True).stdout
    return [line for line in out.splitlines() if marker in line and "ps -eo" not in line]


async def connected(lab, **kw) -> SshTransport:
    return await SshTransport(lab.target(), known_hosts=lab.known_hosts, **kw).connect()


def test_commands_files_and_quoting(lab, tmp_path: Path) -> None:
    async def go():
        t = await connected(lab)
        try:
            done = await t.run(["printf", "%s|", "a b", "it's", "$(touch /tmp/chainlab-injected)", "`id`", ";", '"q"'])
            assert done.stdout == 'a b|it\'s|$(touch /tmp/chainlab-injected)|`id`|;|"q"|'
            failed = await t.run(["sh", "-c", "echo oops >&2; exit 3"], check=False)
            assert (failed.returncode, failed.stderr) == (3, "oops\n")
            with pytest.raises(TransportError, match="exit 3"):
                await t.run(["sh", "-c", "exit 3"])
            src = tmp_path / "tree"
            (src / "sub").mkdir(parents=True)
            (src / "a.txt").write_text("alpha")
            (src / "sub" / "b.txt").write_text("beta")
            await t.put_tree(src, f"{lab.root}/up")
            assert (lab.root / "up" / "sub" / "b.txt").read_text() == "beta"
            await t.get_file(f"{lab.root}/up/a.txt", tmp_path / "back.txt")
            assert (tmp_path / "back.txt").read_text() == "alpha"
            assert await t.read_text(f"{lab.root}/up/sub/b.txt", 2) == "ta"
        finally:
            await t.close()

    run(go())
    assert not Path("/tmp/chainlab-injected").exists()


def test_a_download_that_fails_leaves_the_old_file(lab, tmp_path: Path) -> None:
    """A download cut short (here: this process may not write more than 64 KiB) leaves `local` as it was and no
    temporary file beside it; the error names `local`."""
    (lab.root / "big.bin").write_bytes(b"x" * (1 << 20))
    local = tmp_path / "latencies.csv"
    local.write_text("old")

    async def go():
        t = await connected(lab)
        try:
            await t.get_file(f"{lab.root}/big.bin", local)
        finally:
            await t.close()

    limit = resource.getrlimit(resource.RLIMIT_FSIZE)
    previous = signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
    resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, limit[1]))
    try:
        with pytest.raises(OSError) as failed:
            run(go())
    finally:
        resource.setrlimit(resource.RLIMIT_FSIZE, limit)
        signal.signal(signal.SIGXFSZ, previous)
    assert failed.value.filename == str(local)
    assert local.read_text() == "old"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["latencies.csv"]


def test_detached_processes_and_cleanup(lab) -> None:
    run_dir = f"{lab.root}/runs/cleanup"

    async def go():
        t = await connected(lab)
        try:
            quick = await t.start(["sh", "-c", "echo hi; exit 4"], run_dir=run_dir, name="quick")
            assert await quick.wait(10) == 4
            assert (Path(run_dir) / "logs" / "quick.log").read_text() == "hi\n"
            sleeper = await t.start(["sleep", "1234.5"], run_dir=run_dir, name="sleeper")
            stopped = await t.start(["sleep", "1234.6"], run_dir=run_dir, name="stopped")
            await stopped.signal(signal.SIGSTOP)
            assert await sleeper.wait(0.2) is None
            assert session_alive("sleep 1234.5") and session_alive("sleep 1234.6")
            assert sorted(await t.cleanup(run_dir)) == ["sleeper", "stopped"]
        finally:
            await t.close()

    run(go())
    assert session_alive("sleep 1234.5") == [] and session_alive("sleep 1234.6") == []


def test_unknown_and_changed_host_keys_are_refused(lab, tmp_path: Path) -> None:
    empty = tmp_path / "known_hosts"
    empty.write_text("")
    before = sorted(lab.root.rglob("*"))
    with pytest.raises(TransportError) as unknown:
        run(SshTransport(lab.target(), known_hosts=empty, file="lab.chain").connect())
    fp = subprocess.run(["ssh-keygen", "-lf", f"{lab.host_key}.pub"], capture_output=True, text=True).stdout.split()[1]
    assert fp in str(unknown.value) and "npx chainlab trust-host lab.chain --target lab" in str(unknown.value)
    assert sorted(lab.root.rglob("*")) == before  # nothing uploaded, nothing run
    other = tmp_path / "other"
    subprocess.run(["ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-f", str(other)], check=True)
    changed = tmp_path / "changed"
    changed.write_text(f"{lab.host} {' '.join((other.with_suffix('.pub')).read_text().split()[:2])}\n")
    with pytest.raises(TransportError, match="CHANGED"):
        run(SshTransport(lab.target(), known_hosts=changed).connect())
    assert run(hostkeys.trust(lab.host, lab.port, empty)) == hostkeys.Trusted(fp, True)
    assert run(hostkeys.trust(lab.host, lab.port, empty)) == hostkeys.Trusted(fp, False)

    async def trusted() -> None:
        t = await SshTransport(lab.target(), known_hosts=empty).connect()
        assert (await t.run(["echo", "ok"])).stdout == "ok\n"
        await t.close()

    run(trusted())


def test_unsafe_names_are_refused_before_connecting(lab) -> None:
    for bad in (
        {"name": "lab;touch /tmp/x"},
        {"root": "/tmp/$(id)"},
        {"user": "root -oProxyCommand=x"},
        {"host": "a b"},
    ):
        with pytest.raises(Exception, match="not a"):
            SshTransport(lab.target(**bad), known_hosts=lab.known_hosts)


def test_dropped_connection_then_reconnect_and_watchdog(lab) -> None:
    run_dir = f"{lab.root}/runs/drop"

    async def go():
        t = await connected(lab)
        await t.keepalive(run_dir, stale_s=2)
        await t.start(["sleep", "1234.7"], run_dir=run_dir, name="chain")
        lab.kill_sshd()  # the lab's sshd and our session with it
        started = time.monotonic()
        with pytest.raises(TransportError, match=r"lost|cannot"):
            for _ in range(50):
                await t.run(["true"])
                await asyncio.sleep(0.1)
        assert time.monotonic() - started < 10
        await t.close()
        # the controller is gone: the watchdog stops the run by itself
        for _ in range(100):
            if not session_alive("sleep 1234.7"):
                break
            await asyncio.sleep(0.1)
        log = (Path(run_dir) / "logs" / "watchdog.log").read_text()
        assert session_alive("sleep 1234.7") == [], log
        lab.start_sshd()
        t2 = await connected(lab)
        try:
            assert "chain" not in await t2.cleanup(run_dir)  # the watchdog may still be finishing
            assert "controller gone" in (Path(run_dir) / "logs" / "watchdog.log").read_text()
        finally:
            await t2.close()

    run(go())
