"""A checked dataflow graph as a box chain: actors become boxes (kernel by their shape), channels connections,
execution times costs, an actor that runs on equal slices of a frame a `split rows` box; one graph iteration is one
frame."""

from __future__ import annotations

import math
from fractions import Fraction
from pathlib import Path

from chainlab.files import IMPORTED_MODEL
from chainlab.interchange.chain_text import BoxText, ChainText, ImageText, chain_name, duration_text, print_chain
from chainlab.interchange.dataflow import DataflowGraph, DfActor, check_graph
from chainlab.interchange.result import ImportResult

#: What a chain runs on when the file names no platform.
DEFAULT_CORES = 4
#: The frame when the file gives no token sizes: the X-ray detector frame of the samples.
DEFAULT_IMAGE = ImageText("Frame", 1024, 1024, "u16")
#: The largest frame read: chains move frames through memory.
MAX_FRAME_BYTES = 1 << 30


def import_result(graph: DataflowGraph, path: str, what: str, format: str) -> ImportResult:
    """The chain of `graph` as the result of an import: the text and the notes.

    Raises
    ------
    chainlab.interchange.xml_input.ImportRefused
        What `graph_to_chain` refuses, or a text above the size of a .chain file (4 MiB).
    """
    chain = graph_to_chain(graph, path, what)
    text = print_chain(chain)
    if len(text.encode()) > IMPORTED_MODEL.limit:
        raise graph.doc.error(
            graph.doc.root, f"the chain would be {len(text.encode())} bytes: a .chain has at most 4 MiB"
        )
    return ImportResult(text, format, chain.notes)


def graph_to_chain(graph: DataflowGraph, path: str, what: str) -> ChainText:
    """The chain of a graph a reader filled (checked here first).

    Parameters
    ----------
    graph
        The graph; its notes are the reader's.
    path
        The file it came from (named in the first comment).
    what
        The format, in words (``SDF3``).

    Returns
    -------
    ChainText
        The chain with every note of the reader and of the mapping.

    Raises
    ------
    chainlab.interchange.xml_input.ImportRefused
        What `check_graph` refuses, or an actor whose number of inputs and outputs no kernel has.
    """
    repetitions = check_graph(graph)
    notes = list(graph.notes)
    name = chain_name(graph.name or Path(path).stem, set(), capital=True)
    platform = chain_name(f"{name}PC", {name}, capital=True)
    instances = _instances(graph, notes)
    boxes, ports = _boxes(graph, repetitions, {name, platform, DEFAULT_IMAGE.name, *instances.values()}, notes)
    connections = [
        (
            (instances[c.src], ports[(c.src, c.src_port, "out")]),
            (instances[c.dst], ports[(c.dst, c.dst_port, "in")]),
        )
        for c in graph.channels
    ]
    notes.append(f"platform {platform}: {DEFAULT_CORES} cores assumed (the file describes no platform a chain runs on)")
    return ChainText(
        name=name,
        platform=platform,
        cores=DEFAULT_CORES,
        image=_image(graph, repetitions, notes),
        boxes=boxes,
        instances=[(instances[a.name], b.name) for a, b in zip(graph.actors, boxes, strict=True)],
        connections=connections,
        header=f"Imported from {what} {Path(path).name} by chainlab import; one graph iteration is one frame.",
        notes=notes,
    )


def _instances(graph: DataflowGraph, notes: list[str]) -> dict[str, str]:
    """Each actor's instance name: its own where the grammar accepts it."""
    instances: dict[str, str] = {}
    taken: set[str] = set()
    for actor in graph.actors:
        instances[actor.name] = chain_name(actor.name, taken)
        if instances[actor.name] != actor.name:
            notes.append(f"actor '{actor.name}' is instance '{instances[actor.name]}' (a name the language accepts)")
    return instances


def _boxes(
    graph: DataflowGraph, repetitions: dict[str, int], taken: set[str], notes: list[str]
) -> tuple[list[BoxText], dict[tuple[str, str, str], str]]:
    """One box per actor (named after its type where no other actor has it) and each port's printed name."""
    types = [a.type for a in graph.actors if a.type]
    period_ns = _ns(graph, graph.period, "sources' period", notes) if graph.period is not None else None
    boxes: list[BoxText] = []
    ports: dict[tuple[str, str, str], str] = {}
    for actor in graph.actors:
        raw = actor.type if actor.type and types.count(actor.type) == 1 else actor.name
        box = _box(graph, actor, chain_name(raw, taken, capital=True), repetitions[actor.name], notes)
        if box.kernel == "source":
            box.period_ns = period_ns
        boxes.append(box)
        for port, printed in zip(actor.inputs, box.inputs, strict=True):
            ports[(actor.name, port.name, "in")] = printed
        for port, printed in zip(actor.outputs, box.outputs, strict=True):
            ports[(actor.name, port.name, "out")] = printed
    _slice_notes(graph, repetitions, boxes, notes)
    if period_ns is None:
        notes.append("the file constrains no period or throughput: the sources are free-running (kernel source)")
    connected = {(c.src, c.src_port) for c in graph.channels}
    notes += [
        f"output port '{port.name}' of actor '{actor.name}' has no channel: its frames are discarded"
        for actor in graph.actors
        for port in actor.outputs
        if (actor.name, port.name) not in connected
    ]
    return boxes, ports


def _kernel(graph: DataflowGraph, actor: DfActor) -> str:
    inputs, outputs = len(actor.inputs), len(actor.outputs)
    if inputs == 0 and outputs > 0:
        return "source"
    if inputs > 0 and outputs == 0:
        return "sink"
    if inputs == 1:
        return "copy" if outputs == 1 else "dup"
    if inputs == 2 and outputs == 1:
        return "add"
    raise graph.doc.error(
        actor.element,
        f"actor '{actor.name}' has {inputs} input(s) and {outputs} output(s): no chainlab kernel has that shape "
        "(a source, a sink, 1 input with 1 or more outputs, or 2 inputs with 1 output)",
    )


def _box(graph: DataflowGraph, actor: DfActor, name: str, firings: int, notes: list[str]) -> BoxText:
    kernel = _kernel(graph, actor)
    taken: set[str] = set()
    box = BoxText(
        name=name,
        inputs=[chain_name(p.name, taken) for p in actor.inputs],
        outputs=[chain_name(p.name, taken) for p in actor.outputs],
        kernel=kernel,
    )
    if firings > 1 and kernel in ("source", "sink"):
        notes.append(
            f"actor '{actor.name}' fires {firings} times per frame; a chain's {kernel} runs once per frame: "
            f"box {name} is not split and its cost is that of the {firings} firings"
        )
    elif firings > 1:
        box.split = "rows"
    if actor.time is None:
        notes.append(f"actor '{actor.name}' has no execution time: box {name} has no cost")
    elif actor.time == 0:
        notes.append(f"actor '{actor.name}' takes no time: box {name} has no cost (a cost is positive)")
    else:
        box.cost_ns = _ns(graph, actor.time * firings, f"cost of box {name}", notes)
    return box


def _slice_notes(graph: DataflowGraph, repetitions: dict[str, int], boxes: list[BoxText], notes: list[str]) -> None:
    """One note per number of slices: which actors became `split rows` boxes."""
    by_firings: dict[int, list[str]] = {}
    for actor, box in zip(graph.actors, boxes, strict=True):
        if box.split == "rows":
            by_firings.setdefault(repetitions[actor.name], []).append(f"{actor.name} ({box.name})")
    for firings, names in sorted(by_firings.items()):
        notes.append(
            f"{', '.join(names)} fire{'s' if len(names) == 1 else ''} {firings} times per frame on equal slices: "
            f"'split rows depends pointwise' with the cost of the {firings} firings (the planner chooses the slices)"
        )


def _ns(graph: DataflowGraph, time: Fraction, what: str = "", notes: list[str] | None = None) -> int:
    exact = time * graph.unit_ns
    whole = max(1, round(exact))
    # a period from a throughput is a decimal fraction: a rounding below 0.01 ns is no news
    if abs(whole - exact) > Fraction(1, 100) and notes is not None:
        notes.append(f"the {what} is rounded to whole nanoseconds: {duration_text(whole)}")
    return whole


def _image(graph: DataflowGraph, repetitions: dict[str, int], notes: list[str]) -> ImageText:
    """One image type for every connection (chainlab's kernels keep the image size): the frame a channel carries per
    iteration, its tokens times their size, in a near-square shape."""
    sizes: dict[int, str] = {}
    for channel in graph.channels:
        if channel.token_bits is None:
            continue
        src = graph.actor(channel.src)
        assert src is not None
        port = src.port(channel.src_port, "out")
        assert port is not None
        bits = repetitions[channel.src] * port.rate * channel.token_bits
        if bits > 8 * MAX_FRAME_BYTES:
            raise graph.doc.error(
                channel.element, f"channel '{channel.name}' carries {bits // 8} B per frame (at most 1 GiB)"
            )
        sizes.setdefault(math.ceil(bits / 8), channel.name)
    if not sizes:
        image = DEFAULT_IMAGE
        notes.append(
            f"the file gives no token sizes: every connection carries image {image.name}, {image.width} x "
            f"{image.height} of {image.pixel}, assumed"
        )
        return image
    frame = max(sizes)
    if len(sizes) > 1:
        listed = ", ".join(f"{size} B ('{name}')" for size, name in sorted(sizes.items()))
        notes.append(f"channels carry frames of different sizes ({listed}): every connection is the largest")
    pixel, bytes_per_pixel = ("u16", 2) if frame % 2 == 0 else ("u8", 1)
    pixels = frame // bytes_per_pixel
    height = max(h for h in range(1, math.isqrt(pixels) + 1) if pixels % h == 0)
    shape = f"{pixels // height} x {height} of {pixel}"
    notes.append(
        f"a frame is {frame} B (tokens per iteration times the token size): image Frame {shape}, a shape assumed"
    )
    return ImageText(DEFAULT_IMAGE.name, pixels // height, height, pixel)
