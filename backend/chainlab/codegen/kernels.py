"""One C statement per kernel call, shared by the plan's sub-boxes and the sequential reference."""

from __future__ import annotations

from typing import Any

from chainlab.errors import ModelError

PIXELS = {
    "u8": "CL_U8",
    "i8": "CL_I8",
    "u16": "CL_U16",
    "i16": "CL_I16",
    "u32": "CL_U32",
    "i32": "CL_I32",
    "int": "CL_I32",
    "f32": "CL_F32",
    "f64": "CL_F64",
}
MAX_WIDTH = 16384


def num(value: Any) -> str:
    return repr(float(value)) if not isinstance(value, int) else f"{value}.0"


def kernel_call(
    name: str,
    args: list[float],
    instance: str,
    seed: int,
    ins: list[str],
    outs: list[str],
    r0: str,
    r1: str,
    history: str | None,
    sink: str | None,
) -> list[str]:
    """C statements running kernel `name`(args) on rows [r0, r1); ins/outs are cl_image expressions (pointers)."""

    def need(n_in: int, n_out: int) -> None:
        if (n_in >= 0 and len(ins) != n_in) or (n_out >= 0 and len(outs) != n_out):
            raise ModelError(
                f"kernel {name} of instance {instance} needs {n_in} input(s) and {n_out} output(s), "
                f"the plan gives {len(ins)} and {len(outs)}",
                element=instance,
            )

    if name == "source":
        need(0, -1)
        return [f"cl_k_source({o}, {r0}, {r1}, it, {seed + k}u);" for k, o in enumerate(outs)]
    if name in ("gain", "offset"):
        need(1, 1)
        return [f"cl_k_{name}({ins[0]}, {outs[0]}, {r0}, {r1}, {num(args[0])});"]
    if name == "add":
        need(2, 1)
        return [f"cl_k_add({ins[0]}, {ins[1]}, {outs[0]}, {r0}, {r1});"]
    if name == "mul":
        need(2, 1)
        return [f"cl_k_mul({ins[0]}, {ins[1]}, {outs[0]}, {r0}, {r1}, {num(args[0] if args else 1)});"]
    if name == "average":
        need(1, 1)
        return [f"cl_k_average({ins[0]}, {outs[0]}, {r0}, {r1}, {history}, {int(args[0])}, it);"]
    if name == "convolution":
        need(1, 1)
        return [f"cl_k_convolution({ins[0]}, {outs[0]}, {r0}, {r1}, {int(args[0])});"]
    if name == "copy":
        need(1, 1)
        return [f"cl_k_copy({ins[0]}, {outs[0]}, {r0}, {r1});"]
    if name == "dup":
        need(1, -1)
        return [f"cl_k_copy({ins[0]}, {o}, {r0}, {r1});" for o in outs]
    if name == "sink":
        need(-1, 0)
        return [f"{sink} += cl_k_sink({i}, {r0}, {r1}, it);" for i in ins]
    raise ModelError(f"kernel '{name}' of instance {instance} has no C implementation", element=instance)
