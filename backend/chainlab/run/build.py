"""Build a generated project with CMake, cached by the content hash of its files."""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from chainlab.codegen import write_project
from chainlab.errors import ChainlabError


class BuildError(ChainlabError):
    code = "build-failed"


def content_hash(files: dict[str, str], flavour: str = "") -> str:
    h = hashlib.sha256(flavour.encode())
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + files[rel].encode() + b"\0")
    return h.hexdigest()[:16]


def default_cache() -> Path:
    return Path(os.environ.get("CHAINLAB_CACHE", Path.home() / ".cache" / "chainlab")) / "builds"


def build_project(files: dict[str, str], cache: Path | None = None, sanitize: str = "") -> tuple[Path, bool]:
    """(path of the built `chain` binary, whether it came from the cache). sanitize: '', address, thread."""
    root = (cache or default_cache()) / (content_hash(files, sanitize) + (f"-{sanitize}" if sanitize else ""))
    binary = root / "build" / "chain"
    if binary.exists():
        return binary, True
    write_project(files, root)
    build_type = "RelWithDebInfo" if sanitize else "Release"
    for cmd in (
        [
            "cmake",
            "-S",
            str(root),
            "-B",
            str(root / "build"),
            f"-DCMAKE_BUILD_TYPE={build_type}",
            f"-DCHAINLAB_SANITIZE={sanitize}",
        ],
        ["cmake", "--build", str(root / "build"), "-j", str(os.cpu_count() or 2)],
    ):
        proc = subprocess.run(cmd, capture_output=True, text=True)
        if proc.returncode != 0:
            raise BuildError(
                f"building the generated project in {root} failed:\n{proc.stdout[-3000:]}{proc.stderr[-3000:]}"
            )
    return binary, False
