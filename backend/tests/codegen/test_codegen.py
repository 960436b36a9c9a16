"""The generator: every heuristic x allocator computes the sequential reference's checksum; bad plans
are refused with a message; generated code is readable and builds with -Wall -Wextra -Werror."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import time
from pathlib import Path

import pytest
from cg_helpers import checksum, have_tools, quick_build, run_chain, sample_ir

from chainlab.codegen import generate_project, validate_plan
from chainlab.errors import ModelError
from chainlab.plan import PlanOptions, make_plan
from chainlab.plan.model import Plan
from chainlab.synth import synth_chain_ir

pytestmark = pytest.mark.skipif(not have_tools(), reason="needs node, the built CLI and gcc")

HEURISTICS = ["simple", "barrier", "fixed", "predictable", "reduced"]
MEMORIES = ["simple", "reuse"]


def _chain(which: str) -> tuple[dict, str, int]:
    if which == "appendix-a":
        return sample_ir("samples/chains/appendix-a.chain"), "App", 20
    if which == "xray":
        return sample_ir("samples/xray.chain"), "XRay", 4
    ir = synth_chain_ir(14, 5)
    return ir, ir["chains"][0]["name"], 10


def _plan(ir: dict, chain: str, h: str = "fixed", m: str = "simple") -> Plan:
    return make_plan(ir, chain, PlanOptions(heuristic=h, memory=m, threads=2, cores=(0, 1), predict=False))


@pytest.mark.parametrize("which", ["appendix-a", "xray", "synth"])
def test_every_schedule_matches_the_sequential_reference(which: str, tmp_path: Path) -> None:
    ir, chain, iterations = _chain(which)
    sums = {}
    reference = None
    for h in HEURISTICS:
        for m in MEMORIES:
            binary = quick_build(generate_project(_plan(ir, chain, h, m)), tmp_path / f"{h}-{m}")
            rc, out, err = run_chain(binary, "--iterations", str(iterations), "--out", str(binary.parent))
            assert rc == 0, err
            assert f"completed {iterations} of {iterations}" in out
            sums[(h, m)] = checksum(out)
            if reference is None:
                rc, out, err = run_chain(binary, "--iterations", str(iterations), "--reference")
                reference = checksum(out)
    assert set(sums.values()) == {reference}, sums


def test_generated_code_names_sub_boxes_as_the_model() -> None:
    ir, chain, _ = _chain("appendix-a")
    files = generate_project(_plan(ir, chain))
    code = files["src/chain.c"]
    assert "static void sb_f6_0(void *user, uint64_t it)" in code
    assert "/* f6.0: box Gain, kernel gain(2), rows 0..128 of 256" in code
    assert '{"f7.1", sb_f7_1}' in code
    assert "/* thread thread1: W s2, W s6, E f6.1" in code
    assert {
        "CMakeLists.txt",
        "README.md",
        "src/main.c",
        "runtime/src/rt.c",
        "runtime/include/chainlab/kernels.h",
    } <= set(files)


def test_generated_project_builds_with_cmake_and_werror(tmp_path: Path) -> None:
    from chainlab.run import build_project

    ir, chain, _ = _chain("appendix-a")
    binary, cached = build_project(generate_project(_plan(ir, chain, "reduced", "reuse")), tmp_path)
    assert not cached and binary.exists()
    rc, out, err = run_chain(binary, "--iterations", "10")  # runs with no arguments but the count
    assert rc == 0 and "checksum" in out, err
    assert (binary.parent / "latencies.csv").read_text().count("\n") == 11
    header = json.loads((binary.parent / "run.json").read_text())
    assert header["plan"]["heuristic"] == "reduced" and header["machine"]["cores"] >= 1 and header["status"] == "ok"
    assert build_project(generate_project(_plan(ir, chain, "reduced", "reuse")), tmp_path) == (binary, True)


def test_missing_buffer_is_refused() -> None:
    ir, chain, _ = _chain("appendix-a")
    plan = _plan(ir, chain)
    plan.chain.buffers = [b for b in plan.chain.buffers if b.name != "f6.o"]
    with pytest.raises(ModelError, match=r"buffer f6\.o, which the plan does not allocate"):
        validate_plan(plan)


def test_signal_nobody_sends_is_refused() -> None:
    ir, chain, _ = _chain("appendix-a")
    plan = _plan(ir, chain)
    [s2] = [s.id for s in plan.signals if s.name == "s2"]
    for th in plan.thread_plans:
        th.steps = [st for st in th.steps if not (st.op == "signal" and st.ref == s2)]
    with pytest.raises(ModelError, match="signal s2 is waited on by thread thread1 but no thread sends it"):
        validate_plan(plan)


def test_deadlocked_plan_aborts_with_a_watchdog_message(tmp_path: Path) -> None:
    ir, chain, _ = _chain("appendix-a")
    plan = _plan(ir, chain)
    for s in plan.signals:
        s.initial_tokens = 0  # every anti-dependence starts empty: nobody can start
    binary = quick_build(generate_project(plan), tmp_path)
    t = time.monotonic()
    rc, _, err = run_chain(binary, "--iterations", "10", "--watchdog", "0.3", "--out", str(tmp_path))
    assert rc == 3 and "watchdog" in err and "waited on signal" in err
    assert time.monotonic() - t < 10


def test_sigint_keeps_the_latencies_measured_so_far(tmp_path: Path) -> None:
    ir, chain, _ = _chain("appendix-a")
    binary = quick_build(generate_project(_plan(ir, chain)), tmp_path)
    proc = subprocess.Popen(
        [str(binary), "--iterations", "1000000", "--period-ns", "1000000", "--out", str(tmp_path)],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    time.sleep(0.6)
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=10)
    assert proc.returncode == 0, err
    rows = (tmp_path / "latencies.csv").read_text().strip().splitlines()
    # what was measured before the signal is there (how much depends on the machine's load), nothing more
    assert rows[0] == "iteration,start_ns,end_ns" and 2 <= len(rows) < 1_000_000
    assert json.loads((tmp_path / "run.json").read_text())["status"] == "stopped"


@pytest.mark.parametrize("sanitizer", ["address,undefined", "thread"])
def test_sanitized_run_is_clean(sanitizer: str, tmp_path: Path) -> None:
    ir, chain, _ = _chain("appendix-a")
    files = generate_project(_plan(ir, chain, "reduced", "reuse"))
    from chainlab.codegen import write_project

    write_project(files, tmp_path)
    srcs = [
        str(tmp_path / p)
        for p in ("src/main.c", "src/chain.c", "src/reference.c", "runtime/src/rt.c", "runtime/src/kernels.c")
    ]
    build = subprocess.run(
        [
            "gcc",
            "-std=c11",
            "-O1",
            "-g",
            "-Wall",
            "-Wextra",
            "-Werror",
            f"-fsanitize={sanitizer}",
            "-fno-omit-frame-pointer",
            "-pthread",
            *srcs,
            "-I",
            str(tmp_path / "src"),
            "-I",
            str(tmp_path / "runtime/include"),
            "-o",
            str(tmp_path / "chain"),
            "-lm",
        ],
        capture_output=True,
        text=True,
    )
    assert build.returncode == 0, build.stderr
    env = dict(os.environ, UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1", TSAN_OPTIONS="halt_on_error=1")
    out = subprocess.run(
        [str(tmp_path / "chain"), "--iterations", "30", "--out", str(tmp_path)],
        capture_output=True,
        text=True,
        timeout=120,
        env=env,
    )
    if sanitizer == "thread" and "unexpected memory mapping" in out.stderr:
        out = subprocess.run(
            ["setarch", "-R", str(tmp_path / "chain"), "--iterations", "30", "--out", str(tmp_path)],
            capture_output=True,
            text=True,
            timeout=120,
            env=env,
        )
    assert out.returncode == 0 and "Sanitizer" not in out.stderr and "runtime error" not in out.stderr, out.stderr[
        -3000:
    ]
