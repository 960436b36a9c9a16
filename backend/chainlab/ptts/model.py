"""Reading and checking the IR of one PTTS chain (thesis ch. 5) into typed, validated objects.

Everything the analyses need is checked here, so that bad input always ends as a
`ModelError` naming the element and carrying its source location, never as a traceback.
Times stay exact integer nanoseconds; ETPs are parsed by `etp.py`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from chainlab.errors import ModelError
from chainlab.ptts.etp import ChainResolver, Etp, check_int, check_number, parse_etp

PRODUCTION_FIRST = "production-first"
CONSUMPTION_FIRST = "consumption-first"


@dataclass(frozen=True, eq=False)
class Component:
    name: str
    loc: Mapping[str, Any] | None
    period_ns: int
    offset_ns: int
    etp: Etp


@dataclass(frozen=True)
class Requirement:
    kind: str  # "percentile" | "deadline" | "loss"
    op: str  # "<" | "<="
    loc: Mapping[str, Any] | None
    bound_ns: int | None = None
    percentile: float | None = None
    probability: float | None = None
    limit: float | None = None


@dataclass(frozen=True, eq=False)
class PttsModel:
    name: str
    loc: Mapping[str, Any] | None
    order: str
    resolution_ns: int | None
    components: tuple[Component, ...]
    requirements: tuple[Requirement, ...] = field(default_factory=tuple)

    @property
    def production_first(self) -> bool:
        return self.order == PRODUCTION_FIRST


def _requirement(spec: Any, chain_loc: Any, chain_name: str) -> Requirement:
    if not isinstance(spec, Mapping):
        raise ModelError(f"a requirement must be an object, not {spec!r}", chain_loc, chain_name)
    loc = spec.get("loc") or chain_loc
    kind = spec.get("kind")
    op = spec.get("op")
    element = f"{chain_name} requirement"
    if op not in ("<", "<="):
        raise ModelError(f"requirement operator must be '<' or '<=', not {op!r}", loc, element)
    if kind == "percentile":
        q = check_number(spec.get("percentile"), "percentile", loc, element)
        if not 0 < q < 100:
            raise ModelError(f"percentile must lie strictly between 0 and 100, not {q}", loc, element)
        bound = check_int(spec.get("bound_ns"), "bound_ns", loc, element, minimum=0)
        return Requirement("percentile", op, spec.get("loc"), bound_ns=bound, percentile=q)
    if kind == "deadline":
        bound = check_int(spec.get("bound_ns"), "bound_ns", loc, element, minimum=0)
        p = check_number(spec.get("probability"), "probability", loc, element)
        if not 0 < p <= 1:
            raise ModelError(f"probability must lie in (0, 1], not {p}", loc, element)
        return Requirement("deadline", op, spec.get("loc"), bound_ns=bound, probability=p)
    if kind == "loss":
        limit = check_number(spec.get("limit"), "limit", loc, element)
        if not 0 < limit <= 1:
            raise ModelError(f"loss limit must lie in (0, 1], not {limit}", loc, element)
        return Requirement("loss", op, spec.get("loc"), limit=limit)
    raise ModelError(f"unknown requirement kind {kind!r} (expected percentile, deadline or loss)", loc, element)


def parse_model(ir: Any, resolve_chain: ChainResolver | None = None) -> PttsModel:
    """The validated model of one PTTS chain IR; ModelError (with loc) for anything invalid."""
    if not isinstance(ir, Mapping):
        raise ModelError(f"a PTTS chain must be a JSON object, not {type(ir).__name__}")
    raw_name = ir.get("name")
    name = raw_name if isinstance(raw_name, str) and raw_name else "ptts"
    loc = ir.get("loc") if isinstance(ir.get("loc"), Mapping) else None
    order = ir.get("order", PRODUCTION_FIRST)
    if order not in (PRODUCTION_FIRST, CONSUMPTION_FIRST):
        raise ModelError(f"order must be '{PRODUCTION_FIRST}' or '{CONSUMPTION_FIRST}', not {order!r}", loc, name)
    resolution = ir.get("resolution_ns")
    if resolution is not None:
        resolution = check_int(resolution, "resolution_ns", loc, name, minimum=1)
    raw = ir.get("components")
    if not isinstance(raw, (list, tuple)) or len(raw) == 0:
        raise ModelError("a PTTS chain needs at least one component", loc, name)
    components: list[Component] = []
    seen: set[str] = set()
    for n, spec in enumerate(raw):
        if not isinstance(spec, Mapping):
            raise ModelError(f"component {n} must be an object, not {spec!r}", loc, name)
        raw_cname = spec.get("name")
        cname = raw_cname if isinstance(raw_cname, str) and raw_cname else f"C{n}"
        cloc = spec.get("loc") if isinstance(spec.get("loc"), Mapping) else loc
        if cname in seen:
            raise ModelError(f"component name '{cname}' is used twice in chain '{name}'", cloc, cname)
        seen.add(cname)
        period = check_int(spec.get("period_ns"), "period_ns", cloc, cname, minimum=1)
        offset = check_int(spec.get("offset_ns", 0), "offset_ns", cloc, cname, minimum=0)
        if "etp" not in spec:
            raise ModelError("the component has no execution-time profile (etp)", cloc, cname)
        etp = parse_etp(spec.get("etp"), cname, cloc, resolve_chain)
        components.append(Component(cname, cloc, period, offset, etp))
    reqs_raw = ir.get("requirements") or []
    if not isinstance(reqs_raw, (list, tuple)):
        raise ModelError("requirements must be a list", loc, name)
    requirements = tuple(_requirement(r, loc, name) for r in reqs_raw)
    return PttsModel(name, loc, order, resolution, tuple(components), requirements)
