"""From Amalthea tasks to PTTS components: the periodic stimulus that activates each task (period, offset), the
core whose frequency turns its ticks into time, and its execution-time profile (the exact sum of its runnables)."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from chainlab.interchange.amalthea_model import AmaltheaModel, Core, Process, Stimulus
from chainlab.interchange.amalthea_ticks import Converted, Ticks, TooLarge, add, to_ns


@dataclass(frozen=True)
class PeriodicTask:
    task: Process
    stimulus: Stimulus


def periodic_tasks(model: AmaltheaModel, notes: list[str]) -> dict[str, PeriodicTask]:
    """Each task activated by exactly one PeriodicStimulus; the others are left out (said in `notes`)."""
    doc = model.doc
    out: dict[str, PeriodicTask] = {}
    for task in model.tasks.values():
        stimuli = []
        for name in task.stimuli:
            if name not in model.stimuli:
                raise doc.error(task.el, f"stimuli: no stimulus named '{name}'")
            stimuli.append(model.stimuli[name])
        periodic = [s for s in stimuli if s.kind == "PeriodicStimulus"]
        others = [f"{s.kind} '{s.name}'" for s in stimuli if s.kind != "PeriodicStimulus"]
        if len(periodic) > 1:
            raise doc.error(task.el, f"task '{task.name}' has {len(periodic)} periodic stimuli; a component has one")
        if not periodic:
            why = f"activated by {', '.join(others)} only" if others else "not activated by any stimulus"
            notes.append(f"task '{task.name}' is {why}: left out (a PTTS component is time-triggered)")
            continue
        if others:
            notes.append(f"task '{task.name}': its other activations ({', '.join(others)}) are left out")
        if periodic[0].jitter:
            notes.append(f"stimulus '{periodic[0].name}': its jitter/clock drift is left out (exact period read)")
        out[task.name] = PeriodicTask(task, periodic[0])
    return out


def hz_text(hz: Fraction) -> str:
    for unit, scale in (("GHz", 10**9), ("MHz", 10**6), ("kHz", 10**3)):
        if hz >= scale and (hz / scale).denominator == 1:
            return f"{hz / scale} {unit}"
    return f"{float(hz):g} Hz" if hz.denominator != 1 else f"{hz} Hz"


def task_core(model: AmaltheaModel, task: Process, notes: list[str]) -> Core:
    """The core whose frequency times `task`: the mapped one (affinity, executing unit, responsibility), else the
    first processing unit with a frequency, said in `notes`."""
    mapped = model.task_cores.get(task.name, ())
    if mapped:
        core = model.cores[mapped[0]]
        if len(mapped) > 1:
            notes.append(
                f"task '{task.name}' may run on {', '.join(mapped)}: its ticks are read at '{core.name}' "
                f"({hz_text(core.frequency_hz)})"
            )
        return core
    if not model.cores:
        raise model.doc.error(
            task.el,
            f"task '{task.name}': no ProcessingUnit in the hwModel has a FrequencyDomain, so its ticks cannot "
            f"become time",
        )
    core = next(iter(model.cores.values()))
    note = "the only" if len(model.cores) == 1 else "the first"
    notes.append(
        f"task '{task.name}' is mapped to no core: its ticks are read at {note} processing unit '{core.name}' "
        f"({hz_text(core.frequency_hz)})"
    )
    return core


def task_ticks(model: AmaltheaModel, task: Process, core: Core, notes: list[str]) -> Ticks:
    """The exact distribution of the ticks of one activation of `task`: its Ticks items and those of every runnable
    it calls (transitively), summed as independent draws."""
    if not task.graph.calls and not task.graph.needs:
        raise model.doc.error(task.el, f"task '{task.name}' calls no runnable and has no Ticks: no execution time")
    total = Ticks.point(0)
    for need_total in _process_ticks(model, task, core, notes, ()):
        try:
            total = add(total, need_total)
        except TooLarge as why:
            raise model.doc.error(
                task.el,
                f"task '{task.name}': {why} has too many points to sum exactly; give its runnables coarser "
                f"histograms (DiscreteValueHistogram)",
            ) from None
    return total


def _process_ticks(
    model: AmaltheaModel, process: Process, core: Core, notes: list[str], path: tuple[str, ...]
) -> list[Ticks]:
    doc, out = model.doc, []
    for need in process.graph.needs:
        ticks = need.for_definition(core.definition)
        if ticks is None:
            raise doc.error(
                need.el, f"the Ticks have no default and no extended value for '{core.definition}' (core '{core.name}')"
            )
        out.append(ticks)
    if process.graph.histogram_ranges:
        notes.append(
            f"'{process.name}': {process.graph.histogram_ranges} histogram bin(s) wider than one tick: their "
            f"occurrences are put at the bin's upper bound (conservative)"
        )
    for name, call in process.graph.calls:
        if name not in model.runnables:
            raise doc.error(call, f"runnable: no runnable named '{name}'")
        if name in path:
            raise doc.error(call, f"runnable '{name}' calls itself (through {' -> '.join(path)})")
        runnable = model.runnables[name]
        if not runnable.graph.needs and not runnable.graph.calls:
            notes.append(f"runnable '{name}' has no Ticks: it takes no time")
        out.extend(_process_ticks(model, runnable, core, notes, (*path, name)))
    return out


def task_etp(model: AmaltheaModel, task: Process, core: Core, notes: list[str]) -> Converted:
    """The execution-time profile of `task` in ns at `core`'s frequency (rounded up to whole ns where inexact)."""
    ticks = task_ticks(model, task, core, notes)
    try:
        converted = to_ns(ticks, core.frequency_hz)
    except TooLarge as why:
        raise model.doc.error(
            task.el,
            f"task '{task.name}': {why} at {hz_text(core.frequency_hz)} is not on a whole-ns step and has too "
            f"many points to write exactly; give a histogram (DiscreteValueHistogram) instead",
        ) from None
    if converted.approximated:
        notes.append(f"task '{task.name}': {converted.approximated} (range kept; approximate)")
    elif converted.rounded_up:
        notes.append(
            f"task '{task.name}': ticks at {hz_text(core.frequency_hz)} are not whole ns; times rounded up by "
            f"less than {max(1, int(converted.rounded_up) + 1)} ns"
        )
    return converted


def runnable_tasks(model: AmaltheaModel, names: list[str]) -> dict[str, set[str]]:
    """Runnable name → the tasks among `names` that call it, directly or through other runnables."""
    out: dict[str, set[str]] = {}
    for task in names:
        stack, seen = [c for c, _ in model.tasks[task].graph.calls], set()
        while stack:
            name = stack.pop()
            if name in seen or name not in model.runnables:
                continue
            seen.add(name)
            out.setdefault(name, set()).add(task)
            stack.extend(c for c, _ in model.runnables[name].graph.calls)
    return out
