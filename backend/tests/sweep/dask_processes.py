"""A Dask scheduler and workers started as separate processes on 127.0.0.1 (the venv's `dask` CLI); the test
functions they import (sweep_fns.py) are on their PYTHONPATH."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

HERE = Path(__file__).parent
DASK = Path(sys.executable).parent / "dask"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def env() -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(HERE), os.environ.get("PYTHONPATH", "")])}


class DaskProcesses:
    """`dask scheduler` and `dask worker` processes; stop() ends every one of them (and the workers' children)."""

    def __init__(self, workers: int = 2):
        self.port = free_port()
        self.address = f"tcp://127.0.0.1:{self.port}"
        self.procs: list[subprocess.Popen[bytes]] = []
        common = {"env": env(), "stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL, "start_new_session": True}
        scheduler = [str(DASK), "scheduler", "--host", "127.0.0.1", "--port", str(self.port)]
        self.procs.append(
            subprocess.Popen([*scheduler, "--no-dashboard", "--dashboard-address", "127.0.0.1:0"], **common)
        )
        for _ in range(workers):
            self.procs.append(
                subprocess.Popen(
                    [str(DASK), "worker", self.address, "--nthreads", "1", "--host", "127.0.0.1", "--no-dashboard"],
                    **common,
                )
            )
        self.wait_for_workers(workers)

    def wait_for_workers(self, n: int, timeout: float = 60) -> None:
        from distributed import Client

        with Client(self.address, timeout=timeout, set_as_default=False) as client:
            client.wait_for_workers(n, timeout=timeout)

    def stop(self) -> None:
        for proc in reversed(self.procs):
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)  # its own session: the nanny's worker process too
        deadline = time.monotonic() + 15
        for proc in self.procs:
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, signal.SIGKILL)
                proc.wait()
