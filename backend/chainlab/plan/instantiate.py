"""Step a of the tool flow (thesis §3.4.1): data parallelism and fine-grained dependencies.

Every box that may be split (`split rows`) becomes as many sub-boxes as there are threads (at most
one per image row); every other box stays one sub-box. Sub-box k of n computes rows
[k*H//n, (k+1)*H//n) of its outputs, which is the Appendix A instantiation for n = 2
(f6.0 [0,0]:[256,128], f6.1 [0,128]:[256,256]).

A sub-box depends on exactly those producer sub-boxes whose written rows overlap the rows it reads:
`pointwise` reads its own rows, `halo N` its rows widened by N on each side, `whole` (and any box
that is not split) all rows. Without this annotation every sub-box would depend on every sub-box of
its predecessor, which limits the scheduler and adds synchronization (thesis, Figure 3.2).
"""

from __future__ import annotations

from chainlab.plan.costs import box_mean_cost_ns
from chainlab.plan.model import ChainView, Dep, Instantiation, SubBox
from chainlab.plan.rows import read_rows, slice_rows, sub_box_count


def instantiate(view: ChainView) -> Instantiation:
    subs: list[SubBox] = []
    by_instance: list[list[int]] = []
    for inst in view.instances:
        n = sub_box_count(inst.split, inst.height, view.threads)
        mean = box_mean_cost_ns(inst)
        ids = []
        for k in range(n):
            r0, r1 = slice_rows(k, n, inst.height)
            subs.append(
                SubBox(
                    len(subs), f"{inst.name}.{k}", inst.index, k, n, r0, r1, inst.height, mean * (r1 - r0) / inst.height
                )
            )
            ids.append(len(subs) - 1)
        by_instance.append(ids)

    writers: list[list[int]] = [list(by_instance[b.producer]) for b in view.buffers]
    readers: list[list[int]] = [[] for _ in view.buffers]
    deps: list[Dep] = []
    for inst in view.instances:
        consumers = by_instance[inst.index]
        n = len(consumers)
        seen_buffers: set[int] = set()
        for port in inst.inputs:
            b = view.input_buffer[(inst.index, port)]
            if b in seen_buffers:  # the same output feeds two inputs of this box: one buffer, read once
                continue
            seen_buffers.add(b)
            buf = view.buffers[b]
            producers = by_instance[buf.producer]
            m = len(producers)
            for k, c in enumerate(consumers):
                readers[b].append(c)
                lo, hi = read_rows(k, n, buf.height, inst.depends if inst.split == "rows" else "whole", inst.halo_rows)
                for j, p in enumerate(producers):
                    w0, w1 = slice_rows(j, m, buf.height)
                    a, z = max(lo, w0), min(hi, w1)
                    if a < z:
                        deps.append(Dep(p, c, b, a, z, (z - a) * buf.row_bytes))

    preds: list[list[int]] = [[] for _ in subs]
    succs: list[list[int]] = [[] for _ in subs]
    read_bytes: list[dict[int, int]] = [{} for _ in subs]
    for d in deps:
        if d.src not in read_bytes[d.dst]:
            preds[d.dst].append(d.src)
            succs[d.src].append(d.dst)
        read_bytes[d.dst][d.src] = read_bytes[d.dst].get(d.src, 0) + d.bytes
    topo = [s for ids in by_instance for s in ids]  # instances are numbered topologically
    return Instantiation(subs, deps, by_instance, writers, readers, preds, succs, read_bytes, topo)
