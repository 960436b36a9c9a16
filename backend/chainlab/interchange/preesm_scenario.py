"""A PREESM `.scenario`: the execution times of the actors on one operator type, the sizes of the data types and the
parameter values it sets; found beside the `.pi` it names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path, PurePosixPath
from xml.etree.ElementTree import Element

from chainlab.interchange.dataflow import DataflowGraph, attribute, whole_number
from chainlab.interchange.xml_input import ImportRefused, XmlDocument, local_name, read_xml

#: Sections of a scenario a chain has no use for (mapping constraints, energy, instrumentation).
_LEFT_OUT = {"files", "constraints", "relativeconstraints", "energyConfigs", "papifyConfigs", "flags"}
#: The most .scenario files looked at beside a .pi.
_MAX_CANDIDATES = 50


@dataclass
class _Timing:
    vertex: str
    operator: str
    time: str
    element: Element


@dataclass
class Scenario:
    """What a scenario tells about its graph."""

    doc: XmlDocument
    timings: list[_Timing] = field(default_factory=list)
    data_types: dict[str, int] = field(default_factory=dict)
    parameters: dict[str, str] = field(default_factory=dict)

    def type_bits(self, name: str) -> int | None:
        return self.data_types.get(name)

    def apply(self, graph: DataflowGraph, evaluate: Callable[[Element, str, XmlDocument], Fraction]) -> None:
        """Sets each actor's execution time from the timings of one operator type (the first named)."""
        graph.notes.append(
            f"timings from {Path(self.doc.path).name}, in time units of the scenario: read as µs (PREESM names no unit)"
        )
        if not self.timings:
            return
        chosen = self.timings[0].operator
        graph.notes.append(f"execution times of operator type '{chosen}' (the first the scenario times)")
        for timing in self.timings:
            if timing.operator != chosen:
                continue
            leaf = PurePosixPath(timing.vertex).name
            actor = graph.actor(leaf)
            if actor is None:
                raise self.doc.error(timing.element, f"a timing of '{timing.vertex}', an actor the graph does not have")
            actor.time = _time(self.doc, timing, evaluate)


def _time(doc: XmlDocument, timing: _Timing, evaluate: Callable[[Element, str, XmlDocument], Fraction]) -> Fraction:
    value = evaluate(timing.element, timing.time, doc)
    if value < 0:
        raise doc.error(timing.element, f'timing "{timing.time[:40]}" is negative ({value})')
    return value


def find_scenario(pi_path: str) -> str | None:
    """The `.scenario` beside `pi_path` whose algorithm is that file (the first by name), else None."""
    folder = Path(pi_path).parent
    candidates = sorted(folder.glob("*.scenario"))[:_MAX_CANDIDATES]
    for candidate in candidates:
        try:
            doc = read_xml(candidate)
        except ImportRefused:
            continue
        if _algorithm_name(doc) == Path(pi_path).name:
            return str(candidate)
    return None


def _algorithm_name(doc: XmlDocument) -> str | None:
    for files in doc.root:
        if local_name(files.tag) != "files":
            continue
        for child in files:
            if local_name(child.tag) == "algorithm" and child.get("url"):
                return PurePosixPath(child.get("url", "").replace("\\", "/")).name
    return None


def read_scenario(path: str, pi_path: str) -> Scenario:
    """The timings, data type sizes and parameter values of a scenario.

    Parameters
    ----------
    path
        The ``.scenario`` file.
    pi_path
        The ``.pi`` it must name as its algorithm.

    Raises
    ------
    ImportRefused
        Another root, an algorithm other than `pi_path`, an unknown element, a negative or unreadable timing or size.
    """
    doc = read_xml(path)
    root = doc.root
    if local_name(root.tag) != "scenario":
        raise doc.error(root, "not a PREESM scenario: the root element is not <scenario>")
    algorithm = _algorithm_name(doc)
    if algorithm is not None and algorithm != Path(pi_path).name:
        raise doc.error(root, f"the scenario is for {algorithm}, not {Path(pi_path).name}")
    scenario = Scenario(doc)
    for section in root:
        tag = local_name(section.tag)
        if tag == "timings":
            _timings(doc, section, scenario)
        elif tag == "simuParams":
            _data_types(doc, section, scenario)
        elif tag == "parameterValues":
            for child in section:
                if local_name(child.tag) != "parameter":
                    raise doc.error(child, "unknown element of <parameterValues>")
                scenario.parameters[attribute(doc, child, "name")] = attribute(doc, child, "value")
        elif tag not in _LEFT_OUT:
            raise doc.error(section, "unknown element of <scenario>")
    return scenario


def _timings(doc: XmlDocument, section: Element, scenario: Scenario) -> None:
    for child in section:
        tag = local_name(child.tag)
        if tag == "timing":
            if child.get("timingtype", "EXECUTION_TIME") != "EXECUTION_TIME":
                continue
            timing = _Timing(
                attribute(doc, child, "vertexname"),
                attribute(doc, child, "opname"),
                attribute(doc, child, "time"),
                child,
            )
            scenario.timings.append(timing)
        elif tag != "memcpyspeed":
            raise doc.error(child, "unknown element of <timings>")


def _data_types(doc: XmlDocument, section: Element, scenario: Scenario) -> None:
    for child in section:
        if local_name(child.tag) != "dataTypes":
            continue
        for data_type in child:
            if local_name(data_type.tag) != "dataType":
                raise doc.error(data_type, "unknown element of <dataTypes>")
            # PREESM gives data type sizes in bits
            scenario.data_types[attribute(doc, data_type, "name")] = whole_number(doc, data_type, "size")
