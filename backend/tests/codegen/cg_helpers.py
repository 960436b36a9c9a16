"""Helpers of the code-generator tests: sample IR, and a fast build of generated projects
(the runtime compiled once per session; the project's own sources with the flags CMake uses)."""

from __future__ import annotations

import functools
import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from chainlab.codegen import write_project
from chainlab.resources import runtime_sources

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
FLAGS = ["-std=c11", "-O1", "-Wall", "-Wextra", "-Werror", "-pthread"]
RUNTIME_DIR = runtime_sources() / "lib"


def have_tools() -> bool:
    return shutil.which("node") is not None and CLI.exists() and shutil.which("gcc") is not None


@functools.cache
def _ir_text(path: str) -> str:
    out = subprocess.run(
        ["node", str(CLI), "export", str(REPO / path), "--json"], capture_output=True, text=True, timeout=120
    )
    assert out.returncode == 0, out.stderr
    return out.stdout


def sample_ir(path: str) -> dict[str, Any]:
    return json.loads(_ir_text(path))


@functools.cache
def runtime_objects() -> tuple[str, ...]:
    d = Path(tempfile.mkdtemp(prefix="cl-rt-"))
    objs = []
    for src in ("src/rt.c", "src/kernels.c"):
        obj = d / (Path(src).stem + ".o")
        subprocess.run(
            ["gcc", *FLAGS, "-c", str(RUNTIME_DIR / src), "-I", str(RUNTIME_DIR / "include"), "-o", str(obj)],
            check=True,
        )
        objs.append(str(obj))
    return tuple(objs)


def quick_build(files: dict[str, str], directory: Path) -> Path:
    write_project(files, directory)
    binary = directory / "chain"
    srcs = [str(directory / "src" / f) for f in ("main.c", "chain.c", "reference.c")]
    out = subprocess.run(
        [
            "gcc",
            *FLAGS,
            *srcs,
            *runtime_objects(),
            "-I",
            str(directory / "src"),
            "-I",
            str(RUNTIME_DIR / "include"),
            "-o",
            str(binary),
            "-lm",
        ],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 0, out.stderr
    return binary


def run_chain(binary: Path, *args: str, timeout: float = 60) -> tuple[int, str, str]:
    out = subprocess.run([str(binary), *args], capture_output=True, text=True, timeout=timeout, cwd=binary.parent)
    return out.returncode, out.stdout, out.stderr


def checksum(stdout: str) -> str:
    return next(line.split()[1] for line in stdout.splitlines() if line.startswith("checksum"))
