"""A sweep's points in runs: neighbouring points that differ in one component's offset only are analysed in one pass
over their offsets (chainlab.ptts.offset_vector), the others one by one (`explore_points.analyse_point`).

A run's points are grouped by what their analyses share besides the offset: the grid unit (the offsets change it)
and the method `choose` picks (the offset changes the hop tables' phase classes, and with them the estimated work).
Each group's latency distributions come from one pass; everything else of a row (loss, statistics) is computed as
`analyse_point` computes it, so a row is the same bits whichever way it was computed (tests/ptts/test_offset_runs.py),
and a sweep's rows do not depend on how its points were cut into batches.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from chainlab.ptts.api import DEFAULT_MAX_OPERATIONS, Choice, Prepared, chain_loss
from chainlab.ptts.dist import Distribution
from chainlab.ptts.explore_points import (
    Point,
    Shared,
    analyse_point,
    point_row,
    point_row_of,
    preparer,
    row_statistics,
)
from chainlab.ptts.hop import Hop
from chainlab.ptts.loss import partner_shifts
from chainlab.ptts.offset_vector import per_root_over_offsets, quotient_over_last_offsets
from chainlab.ptts.period_set import PointPreparer

Row = dict[str, Any]
MIN_GROUP = 2  # points of one unit and method below which they are analysed one by one


def analyse_points(shared: Shared, points: Sequence[Point]) -> list[Row]:
    """`explore_points.analyse_point` of every point, in order, the runs of one varying offset in one pass each.

    Parameters
    ----------
    shared : Shared
        The model and the row's settings, the same for every point of the sweep.
    points : sequence of dict
        ``{"offsets_ns": {component: ns}, "periods_ns": {component: ns}}`` each.

    Returns
    -------
    list of dict
        The rows, equal bit for bit to `analyse_point` of each point.
    """
    rows: list[Row] = []
    for name, run in offset_runs(points):
        rows += [analyse_point(shared, p) for p in run] if name is None else analyse_run(shared, run, name)
    return rows


def offset_runs(points: Sequence[Point]) -> list[tuple[str | None, list[Point]]]:
    """Consecutive points whose periods and offsets are those of the run's first point but for the offset of one
    component (its name; None for a point alone)."""
    out: list[tuple[str | None, list[Point]]] = []
    i = 0
    while i < len(points):
        name: str | None = None
        k = i + 1
        while k < len(points):
            differs = _only_difference(points[i], points[k])
            if differs is None or name not in (None, differs):
                break
            name, k = differs, k + 1
        out.append((name, list(points[i:k])))
        i = k
    return out


def run_label(point: Point) -> tuple[tuple[tuple[str, int], ...], ...]:
    """What the points of one run of a sweep grid share: its periods and every offset but the last component's
    (the grid's innermost axis). The engine keeps points of one label in one task: a run cut in two pays its
    shared work twice (at 16.67 ms, 8 points of a run cost ~90% of its 34)."""
    offsets = tuple(point["offsets_ns"].items())
    return tuple(point["periods_ns"].items()), offsets[:-1]


def _only_difference(a: Point, b: Point) -> str | None:
    if a["periods_ns"] != b["periods_ns"] or list(a["offsets_ns"]) != list(b["offsets_ns"]):
        return None
    names = [n for n, v in a["offsets_ns"].items() if b["offsets_ns"][n] != v]
    return names[0] if len(names) == 1 else None


def analyse_run(shared: Shared, run: list[Point], name: str) -> list[Row]:
    """The rows of points that differ in the offset of component `name` only."""
    points = preparer(shared)
    model = points.model
    names = [c.name for c in model.components]
    values = [p["offsets_ns"][name] for p in run]
    res = model.resolution_ns
    valid = all(type(v) is int and v >= 0 and (res is None or v % res == 0) for v in values)
    if name not in names or len(names) < 2 or not valid:  # one by one: each bad point fails as it would alone
        return [analyse_point(shared, p) for p in run]
    j = names.index(name)
    first = run[0]
    ran = points.run_choices(
        first["offsets_ns"],
        first["periods_ns"],
        name,
        values,
        max_trees=shared.max_trees,
        max_operations=DEFAULT_MAX_OPERATIONS,
    )
    groups: dict[tuple[int, str], list[int]] = {}
    for i, (unit, choice) in enumerate(ran.choices):
        if choice.refusal is None and (choice.method == "per-root" or j == len(names) - 1):
            groups.setdefault((unit, choice.method), []).append(i)
    rows: list[Row | None] = [None] * len(run)
    for (unit, method), members in groups.items():
        if len(members) >= MIN_GROUP:
            group = _Group(ran.prepared[unit], j, unit, method, members, [ran.choices[i][1] for i in members])
            _group_rows(shared, points, run, group, rows)
    return [r if r is not None else analyse_point(shared, run[i]) for i, r in enumerate(rows)]


@dataclass(frozen=True)
class _Group:
    """Points of a run on one grid unit, analysed by one method: one of the run's points prepared on that unit,
    the varied component, the points' places in the run and their choices."""

    here: Prepared
    j: int
    unit: int
    method: str
    members: list[int]
    choices: list[Choice]


def _group_rows(shared: Shared, points: PointPreparer, run: list[Point], group: _Group, rows: list[Row | None]) -> None:
    """Fills the rows of one group from one pass over their offsets; leaves them None where the pass does not
    apply."""
    j, members, choices = group.j, group.members, group.choices
    name = points.model.components[j].name
    periods = run[0]["periods_ns"]
    chain, hops = group.here.chain, group.here.hops
    offsets = np.array([run[i]["offsets_ns"][name] // group.unit for i in members], dtype=np.int64)
    touching = [i for i in (j - 1, j) if 0 <= i < chain.n - 1]
    phase: dict[int, Hop] = {}
    for i in touching:
        table = points.phase_hop(chain, i)
        if table is None:
            return
        phase[i] = table
    dists: list[Distribution] | None
    if group.method == "per-root":
        dists = per_root_over_offsets(chain, hops, j, offsets, phase)
    else:
        dists = quotient_over_last_offsets(chain, hops, offsets, phase[chain.n - 2])
    if dists is None:
        return
    if partner_shifts(chain):  # the loss's pair paths depend on every offset: each point's own
        for i, choice, dist in zip(members, choices, dists):
            own = points.prepare(run[i]["offsets_ns"], periods)
            rows[i] = point_row(shared, run[i], dist, chain_loss(own.chain, own.hops, choice.cost).probability)
        return
    loss = chain_loss(chain, hops, choices[0].cost).probability  # no partner root: none lost, whatever the offset
    statistics: dict[int, dict[str, Any]] = {}  # of each distinct distribution (offsets may share one)
    for i, dist in zip(members, dists):
        found = statistics.get(id(dist))
        if found is None:
            found = statistics[id(dist)] = row_statistics(shared, dist, loss)
        rows[i] = point_row_of(run[i], found)
