"""The target a run goes to, as the model defines it, or `here` (this machine) when it does not; how to reach it
and where chainlab keeps its files there."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from chainlab.deploy.transport import LocalTransport, Transport
from chainlab.errors import FileSystemError
from chainlab.ir import find_target, has_target

HERE = "here"


def resolve_target(ir: dict[str, Any], name: str) -> dict[str, Any]:
    """The model's target `name`. `here` without a target of that name is this machine: local, every core
    an rt-core, no be-cores (so only the baseline scenario). A ModelError for any other unknown name."""
    if name == HERE and not has_target(ir, HERE):
        ncpu = os.cpu_count() or 1
        return {
            "name": HERE,
            "kind": "local",
            "rt_cores": list(range(ncpu)),
            "be_cores": [],
            "root": None,
            "throttle": None,
            "workload": None,
            "loc": None,
        }
    return find_target(ir, name)


def cache_root() -> Path:
    """chainlab's cache on this machine (CHAINLAB_CACHE, default ~/.cache/chainlab)."""
    return Path(os.environ.get("CHAINLAB_CACHE", Path.home() / ".cache" / "chainlab"))


async def open_transport(target: dict[str, Any], file: str) -> Transport:
    """A connection to the target: this machine directly, an ssh target over asyncssh."""
    if target["kind"] == "local":
        return LocalTransport(target["name"])
    from chainlab.deploy.ssh import SshTransport

    return await SshTransport(target, file=file).connect()


async def target_root(transport: Transport, target: dict[str, Any]) -> str:
    """Where chainlab keeps builds and runs on the target: its `root` (~ expanded there), else the cache here
    or ~/chainlab there."""
    if target.get("root"):
        root = str(target["root"])
        if root.startswith("~"):
            root = await _home(transport) + root[1:]
        return root
    if target["kind"] == "local":
        root = cache_root() / "targets" / target["name"]
        try:
            root.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise FileSystemError(error, "the build cache (CHAINLAB_CACHE) cannot be used:") from error
        return str(root)
    return f"{await _home(transport)}/chainlab"


async def _home(transport: Transport) -> str:
    return (await transport.run(["sh", "-c", 'echo "$HOME"'])).stdout.strip()
