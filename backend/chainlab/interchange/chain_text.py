"""An imported box chain and its .chain text: platform, image type, one box per actor (ports, kernel, split, cost),
the chain with its connections, and what the import assumed or left out as `//` comments at the top."""

from __future__ import annotations

import re
import textwrap
from dataclasses import dataclass, field
from decimal import Decimal

from chainlab.interchange.dsl_words import RESERVED


@dataclass
class ImageText:
    name: str
    width: int
    height: int
    pixel: str


@dataclass
class BoxText:
    """One box: `kernel` is source, sink, copy, dup or add (the shapes an actor can have); `split` rows or none."""

    name: str
    inputs: list[str]
    outputs: list[str]
    kernel: str
    split: str = "none"
    cost_ns: int | None = None
    period_ns: int | None = None


@dataclass
class ChainText:
    """An imported chain, ready to print.

    Attributes
    ----------
    header : str
        What was imported from where (the first comment line).
    instances : list of (instance, box)
    connections : list of ((instance, port), (instance, port))
    notes : list of str
        What the import expanded, assumed or left out.
    """

    name: str
    platform: str
    cores: int
    image: ImageText
    boxes: list[BoxText]
    instances: list[tuple[str, str]]
    connections: list[tuple[tuple[str, str], tuple[str, str]]]
    header: str = ""
    notes: list[str] = field(default_factory=list)


def chain_name(raw: str, taken: set[str], *, capital: bool = False) -> str:
    """A name the grammar accepts, made from `raw` (other characters become `_`), not in `taken`; it is added there.

    Parameters
    ----------
    raw
        The name in the other tool's file.
    taken
        Names already used in the same scope.
    capital
        CamelCase (box, chain and type names) instead of the raw spelling (instances, ports).
    """
    name = re.sub(r"\W", "_", raw, flags=re.ASCII)
    if capital:
        name = "".join(part[:1].upper() + part[1:] for part in name.split("_") if part)
    if not name or name[0].isdigit() or name in RESERVED:
        name = ("N" if capital else "n_") + name
    base, counter = name, 2
    while name in taken:
        name, counter = f"{base}{counter}", counter + 1
    taken.add(name)
    return name


def duration_text(ns: int) -> str:
    """An exact duration in the largest unit that keeps it short: 1200000 → ``1.2 ms``, 800 → ``800 ns``."""
    for unit, scale in (("s", 10**9), ("ms", 10**6), ("us", 10**3)):
        if ns >= scale:
            value = Decimal(ns) / Decimal(scale)
            text = format(value.normalize(), "f")
            return f"{text} {unit}"
    return f"{ns} ns"


def print_chain(chain: ChainText) -> str:
    """The .chain text of `chain` (it passes ``chainlab check``).

    Parameters
    ----------
    chain
        The imported chain.

    Returns
    -------
    str
        Comments (header and one per note), platform, image, boxes, the chain; ends with a newline.
    """
    lines = [f"// {chain.header}"] if chain.header else []
    for note in chain.notes:
        lines += textwrap.wrap(note, 116, initial_indent="// - ", subsequent_indent="//   ", break_on_hyphens=False)
    image = chain.image
    lines += [
        "",
        f"platform {chain.platform} {{",
        f"    cores {chain.cores}",
        "}",
        "",
        f"image {image.name} {image.width} x {image.height} of {image.pixel}",
    ]
    for box in chain.boxes:
        lines += ["", *_box_lines(box, image.name)]
    lines += ["", f"chain {chain.name} on {chain.platform} {{"]
    width = max((len(i) for i, _ in chain.instances), default=0) + 1
    lines += [f"    {(name + ':').ljust(width)} {box}" for name, box in chain.instances]
    if chain.connections:
        lines.append("")
        ends = [f"{a}.{ap}" for (a, ap), _ in chain.connections]
        pad = max(len(e) for e in ends)
        lines += [
            f"    {end.ljust(pad)} -> {b}.{bp}" for end, (_, (b, bp)) in zip(ends, chain.connections, strict=True)
        ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _box_lines(box: BoxText, image: str) -> list[str]:
    ports = [("in", p) for p in box.inputs] + [("out", p) for p in box.outputs]
    width = max(len(p) for _, p in ports) + 1
    lines = [f"box {box.name} {{"]
    lines += [f"    {d.ljust(3)} {(p + ':').ljust(width)} {image}" for d, p in ports]
    if box.kernel == "source" and box.period_ns:
        lines.append(f"    source period {duration_text(box.period_ns)}")
    else:
        lines.append(f"    kernel {box.kernel}")
    lines.append("    split rows  depends pointwise" if box.split == "rows" else "    split none")
    if box.cost_ns:
        lines.append(f"    cost {duration_text(box.cost_ns)}")
    lines.append("}")
    return lines
