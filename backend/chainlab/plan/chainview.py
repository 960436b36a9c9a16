"""Reading one chain out of the IR and refusing what cannot be planned, with the element named.

The language validates models before it exports them, but the planner also runs on hand-written
or generated IR (tests, the RPC server), so it repeats the checks it relies on: every input has
exactly one writer, the chain is acyclic (the language has no delay element, so any cycle is a
"cycle without delay"), and the requested threads fit the core set.
"""

from __future__ import annotations

from typing import Any

from chainlab.errors import ModelError
from chainlab.plan.dataflow import data_flow_order
from chainlab.plan.model import HEURISTICS, MEMORIES, BufferSpec, ChainView, Instance


def _by_name(ir: dict[str, Any], section: str) -> dict[str | None, dict[str, Any]]:
    items = ir.get(section)
    if not isinstance(items, list):
        raise ModelError(f"the IR has no '{section}' list; export the model again with `chainlab export`")
    return {item.get("name"): item for item in items if isinstance(item, dict)}


def find_chain(ir: dict[str, Any], chain: str) -> dict[str, Any]:
    if not isinstance(ir, dict):
        raise ModelError("the IR must be a JSON object")
    chains = _by_name(ir, "chains")
    if chain not in chains:
        known = ", ".join(sorted(str(n) for n in chains)) or "none"
        raise ModelError(
            f"{ir.get('source', 'the model')} has no chain named '{chain}' (it has: {known})", element=chain
        )
    return chains[chain]


def cores_text(cores: list[int], runs: int = 8) -> str:
    """Core numbers for a message, consecutive ones as a range and at most `runs` items: a million requested
    threads must not make a message of megabytes."""
    items: list[str] = []
    k = 0
    while k < len(cores) and len(items) < runs:
        end = k
        while end + 1 < len(cores) and isinstance(cores[end], int) and cores[end + 1] == cores[end] + 1:
            end += 1
        items.append(str(cores[k]) if end == k else f"{cores[k]}..{cores[end]}")
        k = end + 1
    more = f", ... ({len(cores)} in all)" if k < len(cores) else ""
    return ", ".join(items) + more


def load_chain(
    ir: dict[str, Any],
    chain: str,
    *,
    heuristic: str | None = None,
    memory: str | None = None,
    threads: int | None = None,
    cores: list[int] | None = None,
) -> ChainView:
    """The checked chain with the overrides applied. Raises ModelError naming the culprit."""
    raw = find_chain(ir, chain)
    loc = raw.get("loc")
    boxes = _by_name(ir, "boxes")
    images = _by_name(ir, "images")
    platforms = _by_name(ir, "platforms")

    instances: list[Instance] = []
    index_of: dict[str, int] = {}
    raw_instances = raw.get("instances") or []
    if not raw_instances:
        raise ModelError(f"chain '{chain}' has no box instances; nothing to plan", loc, chain)
    for item in raw_instances:
        name = item.get("name")
        if name in index_of:
            raise ModelError(f"instance '{name}' is declared twice in chain '{chain}'", item.get("loc"), name)
        box = boxes.get(item.get("box"))
        if box is None:
            raise ModelError(
                f"instance '{name}' uses box '{item.get('box')}', which the model does not define",
                item.get("loc"),
                name,
            )
        instances.append(_instance(len(instances), item, box, images))
        index_of[name] = len(instances) - 1

    # Connections: outputs to inputs, one writer per input.
    writer_of: dict[tuple[int, str], tuple[int, str, dict[str, Any]]] = {}
    readers: dict[tuple[int, str], list[tuple[int, str]]] = {}
    conn_bytes: dict[tuple[int, str], int] = {}
    edges: list[tuple[int, int, Any]] = []
    for conn in raw.get("connections") or []:
        cloc = conn.get("loc")
        src = _port_ref(conn.get("from"), index_of, instances, "out", cloc)
        dst = _port_ref(conn.get("to"), index_of, instances, "in", cloc)
        if dst in writer_of:
            first = writer_of[dst]
            raise ModelError(
                f"input '{instances[dst[0]].name}.{dst[1]}' has two writers "
                f"('{instances[first[0]].name}.{first[1]}' and "
                f"'{instances[src[0]].name}.{src[1]}'); an input takes one connection",
                cloc,
                f"{instances[dst[0]].name}.{dst[1]}",
            )
        writer_of[dst] = (src[0], src[1], conn)
        readers.setdefault(src, []).append(dst)
        size = conn.get("bytes")
        if isinstance(size, int) and size > 0:
            conn_bytes[src] = max(conn_bytes.get(src, 0), size)
        edges.append((src[0], dst[0], cloc))

    for inst in instances:
        for port in inst.inputs:
            if (inst.index, port) not in writer_of:
                raise ModelError(
                    f"input '{inst.name}.{port}' is not connected; every input needs a writer",
                    inst.loc,
                    f"{inst.name}.{port}",
                )

    # Renumber instances topologically (ties by declaration order) so that ids follow the data flow.
    order = data_flow_order([i.name for i in instances], edges, loc)
    renumber = {old: new for new, old in enumerate(order)}
    instances = [instances[old] for old in order]
    for new, inst in enumerate(instances):
        inst.index = new

    buffers: list[BufferSpec] = []
    input_buffer: dict[tuple[int, str], int] = {}
    for inst in instances:
        for port in inst.outputs:
            old_key = (order[inst.index], port)
            image = inst.port_images[port]
            height = int(image["height"])
            frame = int(image["frame_bytes"])
            size = conn_bytes.get(old_key, frame)
            consumers = [(renumber[c], p) for c, p in readers.get(old_key, [])]
            buf = BufferSpec(
                len(buffers),
                f"{inst.name}.{port}",
                inst.index,
                port,
                str(image["name"]),
                size,
                height,
                max(1, size // height),
                consumers,
            )
            for c in consumers:
                input_buffer[c] = buf.index
            buffers.append(buf)

    schedule = raw.get("schedule") or {}
    chosen_heuristic = heuristic if heuristic is not None else schedule.get("heuristic", "fixed")
    if chosen_heuristic not in HEURISTICS:
        raise ModelError(
            f"unknown schedule heuristic '{chosen_heuristic}' (one of {', '.join(HEURISTICS)})", loc, chain
        )
    chosen_memory = memory if memory is not None else raw.get("memory", "reuse")
    if chosen_memory not in MEMORIES:
        raise ModelError(f"unknown memory allocation '{chosen_memory}' (one of {', '.join(MEMORIES)})", loc, chain)

    platform = platforms.get(raw.get("platform")) if raw.get("platform") else None
    if raw.get("platform") and platform is None:
        raise ModelError(
            f"chain '{chain}' runs on platform '{raw.get('platform')}', which the model does not define", loc, chain
        )
    core_set = list(cores) if cores is not None else list(schedule.get("cores") or [])
    n_threads = threads if threads is not None else schedule.get("threads")
    if not core_set:
        core_set = list(range(int(n_threads or (platform or {}).get("cores") or 1)))
    if n_threads is None:
        n_threads = len(core_set)
    if not isinstance(n_threads, int) or isinstance(n_threads, bool) or n_threads < 1:
        raise ModelError(f"a schedule needs at least one thread (got {n_threads!r})", loc, chain)
    if len(set(core_set)) != len(core_set) or any((not isinstance(c, int)) or c < 0 for c in core_set):
        raise ModelError(f"the core set {{{cores_text(core_set)}}} must list distinct core numbers >= 0", loc, chain)
    if platform is not None:
        outside = [c for c in core_set if c >= int(platform.get("cores", 1))]
        if outside:
            raise ModelError(
                f"core(s) {cores_text(outside)} do not exist on platform '{platform['name']}' "
                f"(cores 0..{int(platform.get('cores', 1)) - 1})",
                loc,
                chain,
            )
    if n_threads > len(core_set):
        raise ModelError(
            f"{n_threads} threads exceed the {len(core_set)} core(s) of the core set "
            f"{{{cores_text(core_set)}}}; pinned threads need a core each",
            loc,
            chain,
        )

    periods = [i.source_period_ns for i in instances if i.source_period_ns]
    return ChainView(
        chain,
        loc,
        platform,
        instances,
        buffers,
        input_buffer,
        chosen_heuristic,
        chosen_memory,
        n_threads,
        core_set[:n_threads] if chosen_heuristic in ("fixed", "predictable", "reduced") else core_set,
        raw.get("iterations"),
        max(periods) if periods else None,
        str(ir.get("source", "")),
    )


def _port_ref(
    ref: Any, index_of: dict[str, int], instances: list[Instance], direction: str, loc: Any
) -> tuple[int, str]:
    if not isinstance(ref, dict) or ref.get("instance") not in index_of:
        name = ref.get("instance") if isinstance(ref, dict) else ref
        raise ModelError(f"connection refers to unknown instance '{name}'", loc, str(name))
    inst = instances[index_of[ref["instance"]]]
    port = ref.get("port")
    ports = inst.outputs if direction == "out" else inst.inputs
    if port not in ports:
        other = inst.inputs if direction == "out" else inst.outputs
        what = ("an input" if direction == "out" else "an output") if port in other else "not a port"
        need = "an output" if direction == "out" else "an input"
        raise ModelError(
            f"'{inst.name}.{port}' is {what} of box '{inst.box}'; "
            f"a connection {'starts' if direction == 'out' else 'ends'} at {need}",
            loc,
            f"{inst.name}.{port}",
        )
    return inst.index, port


def _instance(
    index: int, item: dict[str, Any], box: dict[str, Any], images: dict[str | None, dict[str, Any]]
) -> Instance:
    name = item["name"]
    port_images: dict[str, dict[str, Any]] = {}
    inputs: list[str] = []
    outputs: list[str] = []
    for port in box.get("ports") or []:
        image = images.get(port.get("image"))
        if image is None:
            raise ModelError(
                f"port '{box['name']}.{port.get('name')}' has image type '{port.get('image')}', "
                "which the model does not define",
                port.get("loc") or box.get("loc"),
                f"{box['name']}.{port.get('name')}",
            )
        port_images[port["name"]] = image
        (inputs if port.get("direction") == "in" else outputs).append(port["name"])
    first = port_images[outputs[0]] if outputs else (port_images[inputs[0]] if inputs else None)
    if first is None:
        raise ModelError(
            f"box '{box['name']}' has no ports; it can be neither fed nor read", box.get("loc"), box["name"]
        )
    depends = box.get("depends") or {"kind": "none", "halo_rows": 0}
    kernel = box.get("kernel") or {"name": "copy", "args": []}
    etp = box.get("etp")
    if etp is not None and etp.get("kind") not in ("point", "uniform", "pmf", "histogram"):
        raise ModelError(
            f"box '{box['name']}' has an etp of kind '{etp.get('kind')}'; "
            "a box's etp is point, uniform, pmf or histogram",
            box.get("loc"),
            box["name"],
        )
    return Instance(
        index=index,
        name=name,
        box=box["name"],
        kernel=str(kernel.get("name")),
        args=list(kernel.get("args") or []),
        split=str(box.get("split", "none")),
        depends=str(depends.get("kind", "none")),
        halo_rows=int(depends.get("halo_rows") or 0),
        cost_ns=box.get("cost_ns"),
        etp=etp,
        source_period_ns=box.get("source_period_ns"),
        inputs=inputs,
        outputs=outputs,
        port_images=port_images,
        height=int(first["height"]),
        pixels=int(first["width"]) * int(first["height"]),
        loc=item.get("loc"),
        box_loc=box.get("loc"),
        position=index,
    )
