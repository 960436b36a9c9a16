"""One point of a design-space sweep: what every worker gets once (`Shared`), the point's exact analysis as a flat
row (`analyse_point`) and its key in the row store (`point_key`).

Points of one period set share what does not depend on the offsets (chainlab.ptts.period_set): each worker keeps
one `PointPreparer` per `Shared` it received, so the parsed model, the hop tables and the method choice are built
once per period set, not once per point; the rows are the same bit for bit as analysing each point's own IR.
A sweep analyses runs of points that differ in one offset in one pass each (chainlab.ptts.offset_runs), with the
same rows.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass
from typing import Any

from chainlab.ptts.dist import Distribution
from chainlab.ptts.period_set import PointPreparer

Point = dict[str, dict[str, int]]  # {"offsets_ns": {C: ns}, "periods_ns": {C: ns}}


@dataclass(frozen=True, eq=False)  # compared by identity: the key of its worker-side cache
class Shared:
    """What every worker gets once: the resolved IR and what a row needs besides the point."""

    ir: dict[str, Any]
    deadline_ns: int | None
    op: str
    max_trees: int


_PREPARERS: weakref.WeakKeyDictionary[Shared, PointPreparer] = weakref.WeakKeyDictionary()


def preparer(shared: Shared) -> PointPreparer:
    """The worker's PointPreparer of this Shared (made on its first point, dropped with it)."""
    found = _PREPARERS.get(shared)
    if found is None:
        found = _PREPARERS[shared] = PointPreparer(shared.ir)
    return found


def point_ir(ir: dict[str, Any], point: Point) -> dict[str, Any]:
    """The IR of one point: the model with the point's offsets and periods (what a single analysis would get)."""
    offsets, periods = point["offsets_ns"], point["periods_ns"]
    components = []
    for spec in ir["components"]:
        name = spec["name"]
        if name in offsets or name in periods:
            spec = {**spec, "offset_ns": offsets.get(name, spec["offset_ns"])}
            spec["period_ns"] = periods.get(name, spec["period_ns"])
        components.append(spec)
    return {**ir, "components": components}


def analyse_point(shared: Shared, point: Point) -> dict[str, Any]:
    """One exact analysis: the row of the sweep (flat, for the CSV).

    Parameters
    ----------
    shared : Shared
        The model and the row's settings, the same for every point of the sweep.
    point : dict
        ``{"offsets_ns": {component: ns}, "periods_ns": {component: ns}}``.

    Returns
    -------
    dict
        offset_ns.C / period_ns.C of the point, mean_ms, p50_ms, p99_ms, max_ms, loss and (with a deadline)
        p_deadline: equal bit for bit to `chainlab.ptts.api.compute` on `point_ir(shared.ir, point)`.
    """
    from chainlab.ptts.api import DEFAULT_MAX_OPERATIONS, compute

    points = preparer(shared)
    prepared = points.prepare(point["offsets_ns"], point["periods_ns"])
    choice = points.choose(prepared, max_trees=shared.max_trees, max_operations=DEFAULT_MAX_OPERATIONS)
    r = compute(None, prepared=prepared, choice=choice, max_trees=shared.max_trees)
    return point_row(shared, point, r.distribution, r.loss.probability)


def point_row(shared: Shared, point: Point, d: Distribution, loss: float) -> dict[str, Any]:
    """The row of a point from its latency distribution and loss probability."""
    return point_row_of(point, row_statistics(shared, d, loss))


def point_row_of(point: Point, statistics: dict[str, Any]) -> dict[str, Any]:
    """The row of a point with these `row_statistics`."""
    row: dict[str, Any] = {f"offset_ns.{n}": v for n, v in point["offsets_ns"].items()}
    row.update({f"period_ns.{n}": v for n, v in point["periods_ns"].items()})
    row.update(statistics)
    return row


def row_statistics(shared: Shared, d: Distribution, loss: float) -> dict[str, Any]:
    """What a row says of a point's latency distribution and loss (the same for every point of equal ones)."""
    out: dict[str, Any] = {
        "mean_ms": d.mean_ns / 1e6,
        "p50_ms": d.percentile_ns(0.5) / 1e6,
        "p99_ms": d.percentile_ns(0.99) / 1e6,
        "max_ms": d.max_ns / 1e6,
        "loss": loss,
    }
    if shared.deadline_ns is not None:
        out["p_deadline"] = d.prob(shared.op, shared.deadline_ns)
    return out


def point_key(point: Point) -> str:
    """The point's key in the row store (and its CSV cell): offsets and periods by component name."""
    offsets = ";".join(f"{n}@{v}" for n, v in point["offsets_ns"].items())  # no comma: the CSV cell needs no quotes
    periods = ";".join(f"{n}={v}" for n, v in point["periods_ns"].items())
    return f"{offsets}|{periods}"
