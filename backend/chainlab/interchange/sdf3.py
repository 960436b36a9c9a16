"""SDF3 (`<sdf3 type="sdf">`) as a box chain: the application graph's actors, ports and rates, channels with initial
tokens, the execution times of one processor type, token sizes and the throughput constraint."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from xml.etree.ElementTree import Element

from chainlab.interchange.dataflow import (
    TIME_UNITS_NS,
    DataflowGraph,
    DfActor,
    DfChannel,
    DfPort,
    attribute,
    time_value,
    whole_number,
)
from chainlab.interchange.dataflow_chain import import_result
from chainlab.interchange.result import ImportResult
from chainlab.interchange.xml_input import XmlDocument, local_name, read_xml

#: Parts of an SDF3 file that say nothing a chain can use: named in a note, not read.
_LEFT_OUT = {"architectureGraph", "mapping", "systemUsage", "settings", "messagesSet"}
_LEFT_OUT_PROPERTIES = {"memory", "bufferSize", "bandwidth", "latency", "stateSize"}


def import_sdf3(path: str) -> ImportResult:
    """Reads an SDF3 file as a box chain.

    Parameters
    ----------
    path
        An SDF3 XML file (root ``<sdf3 type="sdf">``), at most 4 MiB.

    Returns
    -------
    ImportResult
        The .chain text (it passes ``chainlab check``) and the notes on what was assumed or left out.

    Raises
    ------
    chainlab.interchange.xml_input.ImportRefused
        Malformed XML, a DOCTYPE, another root or type, an unknown element, a channel naming an unknown actor or port,
        a negative time, or a construct a chain cannot express; the message names file, line, column and element.
    chainlab.files.UserFileError
        The file is missing, not a regular file or larger than 4 MiB.
    """
    doc = read_xml(path)
    graph = read_sdf3(doc)
    return import_result(graph, path, "SDF3", "sdf3")


def read_sdf3(doc: XmlDocument) -> DataflowGraph:
    """The dataflow graph of a parsed SDF3 file (not yet checked: see `check_graph`)."""
    root = doc.root
    if local_name(root.tag) != "sdf3":
        raise doc.error(root, 'not an SDF3 file: the root element is not <sdf3 type="sdf">')
    if root.get("type", "sdf") != "sdf":
        raise doc.error(root, f'type "{root.get("type", "")[:40]}" is not read: only synchronous dataflow (type="sdf")')
    application = None
    for child in root:
        tag = local_name(child.tag)
        if tag == "applicationGraph" and application is None:
            application = child
        elif tag not in _LEFT_OUT:
            raise doc.error(child, "unknown or repeated element of <sdf3>: one <applicationGraph> is read")
    if application is None:
        raise doc.error(root, "has no <applicationGraph>")
    sdf = _only(doc, application, "sdf", {"sdfProperties"})
    graph = DataflowGraph(sdf.get("name") or application.get("name") or Path(doc.path).stem, doc)
    left_out = sorted({local_name(c.tag) for c in root if local_name(c.tag) in _LEFT_OUT})
    if left_out:
        graph.notes.append(f"left out (no chain equivalent): {', '.join(f'<{t}>' for t in left_out)}")
    for child in sdf:
        tag = local_name(child.tag)
        if tag == "actor":
            graph.actors.append(_actor(doc, child))
        elif tag == "channel":
            graph.channels.append(_channel(doc, child))
        else:
            raise doc.error(child, "unknown element of <sdf>: it has <actor> and <channel>")
    properties = next((c for c in application if local_name(c.tag) == "sdfProperties"), None)
    if properties is None:
        graph.notes.append("the file has no <sdfProperties>: no execution times, token sizes or throughput")
    else:
        _properties(doc, properties, graph)
    return graph


def _only(doc: XmlDocument, parent: Element, tag: str, others: set[str]) -> Element:
    found = None
    for child in parent:
        name = local_name(child.tag)
        if name == tag and found is None:
            found = child
        elif name not in others:
            raise doc.error(child, f"unknown or repeated element of <{local_name(parent.tag)}>")
    if found is None:
        raise doc.error(parent, f"has no <{tag}>")
    return found


def _actor(doc: XmlDocument, element: Element) -> DfActor:
    ports = []
    for child in element:
        if local_name(child.tag) != "port":
            raise doc.error(child, "unknown element of <actor>: it has <port>s")
        direction = attribute(doc, child, "type")
        if direction not in ("in", "out"):
            raise doc.error(child, f'port type "{direction[:40]}" is neither in nor out')
        ports.append(DfPort(attribute(doc, child, "name"), direction, whole_number(doc, child, "rate", 1), child))
    return DfActor(attribute(doc, element, "name"), ports, element, type=element.get("type"))


def _channel(doc: XmlDocument, element: Element) -> DfChannel:
    for child in element:
        raise doc.error(child, "unknown element of <channel>")
    return DfChannel(
        name=attribute(doc, element, "name"),
        src=attribute(doc, element, "srcActor"),
        src_port=attribute(doc, element, "srcPort"),
        dst=attribute(doc, element, "dstActor"),
        dst_port=attribute(doc, element, "dstPort"),
        element=element,
        initial_tokens=whole_number(doc, element, "initialTokens", 0),
    )


def _properties(doc: XmlDocument, properties: Element, graph: DataflowGraph) -> None:
    unit = properties.get("timeUnit")
    if unit is not None:
        if unit not in TIME_UNITS_NS:
            raise doc.error(properties, f'timeUnit "{unit[:40]}" is not one of {", ".join(TIME_UNITS_NS)}')
        graph.unit_ns = TIME_UNITS_NS[unit]
        graph.notes.append(f"execution times and the throughput are in {unit} (timeUnit)")
    else:
        graph.notes.append("SDF3 times are in time units of the application: read as µs (no timeUnit given)")
    chosen: set[str] = set()
    channels = {c.name: c for c in reversed(graph.channels)}
    for child in properties:
        tag = local_name(child.tag)
        if tag == "actorProperties":
            _actor_properties(doc, child, graph, chosen)
        elif tag == "channelProperties":
            _channel_properties(doc, child, channels)
        elif tag == "graphProperties":
            _graph_properties(doc, child, graph)
        else:
            raise doc.error(child, "unknown element of <sdfProperties>")
    for processor in sorted(chosen):
        graph.notes.append(f"execution times of processor type {processor}")


def _actor_properties(doc: XmlDocument, element: Element, graph: DataflowGraph, chosen: set[str]) -> None:
    name = attribute(doc, element, "actor")
    actor = graph.actor(name)
    if actor is None:
        raise doc.error(element, f"names an unknown actor '{name}'")
    processors = [c for c in element if local_name(c.tag) == "processor"]
    for child in element:
        if local_name(child.tag) != "processor":
            raise doc.error(child, "unknown element of <actorProperties>: it has <processor>s")
    if not processors:
        return
    processor = next((p for p in processors if p.get("default") == "true"), processors[0])
    for child in processor:
        tag = local_name(child.tag)
        if tag == "executionTime":
            actor.time = time_value(doc, child, attribute(doc, child, "time"), "execution time")
        elif tag not in _LEFT_OUT_PROPERTIES:
            raise doc.error(child, "unknown element of <processor>")
    how = "the default" if processor.get("default") == "true" else "the first listed, none is the default"
    chosen.add(f"'{processor.get('type') or '(no type)'}' ({how})")


def _channel_properties(doc: XmlDocument, element: Element, channels: dict[str, DfChannel]) -> None:
    name = attribute(doc, element, "channel")
    channel = channels.get(name)
    if channel is None:
        raise doc.error(element, f"names an unknown channel '{name}'")
    for child in element:
        tag = local_name(child.tag)
        if tag == "tokenSize":
            # SDF3 gives token sizes in bits
            channel.token_bits = whole_number(doc, child, "sz")
        elif tag not in _LEFT_OUT_PROPERTIES:
            raise doc.error(child, "unknown element of <channelProperties>")


def _graph_properties(doc: XmlDocument, element: Element, graph: DataflowGraph) -> None:
    for child in element:
        if local_name(child.tag) != "timeConstraints":
            raise doc.error(child, "unknown element of <graphProperties>")
        for constraint in child:
            if local_name(constraint.tag) != "throughput":
                raise doc.error(constraint, "unknown element of <timeConstraints>: it has <throughput>")
            throughput = time_value(doc, constraint, constraint.text or "", "throughput")
            if throughput == 0:
                raise doc.error(constraint, "a throughput of 0 iterations per time unit is no period")
            graph.period = 1 / Fraction(throughput)
            graph.notes.append(
                "the throughput constraint (iterations per time unit) is the sources' period: one frame per iteration"
            )
