"""How the experiment reaches a target: one interface, a local and an SSH implementation.

The experiment (plan, upload, build, run scenarios, collect) is written once against `Transport`;
`LocalTransport` runs on this machine, `SshTransport` (chainlab.deploy.ssh) over asyncssh. Commands are
argument lists, never shell strings: the transport quotes them (shlex.join) where a shell is involved.

Every process an experiment starts goes through `start`: it runs in its own session (setsid) with a pid
file `<run_dir>/pids/<name>.pid` and its output in `<run_dir>/logs/<name>.log`, so `cleanup(run_dir)` can
always find and stop it (SIGCONT first, so nothing stays stopped; then TERM, then KILL).
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import shutil
import signal
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from chainlab.errors import ChainlabError
from chainlab.files import atomic_writer, write_atomic


@dataclass
class Completed:
    argv: list[str]
    returncode: int
    stdout: str
    stderr: str


#: RemoteProcess.wait's status for a process that ended without one being recorded: on an ssh target, the shell
#: that records it was killed too (a signal to the whole session). Not a status a process can exit with.
NO_EXIT_STATUS = -1000


class RemoteProcess(Protocol):
    name: str
    pid: int

    async def wait(self, timeout: float | None = None) -> int | None:
        """The exit status (killed by signal N: -N here, a shell's 128+N on an ssh target; NO_EXIT_STATUS: not
        recorded), or None when it is still running after `timeout` seconds."""

    async def signal(self, sig: int) -> None:
        """Send a signal to the process's whole session."""


class Transport(Protocol):
    """A target reachable for an experiment. All paths are target paths (str)."""

    name: str
    notes: list[str]  # what connecting found worth telling the user (known_hosts lines skipped), for the summary

    async def run(
        self, argv: list[str], *, cwd: str | None = None, timeout: float | None = None, check: bool = True
    ) -> Completed:
        """Run a command to completion; check=True raises TransportError on a non-zero exit."""

    async def put_tree(self, local: Path, remote: str) -> None:
        """Upload a local directory to `remote` (created if missing; existing files overwritten)."""

    async def put_file(self, local: Path, remote: str) -> None:
        """Upload one file."""

    async def get_file(self, remote: str, local: Path) -> None:
        """Download one file."""

    async def exists(self, remote: str) -> bool:
        """Whether a target path exists."""

    async def read_text(self, remote: str, offset: int = 0) -> str:
        """Content of a target file from byte `offset` (for collecting files while they grow)."""

    async def start(self, argv: list[str], *, run_dir: str, name: str, cwd: str | None = None) -> RemoteProcess:
        """Start a detached process in its own session with pid file and log under run_dir."""

    async def cleanup(self, run_dir: str, keep: str = "") -> list[str]:
        """Stop every process with a pid file under run_dir (but `keep`); returns what it had to stop."""

    async def keepalive(self, run_dir: str, stale_s: int = 5) -> None:
        """Make the run stop by itself when this controller vanishes (heartbeat + watchdog on the target)."""

    async def finish(self, run_dir: str) -> None:
        """The run ended normally: stop the keepalive."""

    async def close(self) -> None:
        """Release the connection."""


class TransportError(ChainlabError):
    """A command on the target failed or the target cannot be reached."""

    code = "transport"

    def __init__(self, message: str, completed: Completed | None = None):
        super().__init__(message)
        self.completed = completed


def command_text(argv: list[str]) -> str:
    """The one place where an argument list becomes a shell command line."""
    return shlex.join(argv)


def shell_quote(path: str) -> str:
    """A path (or any word) for a POSIX shell command line."""
    return shlex.quote(path)


def cleanup_script(run_dir: str, keep: str = "") -> str:
    """POSIX sh: stop every session with a pid file under run_dir (except `keep`), print the names it stopped.

    A session is alive while any of its processes is not a zombie (an orphan's zombie may wait long for a busy
    init to reap it); a chain that got SIGTERM may still be writing what it measured after its wrapper shell
    died, so KILL comes only after 5 s."""
    pids = f"{shell_quote(run_dir)}/pids"
    alive = (
        'alive() { for s in /proc/[0-9]*/stat; do read -r l < "$s" 2>/dev/null || continue; set -- ${l##*) }; '
        '[ "$3" = "$G" ] && [ "$1" != Z ] && return 0; done; return 1; }; '
    )
    return (
        alive + f'stopped=\'\'; for f in {pids}/*.pid; do [ -e "$f" ] || continue; n=$(basename "$f" .pid); '
        f'[ "$n" = {shell_quote(keep or "-")} ] && continue; p=$(cat "$f"); G=$p; '
        f'if [ -n "$p" ] && alive; then kill -CONT -"$p" 2>/dev/null; '
        f'kill -TERM -"$p" 2>/dev/null; stopped="$stopped $p"; echo "$n"; fi; rm -f "$f"; done; '
        f'[ -z "$stopped" ] && exit 0; '
        f"i=0; while [ $i -lt 100 ]; do any=''; for G in $stopped; do alive && any=1; done; "
        f'[ -z "$any" ] && break; sleep 0.05; i=$((i+1)); done; '
        f'for p in $stopped; do kill -KILL -"$p" 2>/dev/null; done; true'
    )


class _LocalProcess:
    def __init__(self, name: str, proc: asyncio.subprocess.Process):
        self.name = name
        self.pid = proc.pid
        self._proc = proc

    async def wait(self, timeout: float | None = None) -> int | None:
        try:
            return await asyncio.wait_for(self._proc.wait(), timeout)
        except TimeoutError:
            return None

    async def signal(self, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.pid, sig)


class LocalTransport:
    """This machine: the embedded default target `here` and every `local` target."""

    def __init__(self, name: str = "here"):
        self.name = name
        self.notes: list[str] = []
        self._watchdog: RemoteProcess | None = None

    async def run(
        self, argv: list[str], *, cwd: str | None = None, timeout: float | None = None, check: bool = True
    ) -> Completed:
        proc = await asyncio.create_subprocess_exec(
            *argv, cwd=cwd, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE, start_new_session=True
        )
        try:
            out, err = await asyncio.wait_for(proc.communicate(), timeout)
        except TimeoutError:
            os.killpg(proc.pid, signal.SIGKILL)
            await proc.wait()
            raise TransportError(f"'{command_text(argv)}' took longer than {timeout} s on {self.name}") from None
        done = Completed(argv, proc.returncode or 0, out.decode(errors="replace"), err.decode(errors="replace"))
        if check and done.returncode != 0:
            raise TransportError(
                f"'{command_text(argv)}' failed on {self.name} (exit {done.returncode}): "
                f"{(done.stderr or done.stdout).strip()[-2000:]}",
                done,
            )
        return done

    async def put_tree(self, local: Path, remote: str) -> None:
        shutil.copytree(local, remote, dirs_exist_ok=True)

    async def put_file(self, local: Path, remote: str) -> None:
        Path(remote).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(local, remote)

    async def get_file(self, remote: str, local: Path) -> None:
        if Path(remote).resolve() == local.resolve():  # a local run writes into its own folder: nothing to fetch
            if not local.exists():
                raise FileNotFoundError(f"no such file: {local}")
            return
        local.parent.mkdir(parents=True, exist_ok=True)
        with open(remote, "rb") as source, atomic_writer(local, "wb") as copy:  # never half a result here
            shutil.copyfileobj(source, copy)

    async def exists(self, remote: str) -> bool:
        return Path(remote).exists()

    async def read_text(self, remote: str, offset: int = 0) -> str:
        with open(remote, "rb") as f:
            f.seek(offset)
            return f.read().decode(errors="replace")

    async def start(self, argv: list[str], *, run_dir: str, name: str, cwd: str | None = None) -> RemoteProcess:
        pids, logs = Path(run_dir, "pids"), Path(run_dir, "logs")
        pids.mkdir(parents=True, exist_ok=True)
        logs.mkdir(parents=True, exist_ok=True)
        with open(logs / f"{name}.log", "ab") as log:
            proc = await asyncio.create_subprocess_exec(
                *argv,
                cwd=cwd,
                stdin=asyncio.subprocess.DEVNULL,
                stdout=log,
                stderr=asyncio.subprocess.STDOUT,
                start_new_session=True,
            )
        write_atomic(pids / f"{name}.pid", f"{proc.pid}\n")
        return _LocalProcess(name, proc)

    async def cleanup(self, run_dir: str, keep: str = "") -> list[str]:
        stopped = []
        for pid_file in sorted(Path(run_dir, "pids").glob("*.pid")):
            if pid_file.stem == keep:
                continue
            pid = int(pid_file.read_text().strip() or 0)
            if pid > 0 and _alive(pid):
                for sig in (signal.SIGCONT, signal.SIGTERM):
                    _killpg(pid, sig)
                for _ in range(50):
                    if not _alive(pid):
                        break
                    await asyncio.sleep(0.02)
                else:
                    _killpg(pid, signal.SIGKILL)
                stopped.append(pid_file.stem)
            pid_file.unlink(missing_ok=True)
        return stopped

    async def keepalive(self, run_dir: str, stale_s: int = 5) -> None:
        """A watchdog in its own session stops the run when this process vanishes (a killed backend runs no
        finally, and the run's processes have sessions of their own); it leaves when the run is done."""
        done, me = f"{run_dir}/done", os.getpid()
        watchdog = (
            f"while kill -0 {me} 2>/dev/null; do [ -e {shell_quote(done)} ] && exit 0; sleep 1; done; "
            f"[ -e {shell_quote(done)} ] || {{ echo 'controller {me} gone: stopping the run'; "
            f"{cleanup_script(run_dir, keep='watchdog')}; }}"
        )
        self._watchdog = await self.start(["sh", "-c", watchdog], run_dir=run_dir, name="watchdog")

    async def finish(self, run_dir: str) -> None:
        """The run ended normally: the watchdog leaves (and is waited for: a child that outlives this event loop
        makes asyncio warn when it exits)."""
        Path(run_dir, "done").touch()
        if self._watchdog is not None:  # told at once rather than left to notice `done` within its second
            await self._watchdog.signal(signal.SIGTERM)
            await self._watchdog.wait(2.0)
            self._watchdog = None

    async def close(self) -> None:
        return None


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    # a zombie still answers kill(0); it is not reaped here: asyncio's child watcher owns our children (reaping
    # one behind its back makes it report exit code 255 and log "Unknown child process")
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return False


def _killpg(pid: int, sig: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, sig)
