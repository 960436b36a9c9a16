"""Finding the elements a request is about (its chain, its target) in an IR document."""

from __future__ import annotations

from typing import Any

from chainlab.errors import ModelError
from chainlab.ir.model import find_chain


def select_chain(ir: dict[str, Any], name: str | None) -> str:
    """The chain a request is about: `name` (checked to exist), else the model's only chain."""
    if name is not None:
        find_chain(ir, name)
        return name
    names = [c["name"] for c in ir["chains"]]
    if len(names) != 1:
        raise ModelError(f"name the chain to plan (--chain NAME); {ir['source']} has: {', '.join(names) or 'none'}")
    return str(names[0])


def has_target(ir: dict[str, Any], name: str) -> bool:
    return any(t["name"] == name for t in ir.get("targets", []))


def find_target(ir: dict[str, Any], name: str) -> dict[str, Any]:
    """The target named `name`; a ModelError listing the model's targets otherwise."""
    for target in ir.get("targets", []):
        if target["name"] == name:
            return target
    names = ", ".join(t["name"] for t in ir.get("targets", [])) or "none"
    raise ModelError(f"no target named '{name}' (targets: {names})", element=name)
