"""Synthetic image-processing chains, like the thesis' generator (thesis §3.5.2, papers §V-B).

What the thesis states: "random graphs that have similar characteristics as the actual image
processing chains ... roughly 100 boxes with a topology that resembles the topology of the actual
image processing chain ... the number of input and output boxes was chosen to match with some of
the interventional X-ray scenarios ... each box was associated with a random image processing
algorithm such as: averaging, addition and convolution." The algorithm itself is not given; this
is ours (seeded, deterministic for a seed):

- 1 to 3 inputs (periodic or free-running sources) and 1 to 3 outputs (sinks), drawn from the seed
  unless given;
- the middle boxes grow a set of open streams, mostly as pipelines: each new box reads one of the
  most recent streams (image chains are long pipelines), sometimes branches (the stream stays open
  and feeds another box later, e.g. a background estimate next to the detail path) and sometimes
  merges two streams with `add`; the number of open streams is kept small (<= 5), as in a chain;
- kernels: average (temporal, 2/4/8 frames), convolution (3x3, 5x5, 7x7, depends halo (k-1)/2)
  and add, all split into row slices; sources and sinks are not split;
- at the end every open stream goes to an output; each output gets at least one.

Costs are per box type, from a per-pixel model with a seeded +-25 % spread (they only need to
make the planner's choices non-trivial). The text passes `chainlab check` (see tests/plan).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from chainlab.plan.rows import kernel_halo_rows

PIXEL_BYTES = {"u8": 1, "i8": 1, "u16": 2, "i16": 2, "u32": 4, "i32": 4, "int": 4, "f32": 4, "f64": 8}


@dataclass
class _Node:
    name: str
    box: str
    inputs: list[str]  # port names
    output: str | None


@dataclass
class BoxSpec:
    name: str
    inputs: list[str]
    outputs: list[str]
    kernel: str
    args: list[float]
    split: str
    depends: str
    halo: int
    cost_us: int
    period_ms: float | None

    def text(self) -> str:
        ports = [f"in {p}: Frame" for p in self.inputs] + [f"out {p}: Frame" for p in self.outputs]
        if self.kernel == "source":
            kernel = f"source period {self.period_ms:g} ms" if self.period_ms else "kernel source"
        else:
            kernel = f"kernel {self.kernel}" + (f"({', '.join(f'{a:g}' for a in self.args)})" if self.args else "")
        depends = (
            ""
            if self.split == "none"
            else f"  depends {self.depends}" + (f" {self.halo}" if self.depends == "halo" else "")
        )
        return (
            f"box {self.name} {{ {'  '.join(ports)}  {kernel}  split {self.split}{depends}  cost {self.cost_us} us }}"
        )


@dataclass
class SynthChain:
    name: str
    seed: int
    width: int
    height: int
    pixel: str
    threads: int
    heuristic: str
    memory: str
    boxes: dict[str, BoxSpec]
    nodes: list[_Node]
    connections: list[tuple[str, str]]
    n_in: int
    n_out: int


def synth_chain_text(boxes: int = 100, seed: int = 0, **options: Any) -> str:
    """`.chain` source of one synthetic chain with `boxes` box instances (sources and sinks included).
    Options: threads=4, heuristic="reduced", memory="reuse", width=512, height=512, pixel="u16",
    period_ms=None (free-running sources), inputs=None, outputs=None (drawn from the seed), name="Synth"."""
    return render_text(generate(boxes, seed, **options))


def generate(
    boxes: int = 100,
    seed: int = 0,
    *,
    threads: int = 4,
    heuristic: str = "reduced",
    memory: str = "reuse",
    width: int = 512,
    height: int = 512,
    pixel: str = "u16",
    period_ms: float | None = None,
    inputs: int | None = None,
    outputs: int | None = None,
    name: str = "Synth",
) -> SynthChain:
    """The chain as data (see `render_text`, `render_ir`)."""
    if pixel not in PIXEL_BYTES:
        raise ValueError(f"unknown pixel type {pixel!r} (one of {', '.join(PIXEL_BYTES)})")
    rng = random.Random(seed)
    n_in = inputs if inputs is not None else rng.choice([1, 1, 2, 2, 3])
    n_out = outputs if outputs is not None else rng.choice([1, 2, 2, 3])
    if n_in < 1 or n_out < 1:
        raise ValueError("a chain needs at least one input and one output")
    # a small chain gets fewer inputs and outputs than drawn (those not asked for): 3 boxes make in -> box -> out
    while boxes < n_in + n_out + 1 and ((inputs is None and n_in > 1) or (outputs is None and n_out > 1)):
        if outputs is None and n_out >= n_in:
            n_out -= 1
        else:
            n_in -= 1
    if boxes < n_in + n_out + 1:
        raise ValueError(f"{boxes} boxes are too few for {n_in} input(s), {n_out} output(s) and one processing box")
    pixels = width * height
    spread = {
        k: rng.uniform(0.75, 1.25) for k in ("src", "avg2", "avg4", "avg8", "add", "conv3", "conv5", "conv7", "sink")
    }

    def cost_us(kind: str, ns_per_pixel: float) -> int:
        return max(1, round(ns_per_pixel * pixels * spread[kind] / 1000))

    box_defs: dict[str, BoxSpec] = {}

    def define(box: str, inputs_: list[str], kernel: str, args: list[float], depends: str, halo: int, cost: int) -> str:
        split = "none" if kernel in ("source", "sink") else "rows"
        outputs_ = [] if kernel == "sink" else ["o"]
        box_defs.setdefault(
            box,
            BoxSpec(
                box,
                inputs_,
                outputs_,
                kernel,
                args,
                split,
                depends,
                halo,
                cost,
                period_ms if kernel == "source" else None,
            ),
        )
        return box

    nodes: list[_Node] = []
    connections: list[tuple[str, str]] = []
    open_streams: list[str] = []  # "instance.port", most recent last
    for i in range(n_in):
        define("Src", [], "source", [], "none", 0, cost_us("src", 0.3))
        nodes.append(_Node(f"in{i}", "Src", [], "o"))
        open_streams.append(f"in{i}.o")

    def pick(exclude: str | None = None) -> str:
        candidates = [s for s in open_streams if s != exclude]
        recent = candidates[-3:]
        weights = [1, 2, 4][-len(recent) :]
        return rng.choices(recent, weights=weights)[0] if rng.random() < 0.85 else rng.choice(candidates)

    def use(stream: str) -> None:
        fork = 0.3 if len(open_streams) < 3 else 0.12 if len(open_streams) < 5 else 0.0
        if rng.random() >= fork:
            open_streams.remove(stream)

    for j in range(boxes - n_in - n_out):
        name_j = f"b{j + 1}"
        roll = rng.random()
        p_add = 0.15 if len(open_streams) < 3 else 0.45 if len(open_streams) < 5 else 0.9
        if len(open_streams) >= 2 and roll < p_add:
            a = pick()
            b = pick(exclude=a)
            define("Add", ["a", "b"], "add", [], "pointwise", 0, cost_us("add", 0.5))
            nodes.append(_Node(name_j, "Add", ["a", "b"], "o"))
            connections += [(a, f"{name_j}.a"), (b, f"{name_j}.b")]
            use(a)
            use(b)
        else:
            src = pick()
            if rng.random() < 0.5:
                k = rng.choice([3, 3, 5, 5, 7])
                box = define(
                    f"Conv{k}",
                    ["i"],
                    "convolution",
                    [k],
                    "halo",
                    kernel_halo_rows("convolution", [k]),
                    cost_us(f"conv{k}", 0.09 * k * k),
                )
            else:
                frames = rng.choice([2, 4, 8])
                box = define(f"Avg{frames}", ["i"], "average", [frames], "pointwise", 0, cost_us(f"avg{frames}", 0.5))
            nodes.append(_Node(name_j, box, ["i"], "o"))
            connections.append((src, f"{name_j}.i"))
            use(src)
        open_streams.append(f"{name_j}.o")

    # Outputs: every open stream goes to a sink; every sink reads at least one stream.
    feeds: list[list[str]] = [[] for _ in range(n_out)]
    streams = list(open_streams)
    rng.shuffle(streams)
    for idx, s in enumerate(streams):
        feeds[idx % n_out if idx < n_out else rng.randrange(n_out)].append(s)
    produced = [f"{n.name}.{n.output}" for n in nodes if n.output]
    for f in feeds:
        if not f:  # more outputs than open streams: tap an intermediate result (a display of it)
            f.append(rng.choice(produced[n_in:] or produced))
    for i, f in enumerate(feeds):
        box = define(f"Sink{len(f)}", [f"i{p}" for p in range(len(f))], "sink", [], "none", 0, cost_us("sink", 0.1))
        nodes.append(_Node(f"out{i}", box, [f"i{p}" for p in range(len(f))], None))
        connections += [(s, f"out{i}.i{p}") for p, s in enumerate(f)]

    return SynthChain(
        name, seed, width, height, pixel, threads, heuristic, memory, box_defs, nodes, connections, n_in, n_out
    )


def render_text(chain: SynthChain) -> str:
    c = chain
    lines = [
        f"// Synthetic image-processing chain: {len(c.nodes)} boxes, "
        f"{c.n_in} input(s), {c.n_out} output(s), seed {c.seed}.",
        "// Generated by chainlab synth (backend/chainlab/synth); kernels average, add and convolution.",
        f"platform SynthPC {{ cores {max(c.threads, 4)}  cache L3 8 MiB shared  smt off }}",
        f"image Frame {c.width} x {c.height} of {c.pixel}",
        *(b.text() for b in c.boxes.values()),
        f"chain {c.name} on SynthPC {{",
    ]
    for start in range(0, len(c.nodes), 8):
        lines.append("    " + "  ".join(f"{n.name}: {n.box}" for n in c.nodes[start : start + 8]))
    for start in range(0, len(c.connections), 4):
        lines.append("    " + "   ".join(f"{a} -> {b}" for a, b in c.connections[start : start + 4]))
    lines.append(f"    schedule {c.heuristic} threads {c.threads} cores 0..{c.threads - 1}")
    lines.append(f"    memory {c.memory}")
    lines.append("}")
    return "\n".join(lines) + "\n"


def render_ir(chain: SynthChain) -> dict:
    """The IR the language would export for `render_text(chain)` (locations are synthetic), so tests and
    benchmarks can plan thousands of chains without starting node. tests/plan checks both agree."""
    c = chain
    loc = {"file": f"synth-{c.seed}.chain", "line": 1, "column": 1}
    frame = c.width * c.height * PIXEL_BYTES[c.pixel]
    image = {
        "name": "Frame",
        "loc": loc,
        "width": c.width,
        "height": c.height,
        "pixel": c.pixel,
        "pixel_bytes": PIXEL_BYTES[c.pixel],
        "frame_bytes": frame,
    }
    boxes = []
    for b in c.boxes.values():
        ports = [{"name": p, "direction": "in", "image": "Frame", "loc": loc} for p in b.inputs]
        ports += [{"name": p, "direction": "out", "image": "Frame", "loc": loc} for p in b.outputs]
        boxes.append(
            {
                "name": b.name,
                "loc": loc,
                "kernel": {"name": b.kernel, "args": list(b.args)},
                "ports": ports,
                "split": b.split,
                "depends": {"kind": b.depends, "halo_rows": b.halo},
                "cost_ns": b.cost_us * 1000,
                "etp": None,
                "source_period_ns": round(b.period_ms * 1_000_000) if b.period_ms else None,
            }
        )

    def ref(s: str) -> dict:
        inst, port = s.split(".")
        return {"instance": inst, "port": port}

    chain_ir = {
        "name": c.name,
        "loc": loc,
        "platform": "SynthPC",
        "instances": [{"name": n.name, "box": n.box, "loc": loc} for n in c.nodes],
        "connections": [
            {"from": ref(a), "to": ref(b), "image": "Frame", "bytes": frame, "loc": loc} for a, b in c.connections
        ],
        "schedule": {"heuristic": c.heuristic, "threads": c.threads, "cores": list(range(c.threads))},
        "memory": c.memory,
        "iterations": None,
        "requirements": [],
    }
    return {
        "ir_version": "1.0",
        "source": loc["file"],
        "platforms": [
            {
                "name": "SynthPC",
                "loc": loc,
                "cores": max(c.threads, 4),
                "smt": False,
                "caches": [{"level": "L3", "size_bytes": 8 * 1024 * 1024, "shared": True}],
            }
        ],
        "images": [image],
        "boxes": boxes,
        "chains": [chain_ir],
        "ptts": [],
        "throttles": [],
        "targets": [],
    }


def synth_chain_ir(boxes: int = 100, seed: int = 0, **options: Any) -> dict[str, Any]:
    """IR of `synth_chain_text(boxes, seed, **options)`, built in Python."""
    return render_ir(generate(boxes, seed, **options))
