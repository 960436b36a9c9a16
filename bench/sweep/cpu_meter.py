"""CPU-seconds a sweep costs, apart from its start: the client (with a LocalCluster's scheduler, which runs in it)
and the cluster's processes (a LocalCluster's workers are the client's children; a separate cluster's are the
processes the bench started, and theirs). Less at the mercy of a shared machine's load than wall-clock rates."""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import psutil


def _cpu(process: psutil.Process) -> float:
    try:
        t = process.cpu_times()
    except psutil.Error:  # ended (a nanny's short-lived helper)
        return 0.0
    return float(t.user + t.system)


@dataclass
class CpuMeter:
    """Hooks for run_sweep: progress() and on_engine(); `client_s` and `cluster_s` once the sweep is done.

    The client's start CPU (opening the cluster) is left out: before on_engine only this thread's CPU counts, up to
    the last progress report before it (the points timed here; the engine opens the cluster in another thread
    meanwhile, or in this one after them), then the whole process's. The cluster's processes count from on_engine
    (their start and imports are done) to the last row."""

    kind: str  # "process" (no cluster), "local" (this process's children) or "separate" (the processes `roots`)
    roots: list[int]  # the separate cluster's processes (not counted for a LocalCluster: they idle then)
    client_s: float = 0.0
    cluster_s: float = 0.0
    _me: psutil.Process = field(default_factory=psutil.Process)
    _began: float = field(default_factory=time.thread_time)
    _last: float = 0.0
    _before_engine: float = 0.0  # this thread's CPU from the sweep's start to the last report before on_engine
    _engine_at: float = 0.0  # the process's CPU at on_engine
    _cluster: list[psutil.Process] = field(default_factory=list)
    _cluster_began: dict[int, float] = field(default_factory=dict)
    _done: bool = False

    def progress(self, done: int, total: int) -> None:
        self._last = time.thread_time()
        if done == total and not self._done:
            self._done = True
            engine_at = self._engine_at or time.process_time()  # all done before a cluster was needed
            self.client_s = self._before_engine + time.process_time() - engine_at
            self.cluster_s = sum(_cpu(p) - self._cluster_began.get(p.pid, 0.0) for p in self._cluster)

    def on_engine(self, _engine: object) -> None:
        self._before_engine = max(self._last, self._began) - self._began
        self._engine_at = time.process_time()
        if self.kind == "process":
            return
        roots = [psutil.Process(pid) for pid in self.roots]
        trees = roots + [c for p in roots for c in p.children(recursive=True)]
        if self.kind == "separate":
            self._cluster = trees
        else:
            separate = {p.pid for p in trees}
            self._cluster = [c for c in self._me.children(recursive=True) if c.pid not in separate]
        self._cluster_began = {p.pid: _cpu(p) for p in self._cluster}
