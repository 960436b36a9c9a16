"""The backend's tree stays clean: ruff (lint and format) and mypy pass, and the declared dependencies are exactly
the third-party packages chainlab imports."""

from __future__ import annotations

import ast
import re
import subprocess
import sys
import tomllib
from importlib.metadata import packages_distributions
from pathlib import Path

import pytest

BACKEND = Path(__file__).resolve().parents[1]
PACKAGE = BACKEND / "chainlab"
LINTED = ["chainlab", "tests", "../bench"]  # relative to BACKEND

CHECKS = {
    "ruff check": ["ruff", "check", "--no-cache", *LINTED],
    "ruff format": ["ruff", "format", "--check", "--no-cache", *LINTED],
    "mypy": ["mypy"],  # [tool.mypy] in pyproject.toml: files, strictness, cache directory
}


@pytest.mark.parametrize("check", list(CHECKS))
def test_tool_is_clean(check: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", *CHECKS[check]], cwd=BACKEND, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, f"{check} is not clean:\n{(done.stdout + done.stderr)[-20_000:]}"


def _normalized(distribution: str) -> str:
    return re.sub(r"[-_.]+", "-", distribution).lower()


def _distribution(requirement: str) -> str:
    """ "numpy==2.4.6" -> "numpy"."""
    name = re.match(r"[A-Za-z0-9._-]+", requirement)
    assert name, requirement
    return _normalized(name.group())


def declared_dependencies() -> set[str]:
    project = tomllib.loads((BACKEND / "pyproject.toml").read_text())["project"]
    return {_distribution(requirement) for requirement in project["dependencies"]}


def imported_top_level_names() -> dict[str, Path]:
    """Every absolute import's top-level name in chainlab/, with one file that imports it."""
    names: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
            if isinstance(node, ast.Import):
                found = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                found = [node.module]
            else:
                continue
            for name in found:
                names.setdefault(name.split(".")[0], path)
    return names


def third_party_imports() -> dict[str, Path]:
    return {
        name: path
        for name, path in imported_top_level_names().items()
        if name not in sys.stdlib_module_names and name not in ("chainlab", "__future__")
    }


def test_dependencies_are_exactly_what_chainlab_imports() -> None:
    distributions_of = packages_distributions()  # import name -> installed distributions providing it
    declared = declared_dependencies()
    imported: dict[str, str] = {}  # distribution -> import name
    undeclared = []
    for name, path in third_party_imports().items():
        providers = {_normalized(d) for d in distributions_of.get(name, [])}
        if not providers & declared:
            undeclared.append(f"{name} (imported by {path.relative_to(BACKEND)}; installed from {sorted(providers)})")
        for distribution in providers & declared:
            imported[distribution] = name
    unused = sorted(declared - set(imported))
    assert not undeclared, f"imported but not declared in pyproject.toml dependencies: {undeclared}"
    assert not unused, f"declared in pyproject.toml dependencies but never imported by chainlab/: {unused}"
