"""Shared helpers of the planner tests: IR of the sample chains, checks on timed executions."""

from __future__ import annotations

import copy
import functools
import json
import shutil
import subprocess
from pathlib import Path
from typing import Any

import numpy as np

from chainlab.plan.model import Plan
from chainlab.plan.predict import source_flags
from chainlab.plan.simulate import PinnedProgram, simulate_os

REPO = Path(__file__).resolve().parents[3]
CLI = REPO / "language" / "bin" / "chainlab.js"
SAMPLES = REPO / "samples" / "chains"


def node_available() -> bool:
    return shutil.which("node") is not None and CLI.exists()


def export_ir(path: Path) -> dict[str, Any]:
    """The IR of a .chain file, exported by the language CLI."""
    out = subprocess.run(["node", str(CLI), "export", str(path), "--json"], capture_output=True, text=True, timeout=120)
    if out.returncode != 0:
        raise RuntimeError(f"chainlab export {path} failed: {out.stderr or out.stdout}")
    return json.loads(out.stdout)


def _loc(line: int = 1) -> dict[str, Any]:
    return {"file": "appendix-a.chain", "line": line, "column": 1}


def appendix_a_ir_by_hand() -> dict[str, Any]:
    """Appendix A as IR: 256x256 int, source -> gain -> conv(3, halo 1) -> sink, 2 threads, memory simple,
    costs as the listing's timing line read in µs (source 1300, gain 560, conv 100, sink 1)."""
    image = {
        "name": "Img",
        "loc": _loc(),
        "width": 256,
        "height": 256,
        "pixel": "int",
        "pixel_bytes": 4,
        "frame_bytes": 262144,
    }

    def box(name, kernel, args, ins, outs, split, kind, halo, cost_us):
        ports = [{"name": p, "direction": "in", "image": "Img", "loc": _loc()} for p in ins]
        ports += [{"name": p, "direction": "out", "image": "Img", "loc": _loc()} for p in outs]
        return {
            "name": name,
            "loc": _loc(),
            "kernel": {"name": kernel, "args": args},
            "ports": ports,
            "split": split,
            "depends": {"kind": kind, "halo_rows": halo},
            "cost_ns": cost_us * 1000,
            "etp": None,
            "source_period_ns": None,
        }

    def conn(a, ap, b, bp, line):
        return {
            "from": {"instance": a, "port": ap},
            "to": {"instance": b, "port": bp},
            "image": "Img",
            "bytes": 262144,
            "loc": _loc(line),
        }

    return {
        "ir_version": "1.0",
        "source": "appendix-a.chain",
        "platforms": [{"name": "CoreI7_860", "loc": _loc(), "cores": 4, "smt": True, "caches": []}],
        "images": [image],
        "boxes": [
            box("Source", "source", [], [], ["o"], "none", "none", 0, 1300),
            box("Gain", "gain", [2], ["i"], ["o"], "rows", "pointwise", 0, 560),
            box("Conv", "convolution", [3], ["i"], ["o"], "rows", "halo", 1, 100),
            box("Sink", "sink", [], ["i"], [], "none", "none", 0, 1),
        ],
        "chains": [
            {
                "name": "App",
                "loc": _loc(),
                "platform": "CoreI7_860",
                "instances": [
                    {"name": n, "box": b, "loc": _loc(i + 2)}
                    for i, (n, b) in enumerate([("f8", "Source"), ("f6", "Gain"), ("f7", "Conv"), ("f9", "Sink")])
                ],
                "connections": [
                    conn("f8", "o", "f6", "i", 10),
                    conn("f6", "o", "f7", "i", 11),
                    conn("f7", "o", "f9", "i", 12),
                ],
                "schedule": {"heuristic": "fixed", "threads": 2, "cores": [0, 1]},
                "memory": "simple",
                "iterations": None,
                "requirements": [],
            }
        ],
        "ptts": [],
        "throttles": [],
        "targets": [],
    }


@functools.cache
def _sample_ir_cached(name: str) -> str | None:
    path = SAMPLES / f"{name}.chain"
    if not (path.exists() and node_available()):
        return None
    return json.dumps(export_ir(path))


def sample_ir(name: str) -> dict[str, Any] | None:
    """The IR of samples/chains/NAME.chain via the CLI, or None when the sample or node is missing."""
    text = _sample_ir_cached(name)
    return json.loads(text) if text is not None else None


def appendix_a_ir() -> tuple[dict[str, Any], str]:
    """(IR, origin): the sample through the CLI when present, else the IR built here."""
    ir = sample_ir("appendix-a")
    if ir is not None:
        return ir, "samples/chains/appendix-a.chain"
    return appendix_a_ir_by_hand(), "hand-built IR"


def fig35_ir_by_hand() -> dict[str, Any]:
    """Our own rendition of Figure 3.5 if the sample is missing: a source feeding a long lower branch
    gain -> mul -> output and an upper add -> store branch that is ready as early as gain."""
    ir = appendix_a_ir_by_hand()
    ir = copy.deepcopy(ir)
    image = ir["images"][0]
    loc = _loc()

    def box(name, kernel, ins, outs, split, kind, cost_us):
        ports = [{"name": p, "direction": "in", "image": image["name"], "loc": loc} for p in ins]
        ports += [{"name": p, "direction": "out", "image": image["name"], "loc": loc} for p in outs]
        return {
            "name": name,
            "loc": loc,
            "kernel": {"name": kernel, "args": []},
            "ports": ports,
            "split": split,
            "depends": {"kind": kind, "halo_rows": 0},
            "cost_ns": cost_us * 1000,
            "etp": None,
            "source_period_ns": None,
        }

    ir["boxes"] = [
        box("Src", "source", [], ["a", "b", "c"], "none", "none", 500),
        box("Gain", "gain", ["i"], ["o"], "rows", "pointwise", 800),
        box("Mul", "mul", ["x", "y"], ["o"], "rows", "pointwise", 900),
        box("Add", "add", ["x", "y"], ["o"], "rows", "pointwise", 900),
        box("Out", "sink", ["i"], [], "none", "none", 100),
    ]
    inst = [("src", "Src"), ("add", "Add"), ("gain", "Gain"), ("mul", "Mul"), ("output", "Out"), ("store", "Out")]
    conns = [
        ("src", "a", "gain", "i"),
        ("src", "b", "mul", "y"),
        ("gain", "o", "mul", "x"),
        ("mul", "o", "output", "i"),
        ("src", "c", "add", "x"),
        ("src", "c", "add", "y"),
        ("add", "o", "store", "i"),
    ]
    ir["chains"] = [
        {
            "name": "Fig35",
            "loc": loc,
            "platform": "CoreI7_860",
            "instances": [{"name": n, "box": b, "loc": loc} for n, b in inst],
            "connections": [
                {
                    "from": {"instance": a, "port": ap},
                    "to": {"instance": b, "port": bp},
                    "image": image["name"],
                    "bytes": image["frame_bytes"],
                    "loc": loc,
                }
                for a, ap, b, bp in conns
            ],
            "schedule": {"heuristic": "reduced", "threads": 4, "cores": [0, 1, 2, 3]},
            "memory": "reuse",
            "iterations": None,
            "requirements": [],
        }
    ]
    return ir


def random_timings(plan: Plan, rng: np.random.Generator, runs: int, iterations: int, spread: float = 1.5):
    """(start, finish) arrays (runs, iterations, n_subs) of executions with wildly varying execution times."""
    mean = np.array([s.mean_cost_ns for s in plan.inst.subs])
    sources = source_flags(plan)
    period = float(plan.chain.period_ns) if plan.chain.period_ns else None
    sync = float(plan.options.sync_ns)
    if plan.mapping.pinned:
        program = PinnedProgram(
            plan.inst, plan.mapping, plan.signals, barrier=plan.barrier, sync_ns=sync, sources=sources
        )
        draws = [
            mean[:, None] * np.exp(rng.uniform(-spread, spread, size=(len(mean), runs))) for _ in range(iterations)
        ]
        t = program.run(None, iterations, period, record=True, cost_fn=lambda i: draws[i])
        return np.moveaxis(t.start, 2, 0), np.moveaxis(t.finish, 2, 0)
    starts, finishes = [], []
    for _ in range(runs):
        costs = mean[None, :] * np.exp(rng.uniform(-spread, spread, size=(iterations, len(mean))))
        t = simulate_os(
            plan.thread_plans,
            plan.signals,
            len(mean),
            costs,
            iterations,
            cores=len(plan.cores),
            pinned=False,
            period=period,
            sources=sources,
            sync_ns=sync,
            rng=rng,
        )
        starts.append(t.start[:, :, 0])
        finishes.append(t.finish[:, :, 0])
    return np.stack(starts), np.stack(finishes)


def live_overlaps(plan: Plan, start: np.ndarray, finish: np.ndarray) -> list[str]:
    """Pairs of buffers that share memory in the plan and are live at the same time in the given runs."""
    inst, alloc = plan.inst, plan.allocation
    problems = []
    nb = len(inst.writers)
    acc = [sorted(set(w) | set(r)) for w, r in zip(inst.writers, inst.readers)]
    lo = np.stack([start[:, :, inst.writers[b]].min(axis=2) for b in range(nb)])  # (nb, runs, iters)
    hi = np.stack([finish[:, :, acc[b]].max(axis=2) for b in range(nb)])
    for a in range(nb):
        for b in range(a + 1, nb):
            oa, ob = alloc.offsets[a], alloc.offsets[b]
            if oa >= ob + alloc.sizes[b] or ob >= oa + alloc.sizes[a]:
                continue
            both = np.maximum(lo[a][:, :, None], lo[b][:, None, :]) < np.minimum(hi[a][:, :, None], hi[b][:, None, :])
            if both.any():
                problems.append(f"{plan.chain.buffers[a].name} / {plan.chain.buffers[b].name}")
    return problems
