"""SshTransport: a lab machine over SSH (asyncssh), with the same process discipline as LocalTransport.

Every started process runs in its own session under `sh`, which writes `pids/<name>.pid` (the session id) and,
when the command ends, `pids/<name>.exit`. `cleanup` signals whole sessions (SIGCONT first, then TERM, then
KILL). `keepalive` touches a heartbeat file every second and starts a remote watchdog that cleans the run up by
itself when the heartbeat goes stale: a controller that vanished (killed, network gone) leaves nothing running.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import os
import posixpath
from pathlib import Path
from typing import Any

import asyncssh

from chainlab.deploy import hostkeys
from chainlab.deploy.names import check_target
from chainlab.deploy.reach import LOGIN_TIMEOUT_S, reason, ssh_socket
from chainlab.deploy.transport import (
    NO_EXIT_STATUS,
    Completed,
    TransportError,
    cleanup_script,
    command_text,
    shell_quote,
)
from chainlab.files import atomic_path, named

_LOST = (asyncssh.Error, OSError, asyncio.IncompleteReadError, BrokenPipeError)
#: What a local write fails with (a full disk, a file-size limit, a read-only folder): not a lost connection.
_LOCAL_WRITE = {errno.EFBIG, errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EACCES, errno.EPERM, errno.EISDIR}


def _text(data: str | bytes) -> str:
    """A remote file's content as text (files opened "rb" read bytes)."""
    return data.decode(errors="replace") if isinstance(data, bytes) else data


ALIVE_CHECK_S = 1.0  # how often a process without an exit status is looked for on the target


def _session_alive(sid: int) -> str:
    """POSIX sh: exit 0 while a process of session `sid` is alive (not a zombie), 1 once none is."""
    return (
        f'for s in /proc/[0-9]*/stat; do read -r l < "$s" 2>/dev/null || continue; set -- ${{l##*) }}; '
        f'[ "$4" = {int(sid)} ] && [ "$1" != Z ] && exit 0; done; exit 1'
    )


class _SshProcess:
    def __init__(self, transport: SshTransport, name: str, pid: int, run_dir: str):
        self.name, self.pid, self._t, self._exit = name, pid, transport, f"{run_dir}/pids/{name}.exit"
        self._looked = asyncio.get_running_loop().time()

    async def wait(self, timeout: float | None = None) -> int | None:
        """The exit status its wrapper recorded; NO_EXIT_STATUS once its whole session is gone without one (the
        wrapper was killed with it), found within ALIVE_CHECK_S; None while it runs after `timeout` seconds."""
        loop = asyncio.get_running_loop()
        deadline = None if timeout is None else loop.time() + timeout
        pause = 0.01
        while True:
            status = await self._status()
            if status is not None:
                return status
            if loop.time() - self._looked >= ALIVE_CHECK_S:
                self._looked = loop.time()
                gone = await self._t.run(["sh", "-c", _session_alive(self.pid)], check=False)
                if gone.returncode == 1:  # the status is written before the wrapper ends: look once more
                    status = await self._status()
                    return NO_EXIT_STATUS if status is None else status
            if deadline is not None and loop.time() >= deadline:
                return None
            await asyncio.sleep(pause)
            pause = min(0.2, pause * 1.5)  # quick for short commands, cheap for long runs

    async def _status(self) -> int | None:
        text = (await self._t.read_small(self._exit) or "").strip()  # SFTP: much cheaper than a command
        return int(text) if text.lstrip("-").isdigit() else None

    async def signal(self, sig: int) -> None:
        await self._t.run(["kill", f"-{int(sig)}", f"-{self.pid}"], check=False)


class SshTransport:
    def __init__(
        self,
        target: dict[str, Any],
        *,
        file: str = "FILE",
        known_hosts: Path | None = None,
        connect_timeout: float = LOGIN_TIMEOUT_S,
    ):
        check_target(target)
        self.name = target["name"]
        self.host, self.port = target["host"], int(target.get("port") or 22)
        self.user = target.get("user") or os.environ.get("USER") or "root"
        self.key = str(Path(target["key"]).expanduser()) if target.get("key") else None
        self.file, self.known_hosts, self.timeout = file, known_hosts or hostkeys.known_hosts_path(), connect_timeout
        self._conn: asyncssh.SSHClientConnection | None = None
        self._sftp: asyncssh.SFTPClient | None = None
        self._beats: list[asyncio.Task] = []
        self.notes: list[str] = []  # what connecting found to tell (known_hosts lines skipped)

    async def connect(self) -> SshTransport:
        known = await hostkeys.verify(self.host, self.port, self.file, self.name, self.known_hosts)
        self.notes = known.warnings()
        sock = await ssh_socket(self.host, self.port)  # a silent or refusing port fails here, with its reason
        try:
            self._conn = await asyncio.wait_for(
                asyncssh.connect(
                    self.host,
                    self.port,
                    sock=sock,
                    username=self.user,
                    known_hosts=known.entries,  # what verify read and checked: the file is not read again
                    client_keys=[self.key] if self.key else (),
                    agent_path=None if self.key else os.environ.get("SSH_AUTH_SOCK"),
                    password=None,
                    kbdint_auth=False,
                    keepalive_interval=2,
                    keepalive_count_max=3,
                ),
                self.timeout,
            )
        except asyncssh.PermissionDenied as e:
            raise TransportError(
                f"target {self.name}: {self.user}@{self.host}:{self.port} refused the key "
                f"{self.key or '(SSH agent)'}: {e.reason}"
            ) from None
        except TimeoutError:
            raise TransportError(
                f"target {self.name}: {self.user}@{self.host}:{self.port} sent its banner but did not complete "
                f"the SSH key exchange and login within {self.timeout:g} s"
            ) from None
        except _LOST as e:
            raise TransportError(
                f"target {self.name}: cannot connect to {self.user}@{self.host}:{self.port}: {reason(e)}"
            ) from None
        finally:
            if self._conn is None:  # not handed over to a connection: ours to close
                sock.close()
        return self

    def _c(self) -> asyncssh.SSHClientConnection:
        if self._conn is None:
            raise TransportError(f"target {self.name}: not connected")
        return self._conn

    async def _sftp_client(self) -> asyncssh.SFTPClient:
        if self._sftp is None:
            try:
                self._sftp = await self._c().start_sftp_client()
            except _LOST as e:
                raise self._lost("sftp", e) from None
        return self._sftp

    def _lost(self, what: str, e: BaseException) -> TransportError:
        return TransportError(
            f"target {self.name}: the connection to {self.host}:{self.port} was lost during {what} ({reason(e)})"
        )

    async def run(
        self, argv: list[str], *, cwd: str | None = None, timeout: float | None = None, check: bool = True
    ) -> Completed:
        text = command_text(argv)
        if cwd:
            text = f"cd {shell_quote(cwd)} && {text}"
        try:
            r = await asyncio.wait_for(self._c().run(text, check=False), timeout)
        except TimeoutError:
            raise TransportError(f"'{command_text(argv)}' took longer than {timeout} s on {self.name}") from None
        except _LOST as e:
            raise self._lost(f"'{command_text(argv)[:200]}'", e) from None
        if r.exit_status is None:
            raise self._lost(f"'{command_text(argv)[:200]}'", ConnectionError("no exit status"))
        done = Completed(argv, r.exit_status, str(r.stdout or ""), str(r.stderr or ""))
        if check and done.returncode != 0:
            raise TransportError(
                f"'{command_text(argv)}' failed on {self.name} (exit {done.returncode}): "
                f"{(done.stderr or done.stdout).strip()[-3000:]}",
                done,
            )
        return done

    async def put_tree(self, local: Path, remote: str) -> None:
        sftp = await self._sftp_client()
        try:
            for d, _, files in os.walk(local):
                rel = os.path.relpath(d, local)
                target = remote if rel == "." else posixpath.join(remote, *Path(rel).parts)
                await sftp.makedirs(target, exist_ok=True)
                for f in files:
                    await sftp.put(os.path.join(d, f), posixpath.join(target, f))
        except _LOST as e:
            raise self._lost(f"the upload to {remote}", e) from None

    async def put_file(self, local: Path, remote: str) -> None:
        sftp = await self._sftp_client()
        try:
            await sftp.makedirs(posixpath.dirname(remote) or ".", exist_ok=True)
            await sftp.put(str(local), remote)
        except _LOST as e:
            raise self._lost(f"the upload of {remote}", e) from None

    async def get_file(self, remote: str, local: Path) -> None:
        local.parent.mkdir(parents=True, exist_ok=True)
        sftp = await self._sftp_client()
        try:
            with atomic_path(local) as partial:  # a dropped connection leaves no half result at `local`
                await sftp.get(remote, str(partial))
        except asyncssh.SFTPNoSuchFile:  # the connection is fine: the file is not there
            raise FileNotFoundError(errno.ENOENT, f"no such file on {self.name}", remote) from None
        except OSError as e:
            if e.errno in _LOCAL_WRITE:  # asyncssh's own errors are no OSErrors: this one is the local file's
                raise named(e, local) from None
            raise self._lost(f"the download of {remote}", e) from None
        except _LOST as e:
            raise self._lost(f"the download of {remote}", e) from None

    async def exists(self, remote: str) -> bool:
        sftp = await self._sftp_client()
        try:
            return await sftp.exists(remote)
        except _LOST as e:
            raise self._lost(f"checking {remote}", e) from None

    async def read_small(self, remote: str) -> str | None:
        """A small file's content, or None when it does not exist."""
        sftp = await self._sftp_client()
        try:
            async with sftp.open(remote, "rb") as f:
                return _text(await f.read())
        except asyncssh.SFTPNoSuchFile:
            return None
        except _LOST as e:
            raise self._lost(f"reading {remote}", e) from None

    async def touch(self, remote: str) -> None:
        sftp = await self._sftp_client()
        try:
            async with sftp.open(remote, "ab"):
                pass
            await sftp.utime(remote)
        except _LOST as e:
            raise self._lost(f"touching {remote}", e) from None

    async def read_text(self, remote: str, offset: int = 0) -> str:
        sftp = await self._sftp_client()
        try:
            async with sftp.open(remote, "rb") as f:
                await f.seek(offset)
                return _text(await f.read())
        except _LOST as e:
            raise self._lost(f"reading {remote}", e) from None

    async def start(self, argv: list[str], *, run_dir: str, name: str, cwd: str | None = None) -> _SshProcess:
        pid_file, log = f"{run_dir}/pids/{name}.pid", f"{run_dir}/logs/{name}.log"
        # sh writes its pid (= the new session's id), runs the command, then records its exit status
        inner = ["setsid", "sh", "-c", 'echo $$ > "$0"; "$@"; echo $? > "${0%.pid}.exit"', pid_file, *argv]
        script = (
            f"mkdir -p {shell_quote(run_dir)}/pids {shell_quote(run_dir)}/logs && "
            f"rm -f {shell_quote(pid_file)} {shell_quote(pid_file[:-4])}.exit && "
            + (f"cd {shell_quote(cwd)} && " if cwd else "")
            + f"{{ {command_text(inner)} >{shell_quote(log)} 2>&1 </dev/null & }}; "
            f"i=0; while [ ! -s {shell_quote(pid_file)} ] && [ $i -lt 500 ]; do sleep 0.01; i=$((i+1)); done; "
            f"cat {shell_quote(pid_file)}"
        )
        done = await self.run(["sh", "-c", script])
        try:
            return _SshProcess(self, name, int(done.stdout.strip()), run_dir)
        except ValueError:
            raise TransportError(
                f"target {self.name}: '{command_text(argv)}' did not start: {done.stderr.strip()}"
            ) from None

    async def cleanup(self, run_dir: str, keep: str = "") -> list[str]:
        done = await self.run(["sh", "-c", cleanup_script(run_dir, keep)])
        return done.stdout.split()

    async def keepalive(self, run_dir: str, stale_s: int = 5) -> None:
        """Heartbeat from here, watchdog there: the run stops by itself stale_s seconds after we vanish."""
        beat = f"{run_dir}/heartbeat"
        sftp = await self._sftp_client()
        await sftp.makedirs(run_dir, exist_ok=True)
        await self.touch(beat)
        watchdog = (
            f"while :; do sleep 1; [ -e {shell_quote(run_dir)}/done ] && exit 0; "
            f"age=$(( $(date +%s) - $(stat -c %Y {shell_quote(beat)} 2>/dev/null || echo 0) )); "
            f"if [ $age -gt {int(stale_s)} ]; then "
            'echo "controller gone ($age s without heartbeat): stopping the run"; '
            f"{cleanup_script(run_dir, keep='watchdog')}; exit 0; fi; done"
        )
        await self.start(["sh", "-c", watchdog], run_dir=run_dir, name="watchdog")

        async def beat_loop() -> None:
            while True:
                await asyncio.sleep(1)
                try:
                    await self.touch(beat)
                except TransportError:
                    return

        self._beats.append(asyncio.create_task(beat_loop()))

    async def finish(self, run_dir: str) -> None:
        """The run ended normally: the watchdog leaves."""
        for t in self._beats:
            t.cancel()
        self._beats.clear()
        with contextlib.suppress(TransportError):
            await self.touch(f"{run_dir}/done")

    async def close(self) -> None:
        for t in self._beats:
            t.cancel()
        if self._sftp is not None:
            self._sftp.exit()
        if self._conn is not None:
            self._conn.close()
            try:
                await asyncio.wait_for(self._conn.wait_closed(), 5)
            except (TimeoutError, *_LOST):
                pass
        self._conn = self._sftp = None
