"""The typed subset of an Amalthea model chainlab reads: stimuli, tasks and runnables (with their activity
graphs), processing units with their frequencies, the task-to-core mapping, events, event chains and their
latency constraints. Everything else is counted, for the notes, and left out."""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from fractions import Fraction
from xml.etree.ElementTree import Element

from chainlab.interchange.amalthea_graph import Graph, read_graph
from chainlab.interchange.amalthea_xml import (
    check_root,
    element_name,
    frequency_hz,
    id_map,
    kid,
    kids,
    ref,
    refs,
    time_ns,
    xsi_type,
)
from chainlab.interchange.xml_input import XmlDocument, local_name


@dataclass(frozen=True)
class Stimulus:
    name: str
    el: Element
    kind: str
    recurrence_ns: int | None = None
    offset_ns: int = 0
    jitter: bool = False


@dataclass(frozen=True)
class Process:
    """A task or a runnable: its name, element and activity graph; a task also its stimuli."""

    name: str
    el: Element
    graph: Graph
    stimuli: tuple[str, ...] = ()


@dataclass(frozen=True)
class Core:
    name: str
    el: Element
    frequency_hz: Fraction
    definition: str | None


@dataclass(frozen=True)
class Event:
    name: str
    el: Element
    kind: str
    entity: str | None
    process: str | None
    runnable: str | None


@dataclass(frozen=True)
class EventChain:
    """An event chain: stimulus, response and its items (sub-chains, or names of chains referred to)."""

    name: str
    el: Element
    stimulus: str | None
    response: str | None
    items: tuple[EventChain | tuple[str, Element], ...]


@dataclass(frozen=True)
class LatencyConstraint:
    name: str
    el: Element
    scope: str | None
    kind: str
    maximum_ns: int | None
    minimum_ns: int | None


@dataclass
class AmaltheaModel:
    doc: XmlDocument
    stimuli: dict[str, Stimulus] = field(default_factory=dict)
    tasks: dict[str, Process] = field(default_factory=dict)
    runnables: dict[str, Process] = field(default_factory=dict)
    cores: dict[str, Core] = field(default_factory=dict)
    task_cores: dict[str, tuple[str, ...]] = field(default_factory=dict)  # cores a task may run on, best first
    events: dict[str, Event] = field(default_factory=dict)
    chains: dict[str, EventChain] = field(default_factory=dict)
    constraints: list[LatencyConstraint] = field(default_factory=list)
    left_out: Counter[str] = field(default_factory=Counter)  # element kinds not read


def read_model(doc: XmlDocument) -> AmaltheaModel:
    """The subset of `doc` chainlab reads; ImportRefused (file:line:col, element) for anything invalid in it."""
    check_root(doc)
    ids = id_map(doc.root)
    model = AmaltheaModel(doc)
    root = doc.root
    _stimuli(model, kid(root, "stimuliModel"))
    sw = kid(root, "swModel")
    for el in kids(sw, "tasks"):
        name = element_name(doc, el, "task")
        stimuli = tuple(n for n, _ in refs(doc, el, "stimuli", ids))
        model.tasks[name] = Process(name, el, read_graph(doc, el, ids), stimuli)
    for el in kids(sw, "runnables"):
        name = element_name(doc, el, "runnable")
        model.runnables[name] = Process(name, el, read_graph(doc, el, ids))
    model.left_out["ISR"] += sum(1 for _ in kids(sw, "isrs"))
    _cores(model, kid(root, "hwModel"), ids)
    _mapping(model, kid(root, "mappingModel"), ids)
    for el in kids(kid(root, "eventModel"), "events"):
        name = element_name(doc, el, "event")
        model.events[name] = Event(
            name,
            el,
            xsi_type(el),
            ref(doc, el, "entity", ids),
            ref(doc, el, "process", ids),
            ref(doc, el, "runnable", ids),
        )
    _constraints(model, kid(root, "constraintsModel"), ids)
    os_model = kid(root, "osModel")
    if os_model is not None:
        model.left_out["OS overhead"] += sum(1 for el in os_model.iter() if local_name(el.tag) == "osOverheads")
    model.left_out["label"] += sum(1 for _ in kids(sw, "labels"))
    return model


def _stimuli(model: AmaltheaModel, container: Element | None) -> None:
    doc = model.doc
    for el in kids(container, "stimuli"):
        name, kind = element_name(doc, el, "stimulus"), xsi_type(el)
        if kind != "PeriodicStimulus":
            model.stimuli[name] = Stimulus(name, el, kind or "Stimulus")
            continue
        recurrence = kid(el, "recurrence")
        if recurrence is None:
            raise doc.error(el, f"the PeriodicStimulus '{name}' has no recurrence (its period)")
        period = time_ns(doc, recurrence)
        if period <= 0:
            raise doc.error(recurrence, f"the recurrence of '{name}' must be positive")
        offset_el = kid(el, "offset")
        offset = time_ns(doc, offset_el) if offset_el is not None else 0
        jitter = kid(el, "jitter") is not None or el.get("clock") is not None
        model.stimuli[name] = Stimulus(name, el, kind, period, offset, jitter)


def _cores(model: AmaltheaModel, hw: Element | None, ids: dict[str, str]) -> None:
    doc = model.doc
    domains: dict[str, Fraction] = {}
    for el in kids(hw, "domains"):
        if xsi_type(el) == "FrequencyDomain":
            value = kid(el, "defaultValue")
            if value is None:
                raise doc.error(el, "the FrequencyDomain has no defaultValue (its frequency)")
            domains[element_name(doc, el, "frequency domain")] = frequency_hz(doc, value)
    for el in hw.iter() if hw is not None else ():
        if local_name(el.tag) != "modules" or xsi_type(el) != "ProcessingUnit":
            continue
        name = element_name(doc, el, "processing unit")
        domain = ref(doc, el, "frequencyDomain", ids)
        if domain is None:
            continue  # a core without a clock cannot turn ticks into time; the importer says so if it needs one
        if domain not in domains:
            raise doc.error(el, f"frequencyDomain: no FrequencyDomain named '{domain}'")
        model.cores[name] = Core(name, el, domains[domain], ref(doc, el, "definition", ids))


def _mapping(model: AmaltheaModel, mapping: Element | None, ids: dict[str, str]) -> None:
    doc = model.doc
    scheduler_cores: dict[str, tuple[str, ...]] = {}
    for el in kids(mapping, "schedulerAllocation"):
        scheduler = ref(doc, el, "scheduler", ids)
        executing = ref(doc, el, "executingPU", ids)
        responsible = tuple(n for n, _ in refs(doc, el, "responsibility", ids))
        if scheduler is not None:
            scheduler_cores[scheduler] = ((executing,) if executing else ()) + responsible
    for el in kids(mapping, "taskAllocation"):
        task = ref(doc, el, "task", ids)
        if task is None:
            raise doc.error(el, "the taskAllocation names no task")
        if task not in model.tasks:
            raise doc.error(el, f"task: no task named '{task}'")
        affinity = tuple(n for n, _ in refs(doc, el, "affinity", ids))
        scheduler = ref(doc, el, "scheduler", ids)
        if scheduler is not None and scheduler not in scheduler_cores:
            raise doc.error(el, f"scheduler: no schedulerAllocation for scheduler '{scheduler}'")
        cores = affinity + (scheduler_cores.get(scheduler, ()) if scheduler else ())
        for core in cores:
            if core not in model.cores:
                raise doc.error(el, f"no ProcessingUnit with a FrequencyDomain named '{core}'")
        model.task_cores[task] = tuple(dict.fromkeys(cores))


def _chain(doc: XmlDocument, el: Element, ids: dict[str, str]) -> EventChain:
    name = el.get("name", "").strip() or "(unnamed)"
    if el.get("itemType", "sequence") != "sequence":
        raise doc.error(el, f"the event chain '{name}' is {el.get('itemType')}; chainlab reads sequences only")
    items: list[EventChain | tuple[str, Element]] = []
    for item in [*kids(el, "items"), *kids(el, "segments")]:
        kind = xsi_type(item)
        if kind == "EventChainContainer":
            sub = kid(item, "eventChain")
            if sub is None:
                raise doc.error(item, "the EventChainContainer holds no eventChain")
            items.append(_chain(doc, sub, ids))
        elif kind == "EventChainReference":
            target = ref(doc, item, "eventChain", ids)
            if target is None:
                raise doc.error(item, "the EventChainReference names no event chain")
            items.append((target, item))
        else:
            raise doc.error(item, f"unknown event chain item {kind or '(no xsi:type)'}")
    return EventChain(name, el, ref(doc, el, "stimulus", ids), ref(doc, el, "response", ids), tuple(items))


def _constraints(model: AmaltheaModel, constraints: Element | None, ids: dict[str, str]) -> None:
    doc = model.doc
    for el in kids(constraints, "eventChains"):
        chain = _chain(doc, el, ids)
        model.chains[chain.name] = chain
    for el in kids(constraints, "timingConstraints"):
        if xsi_type(el) != "EventChainLatencyConstraint":
            model.left_out[xsi_type(el) or "timing constraint"] += 1
            continue
        maximum, minimum = kid(el, "maximum"), kid(el, "minimum")
        model.constraints.append(
            LatencyConstraint(
                el.get("name", "").strip() or "(unnamed)",
                el,
                ref(doc, el, "scope", ids),
                el.get("type", "Reaction"),
                time_ns(doc, maximum) if maximum is not None else None,
                time_ns(doc, minimum) if minimum is not None else None,
            )
        )
    for name in ("requirements", "dataAgeConstraints", "runnableSequencingConstraints", "affinityConstraints"):
        model.left_out[name] += sum(1 for _ in kids(constraints, name))
