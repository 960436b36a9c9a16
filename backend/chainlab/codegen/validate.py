"""Refusing plans the C runtime cannot run, with a message naming the element.

A plan from `make_plan` passes its own checks (token game); what is left to check here is what the C side
adds: the kernels' image limits, and that a plan changed after planning still executes every sub-box once
and only waits for signals some thread sends (the run would hang otherwise).
"""

from __future__ import annotations

from chainlab.codegen.kernels import MAX_WIDTH, PIXELS
from chainlab.errors import ModelError
from chainlab.plan.model import Plan


def validate_plan(plan: Plan) -> None:
    """Raise ModelError for the first thing the runtime could not run."""
    view = plan.chain
    allocated = {b.name for b in view.buffers}
    for sub in plan.inst.subs:
        inst = view.instances[sub.instance]
        used = [b.name for b in view.input_buffers(inst)] + [f"{inst.name}.{port}" for port in inst.outputs]
        for name in used:
            if name not in allocated:
                raise ModelError(
                    f"sub-box {sub.name} uses buffer {name}, which the plan does not allocate", element=sub.name
                )
    arena = plan.allocation.arena_bytes
    for b in view.buffers:
        offset = plan.allocation.offsets[b.index]
        if offset < 0 or offset + b.bytes > arena:
            raise ModelError(
                f"buffer {b.name} ({offset} + {b.bytes} B) lies outside the arena of {arena} B", element=b.name
            )
        img = view.image_of(b)
        if img["width"] > MAX_WIDTH:
            raise ModelError(
                f"image {img['name']} is {img['width']} pixels wide; the kernels handle at most {MAX_WIDTH}",
                element=img["name"],
            )
        if img["pixel"] not in PIXELS:
            raise ModelError(f"pixel type {img['pixel']} has no C kernels", element=img["name"])
    _check_steps(plan)


def _check_steps(plan: Plan) -> None:
    subs = plan.inst.subs
    signals = {s.id: s.name for s in plan.signals}
    sent: set[str] = set()
    waited: dict[str, str] = {}
    executed: dict[str, int] = {}
    for th in plan.thread_plans:
        for st in th.steps:
            if st.op in ("wait", "signal"):
                if st.ref not in signals:
                    raise ModelError(
                        f"thread {th.name} uses signal #{st.ref}, which the plan does not declare", element=f"#{st.ref}"
                    )
                if st.op == "signal":
                    sent.add(signals[st.ref])
                else:
                    waited.setdefault(signals[st.ref], th.name)
            elif st.op == "execute":
                if not 0 <= st.ref < len(subs):
                    raise ModelError(f"thread {th.name} executes unknown sub-box #{st.ref}", element=f"#{st.ref}")
                executed[subs[st.ref].name] = executed.get(subs[st.ref].name, 0) + 1
    for name, thread in waited.items():
        if name not in sent:
            raise ModelError(
                f"signal {name} is waited on by thread {thread} but no thread sends it (the run would hang)",
                element=name,
            )
    for sub in subs:
        count = executed.get(sub.name, 0)
        if count != 1:
            raise ModelError(
                f"sub-box {sub.name} is executed {count} times per iteration by the plan's threads (must be once)",
                element=sub.name,
            )
