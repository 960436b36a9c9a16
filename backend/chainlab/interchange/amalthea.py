"""`chainlab import FILE.amxmi`: the periodic subset of an APP4MC Amalthea model as PTTS chains.

Periodic stimuli and the tasks they activate become components (period = recurrence, offset), the ticks of a
task's runnables divided by its core's frequency its execution-time profile (summed exactly), event chains the
order of the components and their EventChainLatencyConstraints the chain's latency requirements."""

from __future__ import annotations

import math
from functools import reduce
from pathlib import Path

from chainlab.interchange.amalthea_chains import OrderedChain, ordered_chains
from chainlab.interchange.amalthea_model import AmaltheaModel, read_model
from chainlab.interchange.amalthea_tasks import PeriodicTask, periodic_tasks, task_core, task_etp
from chainlab.interchange.amalthea_xml import VERSION
from chainlab.interchange.ptts_text import (
    EtpText,
    LatencyBound,
    PmfEtp,
    PointEtp,
    PttsChain,
    PttsComponent,
    chain_name,
    comment_lines,
    duration,
    ptts_text,
)
from chainlab.interchange.result import ImportResult
from chainlab.interchange.xml_input import read_xml

#: The analysis grid is kept at most this fraction of the shortest period (finer grids only cost time).
_GRID_PER_PERIOD = 100


def import_amalthea(path: str) -> ImportResult:
    """Reads an Amalthea model and writes its periodic task chains as ``ptts`` blocks.

    Parameters
    ----------
    path
        An ``.amxmi`` file of Amalthea 3.3.0 (one file holding the whole model).

    Returns
    -------
    ImportResult
        The .chain text (one ``ptts`` per event chain) and the notes on what was assumed or left out, which
        are also ``//`` comments at the top of the text.

    Raises
    ------
    chainlab.interchange.xml_input.ImportRefused
        Malformed XML, another root or Amalthea version, and anything in the read subset chainlab cannot
        express exactly (a stimulus without recurrence, a task without runnables, a deviation that is no exact
        distribution, a dangling reference, ...), with file:line:col and element.
    chainlab.files.UserFileError
        The file is missing, not a regular file or larger than 4 MiB.
    """
    model = read_model(read_xml(path))
    notes: list[str] = []
    periodic = periodic_tasks(model, notes)
    chains = ordered_chains(model, list(periodic), notes)
    taken: set[str] = set()
    blocks = [_ptts(model, periodic, chain, Path(path).stem, taken, notes) for chain in chains]
    notes.extend(_left_out(model))
    notes = list(dict.fromkeys(notes))
    header = [f"Imported from {Path(path).name} (APP4MC Amalthea {VERSION}) by `chainlab import`.", *notes]
    return ImportResult(comment_lines(header) + "\n" + "\n".join(blocks), "amalthea", notes)


def _ptts(
    model: AmaltheaModel,
    periodic: dict[str, PeriodicTask],
    chain: OrderedChain,
    stem: str,
    taken: set[str],
    notes: list[str],
) -> str:
    name = chain_name(chain.name or stem, taken)
    if chain.name and name != chain.name:
        notes.append(f"event chain '{chain.name}' is written as ptts {name}")
    names: set[str] = set()
    components = []
    for task_name in chain.tasks:
        task = periodic[task_name]
        core = task_core(model, task.task, notes)
        etp = task_etp(model, task.task, core, notes).etp
        component = chain_name(task_name, names)
        if component != task_name:
            notes.append(f"task '{task_name}' is written as component {component}")
        stimulus = task.stimulus
        assert stimulus.recurrence_ns is not None  # periodic_tasks keeps periodic stimuli only
        components.append(PttsComponent(component, stimulus.recurrence_ns, stimulus.offset_ns, etp))
    resolution = _resolution(components)
    comments = [f"{chain.source}: {' -> '.join(chain.tasks)}"]
    if resolution is not None:
        comments.append(
            f"resolution {duration(resolution)}: the analysis rounds execution times up onto this grid "
            f"(conservative); the exact times are written below"
        )
    bounds = [LatencyBound(b) for b in chain.bounds_ns]
    return ptts_text(PttsChain(name, components, resolution, bounds, comments))


def _resolution(components: list[PttsComponent]) -> int | None:
    """A grid for the analysis when the execution times are finer than the timers need: the largest divisor of all
    periods and offsets that divides a power of ten of at most 1/100 of the shortest period; None when not needed."""
    timers = reduce(math.gcd, [c.period_ns for c in components] + [c.offset_ns for c in components])
    points = reduce(math.gcd, [t for c in components for t in _etp_points(c.etp)], 0)
    scale = 10 ** max(0, int(math.log10(max(1, min(c.period_ns for c in components) // _GRID_PER_PERIOD))))
    grid = math.gcd(timers, scale)
    return grid if grid > 1 and points % grid else None


def _etp_points(etp: EtpText) -> list[int]:
    if isinstance(etp, PointEtp):
        return [etp.value_ns]
    if isinstance(etp, PmfEtp):
        return list(etp.points)
    return [etp.min_ns, etp.step_ns]


def _left_out(model: AmaltheaModel) -> list[str]:
    """What the model has and chainlab does not read (labels, OS overheads, ISRs, other constraints, ...)."""
    counts = dict(model.left_out)
    for process in [*model.tasks.values(), *model.runnables.values()]:
        for kind, n in process.graph.dropped.items():
            counts[f"{kind} item"] = counts.get(f"{kind} item", 0) + n
    listed = [f"{n} {kind}" for kind, n in counts.items() if n]
    if not listed:
        return []
    return [f"left out (no timing in a PTTS chain): {', '.join(listed)}"]
