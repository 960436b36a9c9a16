"""What an Amalthea activity graph (of a task or a runnable) costs: its `Ticks` items with their deviations,
the runnables it calls, and the items that take no modelled time (dropped, counted for the notes)."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from xml.etree.ElementTree import Element

from chainlab.interchange.amalthea_ticks import Ticks
from chainlab.interchange.amalthea_xml import integer, kid, kids, ref, xsi_type
from chainlab.interchange.xml_input import XmlDocument, local_name

# Items that branch or loop: the time of the graph is then no sum, so they are refused.
_CONTROL_FLOW = frozenset({"Switch", "ModeSwitch", "ProbabilitySwitch", "WhileLoop", "ConditionalSwitch"})
_READ = (
    "DiscreteValueConstant, DiscreteValueUniformDistribution, DiscreteValueBoundaries (samplingType Uniform, "
    "BestCase or WorstCase) and DiscreteValueHistogram"
)


@dataclass(frozen=True)
class Need:
    """One `Ticks` item: its default deviation and those per ProcessingUnitDefinition (`extended`)."""

    el: Element
    default: Ticks | None
    extended: dict[str, Ticks]

    def for_definition(self, definition: str | None) -> Ticks | None:
        if definition is not None and definition in self.extended:
            return self.extended[definition]
        return self.default


@dataclass
class Graph:
    needs: list[Need] = field(default_factory=list)
    calls: list[tuple[str, Element]] = field(default_factory=list)
    dropped: Counter[str] = field(default_factory=Counter)
    histogram_ranges: int = 0  # histogram bins wider than one tick (their mass is put at the upper bound)


def read_graph(doc: XmlDocument, owner: Element, ids: dict[str, str]) -> Graph:
    """The activity graph of `owner` (a task or a runnable); an owner without one has an empty graph."""
    graph = Graph()
    _items(doc, kid(owner, "activityGraph"), ids, graph)
    return graph


def _items(doc: XmlDocument, container: Element | None, ids: dict[str, str], graph: Graph) -> None:
    for item in kids(container, "items"):
        kind = xsi_type(item)
        if kind == "Ticks":
            graph.needs.append(_need(doc, item, ids, graph))
        elif kind == "RunnableCall":
            name = ref(doc, item, "runnable", ids)
            if name is None:
                raise doc.error(item, "the RunnableCall names no runnable")
            graph.calls.append((name, item))
        elif kind == "Group":
            _items(doc, item, ids, graph)
        elif kind in _CONTROL_FLOW:
            raise doc.error(
                item, f"a {kind} makes the execution time depend on a branch or loop; chainlab reads sequences only"
            )
        else:
            graph.dropped[kind or local_name(item.tag)] += 1


def _need(doc: XmlDocument, item: Element, ids: dict[str, str], graph: Graph) -> Need:
    default_el = kid(item, "default")
    default = _deviation(doc, default_el, graph) if default_el is not None else None
    extended: dict[str, Ticks] = {}
    for entry in kids(item, "extended"):
        definition = ref(doc, entry, "key", ids)
        value = kid(entry, "value")
        if definition is None or value is None:
            raise doc.error(entry, "an extended tick entry needs a key (a ProcessingUnitDefinition) and a value")
        extended[definition] = _deviation(doc, value, graph)
    if default is None and not extended:
        raise doc.error(item, "the Ticks item has neither a default nor an extended value")
    return Need(item, default, extended)


def _deviation(doc: XmlDocument, el: Element, graph: Graph) -> Ticks:
    """A DiscreteValue... deviation as an exact distribution of ticks; others are refused, naming them."""
    kind = xsi_type(el)
    if kind == "DiscreteValueConstant":
        return Ticks.point(integer(doc, el, "value", default="0"))
    if kind == "DiscreteValueUniformDistribution":
        return _bounds(doc, el)
    if kind == "DiscreteValueBoundaries":
        lo_hi = _bounds(doc, el)
        sampling = el.get("samplingType", "Default")
        if sampling == "Uniform":
            return lo_hi
        if sampling in ("BestCase", "WorstCase"):
            return Ticks.point(lo_hi.lo if sampling == "BestCase" else lo_hi.hi)
        raise doc.error(el, f"DiscreteValueBoundaries with samplingType '{sampling}' is no distribution; read: {_READ}")
    if kind == "DiscreteValueHistogram":
        return _histogram(doc, el, graph)
    raise doc.error(
        el,
        f"the deviation {kind or '(no xsi:type)'} is not an exact distribution of ticks; chainlab reads {_READ} "
        f"(a measured histogram keeps the data exact)",
    )


def _bounds(doc: XmlDocument, el: Element) -> Ticks:
    lo, hi = integer(doc, el, "lowerBound"), integer(doc, el, "upperBound")
    if hi < lo:
        raise doc.error(el, f"upperBound {hi} is below lowerBound {lo}")
    return Ticks(lo, hi)


def _histogram(doc: XmlDocument, el: Element, graph: Graph) -> Ticks:
    weights: dict[int, int] = {}
    for entry in kids(el, "entries"):
        bin_ = _bounds(doc, entry)
        if bin_.hi != bin_.lo:
            graph.histogram_ranges += 1
        weights[bin_.hi] = weights.get(bin_.hi, 0) + integer(doc, entry, "occurrences", minimum=1, default="1")
    if not weights:
        raise doc.error(el, "the DiscreteValueHistogram has no entries")
    total = sum(weights.values())
    return Ticks.of_pmf({t: Fraction(w, total) for t, w in weights.items()})
