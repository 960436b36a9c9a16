/**
 * How a `split rows` box is cut into sub-boxes and which input rows each sub-box reads: the rule of the
 * backend's planner (backend/chainlab/plan/rows.py), checked on both sides by tests/split-vectors.
 */
import type { Box } from '../generated/ast.js';
import { KERNELS } from './kernels.js';
import { boxDepends, boxInputs, boxKernel, boxOutputs, boxSplit } from './model-util.js';

/** What a sub-box of a split box reads: as the IR says it (`none` for a box that is not split). */
export type RowDependency = 'pointwise' | 'halo' | 'whole' | 'none';

/** Rows the box's kernel reads around each output row (a 5×5 convolution: 2). */
export function kernelHaloRows(box: Box): number {
    const kernel = boxKernel(box);
    const spec = kernel ? KERNELS.get(kernel.name) : undefined;
    return spec?.halo?.((kernel?.args ?? []).map(Number)) ?? 0;
}

/** Rows read around each output row: the larger of `depends halo N` and the kernel's own halo (IR `halo_rows`). */
export function haloRows(box: Box): number {
    const depends = boxDepends(box);
    const declared = depends?.dependency === 'halo' ? (depends.halo ?? 0) : 0;
    return Math.max(declared, kernelHaloRows(box));
}

/** The dependency of the box's slices; `none` when the box is not split. */
export function rowDependency(box: Box): RowDependency {
    if (boxSplit(box) !== 'rows') return 'none';
    return boxDepends(box)?.dependency ?? 'none';
}

/** Sub-boxes of a box: one per thread for `split rows`, at most one per row. */
export function sliceCount(split: boolean, height: number, threads: number): number {
    return split ? Math.max(1, Math.min(threads, height)) : 1;
}

/** Rows [start, end) of slice k of n. */
export function sliceRows(k: number, n: number, height: number): [number, number] {
    return [Math.floor((k * height) / n), Math.floor(((k + 1) * height) / n)];
}

/** Input rows [start, end) slice k of n reads: its own rows, widened by the halo, or the whole frame. */
export function readRows(k: number, n: number, height: number, depends: RowDependency, halo: number): [number, number] {
    if (n === 1 || depends === 'whole' || depends === 'none') return [0, height];
    const [start, end] = sliceRows(k, n, height);
    return depends === 'halo' ? [Math.max(0, start - halo), Math.min(height, end + halo)] : [start, end];
}

export interface BoxSlices {
    /** `split rows`: one sub-box per thread. */
    readonly split: boolean;
    /** Height of the image the box is sliced by: its first output, else its first input. */
    readonly height: number;
    readonly depends: RowDependency;
    readonly halo: number;
    /** Output rows of each sub-box. */
    readonly rows: Array<[number, number]>;
    /** Rows of its first input each sub-box reads (empty without inputs). */
    readonly reads: Array<[number, number]>;
}

/** The sub-boxes of a box run on `threads` threads; undefined while its ports have no image. */
export function boxSlices(box: Box, threads: number): BoxSlices | undefined {
    const input = boxInputs(box)[0]?.type?.ref;
    const image = boxOutputs(box)[0]?.type?.ref ?? input;
    if (!image || !(image.height > 0)) return undefined;
    const depends = rowDependency(box);
    const halo = haloRows(box);
    const split = boxSplit(box) === 'rows';
    const n = sliceCount(split, image.height, threads);
    const rows = Array.from({ length: n }, (_, k) => sliceRows(k, n, image.height));
    const reads =
        input && input.height > 0
            ? Array.from({ length: n }, (_, k) => readRows(k, n, input.height, depends, halo))
            : [];
    return { split, height: image.height, depends, halo, rows, reads };
}
