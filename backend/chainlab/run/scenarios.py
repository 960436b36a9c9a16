"""The scenarios of an experiment (thesis ch.4, Table 4.4) and the throttler's arguments from the model.

- baseline:  the chain alone on the target's rt-cores.
- congested: + the best-effort workload on the be-cores (the built-in hog, Syn 'C', or the target's command).
- throttled: + chainlab-throttle with the model's throttle parameters on the be-cores.

chainlab.run.session runs them, on this machine or over SSH (`run --scenario`, `deploy`).
"""

from __future__ import annotations

import os
from typing import Any

from chainlab.errors import ModelError

SCENARIOS = ("baseline", "congested", "throttled")
HOG_BYTES = 64 << 20


def parse_scenarios(text: str | list[str] | None) -> list[str]:
    names = [s.strip() for s in (text.split(",") if isinstance(text, str) else text or []) if s.strip()]
    unknown = [n for n in names if n not in SCENARIOS]
    if unknown or not names:
        raise ModelError(f"unknown scenario {', '.join(unknown) or '(none)'}: choose from {', '.join(SCENARIOS)}")
    return list(dict.fromkeys(names))


def _be_cores(tgt: dict[str, Any]) -> list[int]:
    ncpu = os.cpu_count() or 1
    cores = [c for c in tgt.get("be_cores") or [] if c < ncpu]
    if not cores:
        raise ModelError(
            f"target {tgt['name']}: congested and throttled scenarios need be-cores that exist on this "
            f"machine ({ncpu} cores; the target names {tgt.get('be_cores') or 'none'})",
            tgt.get("loc"),
            f"target {tgt['name']}",
        )
    return cores


_BPS = {"MB/s": 1e6, "GB/s": 1e9, "MiB/s": 2.0**20, "GiB/s": 2.0**30}


def _quantity(q: dict[str, Any] | None) -> str | None:
    """A model threshold as the daemon reads it: `25%` or bytes per second."""
    if not q:
        return None
    return f"{q['value']:g}%" if q.get("unit") == "%" else f"{float(q['value']) * _BPS[q['unit']]:.0f}"


def daemon_args(ir: dict[str, Any], tgt: dict[str, Any], source: list[str]) -> list[str]:
    """chainlab-throttle key=value arguments from the model's throttle of the target."""
    name = tgt.get("throttle")
    thr = next((t for t in ir.get("throttles", []) if t["name"] == name), None)
    if thr is None:
        raise ModelError(
            f"target {tgt['name']} names no throttle: the throttled scenario needs one",
            tgt.get("loc"),
            f"target {tgt['name']}",
        )
    be = _be_cores(tgt)
    args = [f"mode={thr['mode']}", f"cores={','.join(map(str, be))}", f"mechanism={thr['mechanism']}", *source]
    if thr["mode"] == "duty-cycle":
        dc = thr["duty_cycle"]
        args += [f"sample={dc['sample_ns']}ns", f"suspend={dc['suspend_ns']}ns"]
        for key in ("threshold", "read_threshold", "write_threshold"):
            if _quantity(dc.get(key)):
                args.append(f"{key}={_quantity(dc[key])}")
        if dc.get("proportional"):
            args.append("proportional=true")
        if "source=coop" in source:
            # the hog notifies when a window reached the threshold (like a PMU overflow): no sampler waking
            # every S on a core (a quarter of a vCPU here), suspension within microseconds of the crossing
            args.append("sampling=overflow")
    else:
        b = thr["budget"]
        args += [
            f"period={b['period_ns']}ns",
            f"budget={b['misses']}",
            f"distribution={b.get('distribution') or 'static'}",
        ]
    rt = [c for c in tgt.get("rt_cores") or [] if c not in be]
    if thr["mechanism"] == "fifo-hold" and rt:
        args.append(f"sampler_cpu={rt[0]}")  # the hold threads spin on the be-cores: sample from elsewhere
    else:
        args.append(f"sampler_cpu={be[0]}")  # keep the sampler's time off the real-time cores
    return args
