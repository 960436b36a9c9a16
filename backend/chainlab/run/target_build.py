"""Building on the target: the generated chain and the throttler tools are uploaded and built there with CMake,
cached by the content hash of their sources (a marker file written after a successful build)."""

from __future__ import annotations

import re
from pathlib import Path

from chainlab.codegen import write_project
from chainlab.deploy.transport import Transport, shell_quote
from chainlab.errors import RunError
from chainlab.resources import runtime_sources


def tool_files() -> dict[str, str]:
    """The throttler and the hog as a standalone CMake project (runtime-c/throttle + a top-level file)."""
    files = {
        "CMakeLists.txt": "cmake_minimum_required(VERSION 3.16)\nproject(chainlab_tools C)\nset(CMAKE_C_STANDARD 11)\n"
        "if(NOT CMAKE_BUILD_TYPE)\n  set(CMAKE_BUILD_TYPE Release)\nendif()\n"
        "add_compile_options(-Wall -Wextra -Werror)\n"
        "enable_testing()\nadd_subdirectory(throttle)\n"
    }
    base = runtime_sources() / "throttle"
    for p in sorted(base.rglob("*")):
        if p.is_file() and "build" not in p.relative_to(base).parts:
            files[f"throttle/{p.relative_to(base)}"] = p.read_text()
    return files


def _verify_script(remote: str, products: list[str]) -> str:
    """POSIX sh: true when every product is an executable whose hash is the one recorded after it was built."""
    paths = " ".join(shell_quote(f"{remote}/{p}") for p in products)
    marker = shell_quote(f"{remote}/build/.chainlab-built")
    return f'for p in {paths}; do [ -f "$p" ] && [ -x "$p" ] || exit 1; done; sha256sum -c --status {marker}'


async def build_on_target(
    transport: Transport,
    files: dict[str, str],
    remote: str,
    what: str,
    local_copy: Path,
    products: list[str],
    targets: list[str] | None = None,
) -> bool:
    """Upload and build unless that exact content is already built there, its products (paths under `remote`)
    intact: a truncated, emptied or replaced binary, or one that lost its execute bit, is rebuilt rather than run.
    Returns whether it was cached."""
    marker = f"{remote}/build/.chainlab-built"
    if (await transport.run(["sh", "-c", _verify_script(remote, products)], check=False)).returncode == 0:
        return True
    await transport.run(["rm", "-f", marker, *(f"{remote}/{p}" for p in products)])  # relinked, not trusted
    write_project(files, local_copy)
    await transport.put_tree(local_copy, remote)
    steps = [
        ["cmake", "-S", remote, "-B", f"{remote}/build", "-DCMAKE_BUILD_TYPE=Release"],
        ["cmake", "--build", f"{remote}/build", "-j", "2", *(["--target", *targets] if targets else [])],
    ]
    for argv in steps:
        done = await transport.run(argv, check=False, timeout=600)
        if done.returncode != 0:
            out = done.stdout + done.stderr
            errors = [ln for ln in out.splitlines() if re.search(r":\d+:\d+: (error|warning)", ln)]
            where = "\n".join(errors[:10]) or out.strip()[-3000:]
            raise RunError(
                f"building the {what} on {transport.name} failed:\n{where}\n"
                f"(the generated sources are in {local_copy}; "
                f"full output above the last lines:\n{out.strip()[-2000:]})"
            )
    hashes = " ".join(shell_quote(f"{remote}/{p}") for p in products)
    await transport.run(["sh", "-c", f"sha256sum {hashes} > {shell_quote(marker)}"])
    return False
