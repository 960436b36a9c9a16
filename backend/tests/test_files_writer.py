"""chainlab.files' one writer: a result is written whole under a temporary name and renamed, a real failed write
(a file-size limit, RLIMIT_FSIZE, in a child process: write(2) fails with EFBIG as on a full disk) names the file
and leaves the old file or none and no temporary file; and chainlab writes results through it only."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from chainlab.files import atomic_writer, write_atomic, write_atomic_bytes

PACKAGE = Path(__file__).resolve().parents[1] / "chainlab"


def test_a_file_is_written_whole_and_replaced_with_nothing_left_beside_it(tmp_path: Path) -> None:
    target = tmp_path / "report.json"
    write_atomic(target, "old")
    write_atomic(str(target), "néw")
    assert target.read_text(encoding="utf-8") == "néw"
    write_atomic_bytes(tmp_path / "cdf.png", b"\x89PNG")
    with atomic_writer(tmp_path / "rows.csv") as f:
        f.write("a,b\n")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["cdf.png", "report.json", "rows.csv"]
    assert (tmp_path / "cdf.png").read_bytes() == b"\x89PNG"


def test_a_failing_block_leaves_the_old_file(tmp_path: Path) -> None:
    target = tmp_path / "cdf.svg"
    target.write_text("whole")
    with pytest.raises(RuntimeError), atomic_writer(target, "wb") as f:
        f.write(b"half")
        raise RuntimeError("the figure could not be drawn")
    assert target.read_text() == "whole"
    assert [p.name for p in tmp_path.iterdir()] == ["cdf.svg"]


def test_a_missing_folder_names_the_file_not_the_temporary_one(tmp_path: Path) -> None:
    target = tmp_path / "gone" / "report.html"
    with pytest.raises(FileNotFoundError) as failed:
        write_atomic(target, "x")
    assert failed.value.filename == str(target)


LIMITED = """
import resource, sys
from pathlib import Path
from chainlab.files import atomic_writer, write_atomic, write_atomic_bytes

resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))  # Python ignores SIGXFSZ: the write fails with EFBIG
target = Path(sys.argv[1])
try:
    {call}
except OSError as error:
    print(f"{{error.filename}}: {{error.strerror}}")
"""


@pytest.mark.parametrize(
    "call",
    [
        "write_atomic(target, 'x' * 10_000)",
        "write_atomic_bytes(target, b'x' * 10_000)",
        "with atomic_writer(target, 'wb') as f:\n        f.write(b'x' * 3000); f.write(b'x' * 3000)",
    ],
)
def test_a_write_past_the_file_size_limit_names_the_file_and_leaves_the_old_one(tmp_path: Path, call: str) -> None:
    target = tmp_path / "cdf.svg"
    target.write_text("the previous figure")
    script = textwrap.dedent(LIMITED).format(call=call)
    done = subprocess.run([sys.executable, "-c", script, str(target)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == f"{target}: File too large"
    assert target.read_text() == "the previous figure"
    assert [p.name for p in tmp_path.iterdir()] == ["cdf.svg"]


# Writers that are not whole-file results here, by nature: appends (the sweep CSV's rows as they finish, logs), the
# copies to a target's folder (transport.py's put_*; ssh.py's sftp); and two that rename on their own: a generated
# project (written whole into a temporary folder beside it, then renamed into place) and known_hosts (hostkeys.py).
NOT_RESULTS = {
    *("files.py", "sweep/store.py", "deploy/transport.py", "deploy/ssh.py"),
    *("codegen/output.py", "deploy/hostkeys.py"),
}


def _raw_writes(tree: ast.AST) -> list[int]:
    """Lines that write a file other than through chainlab.files: write_text/write_bytes, open(..., "w"/"x"/"+"),
    savefig to a path rather than to a file object, shutil's copies, os.replace/os.rename."""
    lines = []
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
        owner = func.value.id if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) else ""
        modes = node.args[1:2] + [k.value for k in node.keywords if k.arg == "mode"]
        if (
            name in ("write_text", "write_bytes")
            or (owner == "shutil" and name.startswith("copy"))
            or (owner == "os" and name in ("replace", "rename"))
            or (name == "open" and any(isinstance(m, ast.Constant) and set(str(m.value)) & set("wx+") for m in modes))
            or (name == "savefig" and bool(node.args) and not isinstance(node.args[0], ast.Name))
        ):
            lines.append(node.lineno)
    return lines


def test_chainlab_writes_results_through_the_one_writer_only() -> None:
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE).as_posix()
        lines = _raw_writes(ast.parse(path.read_text(), rel))
        if lines and rel not in NOT_RESULTS:
            found[rel] = lines
    assert found == {}, "write results with chainlab.files.write_atomic, write_atomic_bytes or atomic_writer"
    # the check finds what it looks for: the one writer's own rename, and an in-place write
    assert _raw_writes(ast.parse((PACKAGE / "files.py").read_text()))
    assert _raw_writes(ast.parse("fig.savefig(out / 'cdf.svg')\nopen(p, 'w')\nPath(p).write_text(t)")) == [1, 2, 3]
