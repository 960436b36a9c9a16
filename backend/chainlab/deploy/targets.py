"""The target an experiment runs on, as the model defines it, or `here` (this machine) when it does not."""

from __future__ import annotations

import os
from typing import Any

from chainlab.ir import find_target, has_target

HERE = "here"


def resolve_target(ir: dict[str, Any], name: str) -> dict[str, Any]:
    """The model's target `name`. `here` without a target of that name is this machine: local, every core
    an rt-core, no be-cores (so only the baseline scenario). A ModelError for any other unknown name."""
    if name == HERE and not has_target(ir, HERE):
        ncpu = os.cpu_count() or 1
        return {
            "name": HERE,
            "kind": "local",
            "rt_cores": list(range(ncpu)),
            "be_cores": [],
            "root": None,
            "throttle": None,
            "workload": None,
            "loc": None,
        }
    return find_target(ir, name)
