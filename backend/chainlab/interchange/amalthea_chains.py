"""From Amalthea event chains to the order of a PTTS chain's components and its latency requirements.

The events of a chain (its stimulus, those of its items in order, its response) name tasks (a ProcessEvent
directly, a RunnableEvent or LabelEvent through the one task that runs the runnable, a StimulusEvent through the
one task it activates); the tasks in that order, repeats merged, are the components."""

from __future__ import annotations

from dataclasses import dataclass
from xml.etree.ElementTree import Element

from chainlab.interchange.amalthea_model import AmaltheaModel, Event, EventChain
from chainlab.interchange.amalthea_tasks import runnable_tasks


@dataclass(frozen=True)
class OrderedChain:
    """One PTTS chain to write: its name, its tasks in order, and the latency bounds it must meet."""

    name: str
    tasks: list[str]
    bounds_ns: list[int]
    source: str  # how the order was found, for the comment above the ptts


def ordered_chains(model: AmaltheaModel, periodic: list[str], notes: list[str]) -> list[OrderedChain]:
    """One chain per event chain of the constraintsModel; without any, one chain of all periodic tasks."""
    if not periodic:
        raise model.doc.error(model.doc.root, "no task is activated by a PeriodicStimulus: nothing to import")
    bounds = _bounds(model, notes)
    if not model.chains:
        notes.append("no event chain: the components follow the order of the tasks in the swModel")
        return [OrderedChain("", list(periodic), [], "no event chain: tasks in swModel order")]
    calls = runnable_tasks(model, list(model.tasks))
    out, used = [], set()
    for chain in model.chains.values():
        events: list[tuple[str, Element, str]] = []
        _events(model, chain, events, ())
        tasks: list[str] = []
        for name, where, attribute in events:
            task = _event_task(model, name, where, attribute, calls)
            if task not in periodic:
                raise model.doc.error(
                    where, f"event chain '{chain.name}': task '{task}' is not activated by a PeriodicStimulus"
                )
            if tasks and tasks[-1] == task:
                continue
            if task in tasks:
                raise model.doc.error(
                    where, f"event chain '{chain.name}' visits task '{task}' twice; a PTTS chain visits it once"
                )
            tasks.append(task)
        if not tasks:
            raise model.doc.error(chain.el, f"event chain '{chain.name}' names no event, so no task")
        used.update(tasks)
        out.append(OrderedChain(chain.name, tasks, bounds.get(chain.name, []), f"event chain '{chain.name}'"))
    unused = [t for t in periodic if t not in used]
    if unused:
        notes.append(f"periodic task(s) in no event chain, left out: {', '.join(unused)}")
    return out


def _events(
    model: AmaltheaModel, chain: EventChain, out: list[tuple[str, Element, str]], path: tuple[str, ...]
) -> None:
    if chain.stimulus:
        out.append((chain.stimulus, chain.el, "stimulus"))
    for item in chain.items:
        if isinstance(item, EventChain):
            _events(model, item, out, path)
            continue
        name, where = item
        if name not in model.chains:
            raise model.doc.error(where, f"eventChain: no event chain named '{name}'")
        if name in path or name == chain.name:
            raise model.doc.error(where, f"event chain '{name}' refers to itself")
        _events(model, model.chains[name], out, (*path, chain.name))
    if chain.response:
        out.append((chain.response, chain.el, "response"))


def _event_task(model: AmaltheaModel, name: str, where: Element, attribute: str, calls: dict[str, set[str]]) -> str:
    doc = model.doc
    event = model.events.get(name)
    if event is None:
        raise doc.error(where, f"{attribute}: no event named '{name}'")
    task = _task_of(model, event, calls)
    if task is None:
        raise doc.error(
            event.el,
            f"the {event.kind or 'event'} '{name}' names no single task; chainlab reads ProcessEvents, "
            f"RunnableEvents and LabelEvents of a runnable one task runs, and StimulusEvents of a stimulus that "
            f"activates one task",
        )
    if task not in model.tasks:
        raise doc.error(event.el, f"no task named '{task}'")
    return task


def _task_of(model: AmaltheaModel, event: Event, calls: dict[str, set[str]]) -> str | None:
    if event.process:
        return event.process
    if event.kind == "ProcessEvent":
        return event.entity
    runnable = event.entity if event.kind == "RunnableEvent" else event.runnable
    if runnable is not None:
        tasks = calls.get(runnable, set())
        return next(iter(tasks)) if len(tasks) == 1 else None
    if event.kind == "StimulusEvent":
        tasks = {t.name for t in model.tasks.values() if event.entity in t.stimuli}
        return next(iter(tasks)) if len(tasks) == 1 else None
    return None


def _bounds(model: AmaltheaModel, notes: list[str]) -> dict[str, list[int]]:
    """Event chain name → the maxima of its EventChainLatencyConstraints."""
    out: dict[str, list[int]] = {}
    for c in model.constraints:
        if c.scope is None or c.scope not in model.chains:
            raise model.doc.error(c.el, f"scope: no event chain named '{c.scope}'" if c.scope else "scope is missing")
        if c.maximum_ns is None:
            notes.append(f"latency constraint '{c.name}' has no maximum: left out")
            continue
        if c.minimum_ns:
            notes.append(f"latency constraint '{c.name}': its minimum is left out (chainlab checks upper bounds)")
        if c.kind != "Reaction":
            notes.append(
                f"latency constraint '{c.name}' ({c.kind}) is read as the end-to-end latency: from the first "
                f"component's activation to the last one's output"
            )
        out.setdefault(c.scope, []).append(c.maximum_ns)
    return out
