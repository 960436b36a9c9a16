"""What the SDF3 and PREESM tests share: the language CLI's verdict on written .chain text, and fixture variants."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"
REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
SAMPLES = REPO / "samples" / "import"

needs_node = pytest.mark.skipif(
    shutil.which("node") is None or not (REPO / "language" / "out" / "cli").is_dir(),
    reason="node or the built CLI (cd language && npx tsc -b) missing",
)


def chainlab(*args: str) -> subprocess.CompletedProcess[str]:
    """The language CLI, as users run it."""
    return subprocess.run(["node", str(CLI), *args], capture_output=True, text=True, timeout=120)


def assert_checks(text: str, tmp_path: Path, name: str = "imported.chain") -> Path:
    """Writes `text` and runs `chainlab check` on it: no error and no warning."""
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    out = chainlab("check", str(path))
    said = out.stdout + out.stderr
    assert out.returncode == 0, said
    assert "0 error(s), 0 warning(s)" in said, said
    return path


def variant(tmp_path: Path, fixture: str, old: str, new: str, name: str | None = None) -> Path:
    """`fixture` with `old` (which must occur) replaced by `new`, as a real file."""
    text = (FIXTURES / fixture).read_text(encoding="utf-8")
    assert old in text, old
    path = tmp_path / (name or fixture)
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return path


def without_comments(text: str) -> str:
    """What a chain says: its text without the `//` lines of notes."""
    return "\n".join(line for line in text.splitlines() if not line.startswith("//"))
