"""Build a generated project with CMake, cached by the content hash of its files.

A cached binary is used only when its own hash (written beside it after a successful build) still matches: a
truncated, emptied or replaced binary, or one that lost its execute bit, is rebuilt rather than run.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
from pathlib import Path

from chainlab.codegen import write_project
from chainlab.deploy.targets import cache_root
from chainlab.errors import ChainlabError, FileSystemError
from chainlab.files import write_atomic


class BuildError(ChainlabError):
    code = "build-failed"


def content_hash(files: dict[str, str], flavour: str = "") -> str:
    h = hashlib.sha256(flavour.encode())
    for rel in sorted(files):
        h.update(rel.encode() + b"\0" + files[rel].encode() + b"\0")
    return h.hexdigest()[:16]


def default_cache() -> Path:
    return cache_root() / "builds"


def file_hash(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def cached_binary(binary: Path) -> bool:
    """Whether `binary` is a complete build: a regular executable file whose hash is the one recorded after it
    was built."""
    stamp = binary.with_name("chain.sha256")
    try:
        return (
            binary.is_file()
            and os.access(binary, os.X_OK)
            and stamp.is_file()
            and stamp.read_text().strip() == file_hash(binary)
        )
    except (OSError, UnicodeDecodeError):
        return False


def build_project(files: dict[str, str], cache: Path | None = None, sanitize: str = "") -> tuple[Path, bool]:
    """(path of the built `chain` binary, whether it came from the cache). sanitize: '', address, thread."""
    base = cache or default_cache()
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise FileSystemError(error, "the build cache (CHAINLAB_CACHE) cannot be used:") from error
    root = base / (content_hash(files, sanitize) + (f"-{sanitize}" if sanitize else ""))
    binary = root / "build" / "chain"
    if cached_binary(binary):
        return binary, True
    binary.with_name("chain.sha256").unlink(missing_ok=True)
    binary.unlink(missing_ok=True)  # a broken one: cmake would not relink an unchanged project
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
    write_atomic(binary.with_name("chain.sha256"), file_hash(binary) + "\n")
    return binary, False
