"""PREESM PiSDF (`.pi`, GraphML) with its `.scenario` as a box chain: actors, their data ports and rates (expressions
over static parameters, evaluated), FIFOs, the scenario's timings of one operator type and its data type sizes."""

from __future__ import annotations

import ast
import math
import operator
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path
from xml.etree.ElementTree import Element

from chainlab.interchange.dataflow import DataflowGraph, DfActor, DfChannel, DfPort, attribute, time_value
from chainlab.interchange.dataflow_chain import import_result
from chainlab.interchange.preesm_scenario import Scenario, find_scenario, read_scenario
from chainlab.interchange.result import ImportResult
from chainlab.interchange.xml_input import XmlDocument, local_name, read_xml

#: Node kinds with no chain equivalent, and why.
_REFUSED_KINDS = {
    "delay": "a delay (initial tokens): a chain has no delays",
    "cfg_in_iface": "a configuration input: the graph is a sub-graph whose parameters come from outside",
    "cfg_out_iface": "a configuration output of a sub-graph",
    "src": "an interface of a hierarchical sub-graph: import the top graph",
    "snk": "an interface of a hierarchical sub-graph: import the top graph",
    "fork": "a fork (it divides tokens among its outputs): no chain kernel does that",
    "join": "a join (it concatenates its inputs' tokens): no chain kernel does that",
    "roundbuffer": "a round buffer (it keeps the last tokens): no chain kernel does that",
    "end": "an end actor of a persistent delay",
    "init": "an init actor of a persistent delay",
}
_BINARY: dict[type, Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
}


def import_preesm(path: str, scenario: str | None = None) -> ImportResult:
    """Reads a PREESM PiSDF graph and its scenario as a box chain.

    Parameters
    ----------
    path
        The ``.pi`` file (GraphML), at most 4 MiB.
    scenario
        The ``.scenario`` with the timings; default: the one beside the ``.pi`` whose algorithm is this file
        (without one, the boxes have no cost, said in a note).

    Returns
    -------
    ImportResult
        The .chain text (it passes ``chainlab check``) and the notes on what was assumed or left out.

    Raises
    ------
    chainlab.interchange.xml_input.ImportRefused
        Malformed XML, a DOCTYPE, another root, an unknown element or node kind, a dynamic parameter, a delay, a FIFO
        naming an unknown actor or port, a negative timing; the message names file, line, column and element.
    chainlab.files.UserFileError
        A file is missing, not a regular file or larger than 4 MiB.
    """
    doc = read_xml(path)
    found = scenario or find_scenario(path)
    timings = read_scenario(found, path) if found else None
    graph = read_pi(doc, timings)
    if timings is None:
        graph.notes.append(f"no .scenario beside {Path(path).name} names it: no timings, the boxes have no cost")
    return import_result(graph, path, "PREESM", "preesm")


def read_pi(doc: XmlDocument, scenario: Scenario | None) -> DataflowGraph:
    """The dataflow graph of a parsed ``.pi`` file, with the scenario's timings and data type sizes."""
    root = doc.root
    if local_name(root.tag) != "graphml":
        raise doc.error(root, "not a PREESM PiSDF file: the root element is not <graphml>")
    graph_element = None
    for child in root:
        tag = local_name(child.tag)
        if tag == "graph" and graph_element is None:
            graph_element = child
        elif tag != "key":
            raise doc.error(child, "unknown or repeated element of <graphml>: it has <key>s and one <graph>")
    if graph_element is None:
        raise doc.error(root, "has no <graph>")
    name = next((d.text for d in graph_element if local_name(d.tag) == "data" and d.get("key") == "name"), None)
    graph = DataflowGraph((name or "").strip() or Path(doc.path).stem, doc)
    params: dict[str, Element] = {}
    fifos: list[Element] = []
    for child in graph_element:
        tag = local_name(child.tag)
        if tag == "node":
            _node(doc, child, graph, params)
        elif tag == "edge":
            if attribute(doc, child, "kind") == "fifo":
                fifos.append(child)
            elif child.get("kind") != "dependency":
                raise doc.error(child, f'edge kind "{child.get("kind", "")[:40]}" is neither fifo nor dependency')
        elif tag != "data":
            raise doc.error(child, "unknown element of <graph>: it has <data>, <node>s and <edge>s")
    values = _Params(doc, params, scenario.parameters if scenario else {})
    if params:
        listed = ", ".join(
            f"{n} = {values.value(n)}{' (the scenario)' if n in values.overrides else ''}" for n in params
        )
        graph.notes.append(f"static parameters substituted in the rates: {listed}")
    for actor in graph.actors:
        for port in actor.ports:
            port.rate = _rate(doc, port.element, values)
    graph.channels = [_fifo(doc, e, scenario) for e in fifos]
    if scenario:
        scenario.apply(graph, values.evaluate)
    return graph


def _node(doc: XmlDocument, element: Element, graph: DataflowGraph, params: dict[str, Element]) -> None:
    kind = attribute(doc, element, "kind")
    if kind == "param":
        params[attribute(doc, element, "id")] = element
        return
    if kind in _REFUSED_KINDS:
        raise doc.error(element, f"node '{element.get('id', '')}' is {_REFUSED_KINDS[kind]}")
    if kind not in ("actor", "broadcast"):
        raise doc.error(element, f'unknown node kind "{kind[:40]}"')
    ports = []
    for child in element:
        tag = local_name(child.tag)
        if tag == "data" and child.get("key") == "graph_desc" and (child.text or "").strip().endswith(".pi"):
            raise doc.error(child, f"actor '{element.get('id')}' is a hierarchical sub-graph: flatten it in PREESM")
        if tag == "port":
            port_kind = attribute(doc, child, "kind")
            if port_kind == "cfg_output":
                raise doc.error(child, "a configuration output sets a parameter at run time (a dynamic parameter)")
            if port_kind in ("input", "output"):
                direction = "in" if port_kind == "input" else "out"
                ports.append(DfPort(attribute(doc, child, "name"), direction, 0, child))
            elif port_kind != "cfg_input":
                raise doc.error(child, f'unknown port kind "{port_kind[:40]}"')
        elif tag not in ("data", "loop", "init"):
            raise doc.error(child, "unknown element of <node>")
    actor = DfActor(attribute(doc, element, "id"), ports, element)
    period = time_value(doc, element, element.get("period") or "0", "period")
    if period > 0:
        if graph.period is not None and graph.period != period:
            raise doc.error(element, f"a second period ({period}): the sources of a chain share one period")
        graph.period = period
        graph.notes.append(f"the period of actor '{actor.name}' ({period} time units) is the sources' period")
    if kind == "broadcast":
        graph.notes.append(f"broadcast '{actor.name}' copies its input to every output: a dup box")
    graph.actors.append(actor)


def _fifo(doc: XmlDocument, element: Element, scenario: Scenario | None) -> DfChannel:
    for child in element:
        if local_name(child.tag) == "data" and child.get("key") == "delay" and (child.text or "").strip():
            raise doc.error(child, "a delay on a FIFO (initial tokens): a chain has no delays")
    if element.get("delay"):
        raise doc.error(element, "a delay on a FIFO (initial tokens): a chain has no delays")
    source, target = attribute(doc, element, "source"), attribute(doc, element, "target")
    data_type = element.get("type")
    return DfChannel(
        name=f"{source}.{element.get('sourceport', '')} -> {target}.{element.get('targetport', '')}",
        src=source,
        src_port=attribute(doc, element, "sourceport"),
        dst=target,
        dst_port=attribute(doc, element, "targetport"),
        element=element,
        token_bits=scenario.type_bits(data_type) if scenario and data_type else None,
    )


def _rate(doc: XmlDocument, element: Element, values: _Params) -> int:
    rate = values.evaluate(element, attribute(doc, element, "expr"))
    if rate.denominator != 1 or rate <= 0:
        raise doc.error(element, f"rate {element.get('expr', '')[:60]} = {rate} is not a positive whole number")
    return int(rate)


class _Params:
    """Static parameters: each a constant expression over the others (the scenario may override its value)."""

    def __init__(self, doc: XmlDocument, params: dict[str, Element], overrides: dict[str, str]) -> None:
        self.doc, self.params, self.overrides = doc, params, overrides
        self.values: dict[str, Fraction] = {}
        self.busy: set[str] = set()

    def value(self, name: str) -> Fraction:
        if name not in self.values:
            element = self.params[name]
            if name in self.busy:
                raise self.doc.error(element, f"parameter '{name}' depends on itself")
            self.busy.add(name)
            self.values[name] = self.evaluate(element, self.overrides.get(name) or attribute(self.doc, element, "expr"))
        return self.values[name]

    def evaluate(self, element: Element, text: str, doc: XmlDocument | None = None) -> Fraction:
        """`text` (numbers, parameters, + - * / and parentheses) as an exact number; anything else is refused at
        `element` of `doc` (default: the graph's file)."""
        where = doc or self.doc
        try:
            tree = ast.parse(text.strip(), mode="eval") if len(text) < 1000 else None
        except SyntaxError:
            tree = None
        if tree is None:
            raise where.error(element, f'expression "{text[:60]}" is not read (numbers, parameters, + - * /)')
        return self._node(where, element, text, tree.body)

    def _node(self, doc: XmlDocument, element: Element, text: str, node: ast.expr) -> Fraction:
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float) and not isinstance(node.value, bool):
            if not math.isfinite(node.value):
                raise doc.error(element, f'expression "{text[:60]}" has a number out of range')
            return Fraction(str(node.value))
        if isinstance(node, ast.Name):
            if node.id not in self.params:
                raise doc.error(element, f"expression \"{text[:60]}\" names an unknown parameter '{node.id}'")
            return self.value(node.id)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            return -self._node(doc, element, text, node.operand)
        if isinstance(node, ast.BinOp) and type(node.op) in _BINARY:
            left, right = self._node(doc, element, text, node.left), self._node(doc, element, text, node.right)
            if isinstance(node.op, ast.Div) and right == 0:
                raise doc.error(element, f'expression "{text[:60]}" divides by 0')
            return _BINARY[type(node.op)](left, right)
        raise doc.error(element, f'expression "{text[:60]}" is not read (numbers, parameters, + - * /)')
