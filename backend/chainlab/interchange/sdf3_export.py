"""A box chain of the IR as SDF3 (`<sdf3 type="sdf">`): instances become actors (type: the box), connections
channels, costs execution times; a `split rows` box fires once per slice of S equal slices (S: the chain's threads,
or the largest number below that divides every split box's cost), the sources' period the throughput constraint."""

from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal, localcontext
from typing import Any
from xml.sax.saxutils import quoteattr

from chainlab.errors import ModelError
from chainlab.ir.model import find_chain

#: Kernels SDF3 can say (by the shape of an actor): every other kernel is named in a note.
_SHAPE_KERNELS = {"source", "sink", "copy", "dup", "add"}
#: The processor type every execution time is given for.
PROCESSOR = "cpu"


@dataclass
class Sdf3Export:
    """The SDF3 text of one chain and what it could not say."""

    text: str
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {"text": self.text, "notes": list(self.notes)}


@dataclass
class _Channel:
    name: str
    src: str
    src_port: str
    src_rate: int
    dst: str
    dst_port: str
    dst_rate: int
    token_bits: int
    of_port: str  # the box's output port (src_port is renamed when it feeds several channels)


def export_sdf3(ir: dict[str, Any], chain_name: str) -> Sdf3Export:
    """Writes the box chain `chain_name` of a validated IR as SDF3.

    Parameters
    ----------
    ir
        The model's IR (validated).
    chain_name
        The chain to write.

    Returns
    -------
    Sdf3Export
        The XML text and notes on what SDF3 does not express (kernels, dependencies, schedule, several periods).
    """
    chain = find_chain(ir, chain_name)
    boxes = {b["name"]: b for b in ir["boxes"]}
    of = {i["name"]: boxes[i["box"]] for i in chain["instances"]}
    notes: list[str] = []
    slices = _slices(chain, of, notes)
    firings = {name: slices if _sliced(box) else 1 for name, box in of.items()}
    channels = _channels(chain, firings, notes)
    ports = _ports(chain, of, channels)
    times = {n: b["cost_ns"] // firings[n] for n, b in of.items() if b.get("cost_ns")}
    periods = sorted({b["source_period_ns"] for b in of.values() if b.get("source_period_ns")})
    scale = 1000 if all(t % 1000 == 0 for t in [*times.values(), *periods]) else 1
    if scale == 1:
        notes.append('times are in ns: <sdfProperties timeUnit="ns"> (chainlab\'s attribute; SDF3 reads time units)')
    if len(periods) > 1:
        notes.append(f"the sources have {len(periods)} periods; SDF3 has one throughput: that of the shortest")
    kernels = sorted({b["kernel"]["name"] for b in of.values()} - _SHAPE_KERNELS)
    if kernels:
        notes.append(f"kernels {', '.join(kernels)} are not SDF3's: the actors' type names their box")
    notes.append("depends (halo), the image shape and the schedule are not SDF3's: left out")
    lines = _graph_lines(chain, str(ir.get("source", "")), ports, channels)
    lines += _property_lines(times, channels, periods[0] if periods else None, scale)
    return Sdf3Export("\n".join(lines) + "\n", notes)


def _graph_lines(
    chain: dict[str, Any], source: str, ports: dict[str, list[tuple[str, str, int]]], channels: list[_Channel]
) -> list[str]:
    """From the XML declaration to </sdf>: the actors with their ports, the channels."""
    name = chain["name"]
    lines = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f"<!-- {_comment(f'chain {name} of {source}, written by chainlab export')} -->",
        '<sdf3 type="sdf" version="1.0" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance"'
        ' xsi:noNamespaceSchemaLocation="http://www.es.ele.tue.nl/sdf3/xsd/sdf3-sdf.xsd">',
        f"  <applicationGraph name={quoteattr(name)}>",
        f"    <sdf name={quoteattr(name)} type={quoteattr(name)}>",
    ]
    for instance in chain["instances"]:
        lines.append(f"      <actor name={quoteattr(instance['name'])} type={quoteattr(instance['box'])}>")
        lines += [
            f'        <port name={quoteattr(p)} type={quoteattr(d)} rate="{r}"/>' for p, d, r in ports[instance["name"]]
        ]
        lines.append("      </actor>")
    lines += [
        f"      <channel name={quoteattr(c.name)} srcActor={quoteattr(c.src)} srcPort={quoteattr(c.src_port)}"
        f' dstActor={quoteattr(c.dst)} dstPort={quoteattr(c.dst_port)} initialTokens="0"/>'
        for c in channels
    ]
    lines.append("    </sdf>")
    return lines


def _property_lines(times: dict[str, int], channels: list[_Channel], period_ns: int | None, scale: int) -> list[str]:
    """<sdfProperties> to the end: execution times, token sizes, the throughput."""
    lines = ['    <sdfProperties timeUnit="ns">' if scale == 1 else "    <sdfProperties>"]
    for actor, time in times.items():
        lines += [
            f"      <actorProperties actor={quoteattr(actor)}>",
            f'        <processor type="{PROCESSOR}" default="true">',
            f'          <executionTime time="{time // scale}"/>',
            "        </processor>",
            "      </actorProperties>",
        ]
    lines += [
        f'      <channelProperties channel={quoteattr(c.name)}><tokenSize sz="{c.token_bits}"/></channelProperties>'
        for c in channels
    ]
    if period_ns is not None:
        lines += [
            "      <graphProperties>",
            f"        <timeConstraints><throughput>{_throughput(period_ns, scale)}</throughput></timeConstraints>",
            "      </graphProperties>",
        ]
    return [*lines, "    </sdfProperties>", "  </applicationGraph>", "</sdf3>"]


def _sliced(box: dict[str, Any]) -> bool:
    return bool(box["split"] == "rows" and box["kernel"]["name"] not in ("source", "sink"))


def _slices(chain: dict[str, Any], of: dict[str, dict[str, Any]], notes: list[str]) -> int:
    """S: the chain's threads, or the largest number below that divides every split box's cost (whole firings)."""
    sliced = [b for b in of.values() if _sliced(b)]
    if not sliced:
        return 1
    threads = max(1, int((chain.get("schedule") or {}).get("threads") or 1))
    slices = next(s for s in range(threads, 0, -1) if all((b.get("cost_ns") or 0) % s == 0 for b in sliced))
    if slices == 1:
        notes.append("no slice count divides every split box's cost: 'split rows' boxes fire once per frame")
    else:
        notes.append(
            f"a 'split rows' box fires {slices} times per frame, once per slice (the chain's threads: {threads})"
        )
    return slices


def _channels(chain: dict[str, Any], firings: dict[str, int], notes: list[str]) -> list[_Channel]:
    """One SDF3 channel per connection; an output that feeds several inputs gets one port per connection."""
    used: dict[tuple[str, str], int] = {}
    channels = []
    for index, connection in enumerate(chain["connections"]):
        src, dst = connection["from"], connection["to"]
        tokens = max(firings[src["instance"]], firings[dst["instance"]])
        key = (src["instance"], src["port"])
        used[key] = used.get(key, 0) + 1
        src_port = src["port"] if used[key] == 1 else f"{src['port']}_{used[key]}"
        if used[key] == 2:
            notes.append(f"output {src['instance']}.{src['port']} feeds several inputs: one SDF3 port per channel")
        bits = connection["bytes"] * 8
        if bits % tokens:
            raise ModelError(
                f"connection {src['instance']}.{src['port']} -> {dst['instance']}.{dst['port']}: "
                f"{connection['bytes']} B do not split into {tokens} equal tokens",
                connection.get("loc"),
            )
        channel = _Channel(
            f"ch{index}",
            src["instance"],
            src_port,
            tokens // firings[src["instance"]],
            dst["instance"],
            dst["port"],
            tokens // firings[dst["instance"]],
            bits // tokens,
            src["port"],
        )
        channels.append(channel)
    return channels


def _ports(
    chain: dict[str, Any], of: dict[str, dict[str, Any]], channels: list[_Channel]
) -> dict[str, list[tuple[str, str, int]]]:
    """Each actor's ports in its box's order (an output with several channels: one port each; none: rate 1)."""
    by_port: dict[tuple[str, str, str], list[tuple[str, str, int]]] = {}
    for c in channels:
        by_port.setdefault((c.dst, c.dst_port, "in"), []).append((c.dst_port, "in", c.dst_rate))
        by_port.setdefault((c.src, c.of_port, "out"), []).append((c.src_port, "out", c.src_rate))
    ports: dict[str, list[tuple[str, str, int]]] = {}
    for instance in chain["instances"]:
        name = instance["name"]
        ports[name] = [
            entry
            for port in of[name]["ports"]
            for entry in by_port.get((name, port["name"], port["direction"]), [(port["name"], port["direction"], 1)])
        ]
    return ports


def _throughput(period_ns: int, scale: int) -> str:
    """Iterations per time unit, to 20 significant digits (the import rounds the period to whole ns)."""
    with localcontext() as context:
        context.prec = 20
        return format((Decimal(scale) / Decimal(period_ns)).normalize(), "f")


def _comment(text: str) -> str:
    """Text an XML comment can hold: no `--`, not ending in `-`."""
    while "--" in text:
        text = text.replace("--", "- -")
    return text[:200].rstrip("-")
