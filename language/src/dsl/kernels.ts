/**
 * The kernels a box can run: their parameters and port shapes. One table
 * shared by validation, hover, completion and the IR.
 */
export interface KernelParam {
    readonly name: string;
    readonly integer?: boolean;
    readonly min?: number;
    readonly odd?: boolean;
}

export interface KernelSpec {
    readonly name: string;
    readonly doc: string;
    readonly params: readonly KernelParam[];
    /** Optional trailing parameters (from the end of `params`). */
    readonly optional?: number;
    readonly inputs: readonly [min: number, max: number];
    readonly outputs: readonly [min: number, max: number];
    /** Rows read around each output row (for halo checks), from the parameters. */
    readonly halo?: (args: readonly number[]) => number;
}

const MANY = Number.MAX_SAFE_INTEGER;

export const KERNELS: ReadonlyMap<string, KernelSpec> = new Map(
    (
        [
            {
                name: 'source',
                doc: 'Produces a deterministic synthetic frame per iteration (the detector).',
                params: [{ name: 'seed', integer: true, min: 0 }],
                optional: 1,
                inputs: [0, 0],
                outputs: [1, MANY],
            },
            {
                name: 'gain',
                doc: 'Multiplies every pixel by a factor.',
                params: [{ name: 'factor' }],
                inputs: [1, 1],
                outputs: [1, 1],
            },
            {
                name: 'offset',
                doc: 'Adds a constant to every pixel.',
                params: [{ name: 'value' }],
                inputs: [1, 1],
                outputs: [1, 1],
            },
            { name: 'add', doc: 'Adds two images pixel by pixel.', params: [], inputs: [2, 2], outputs: [1, 1] },
            {
                name: 'mul',
                doc: 'Multiplies two images pixel by pixel, then scales.',
                params: [{ name: 'scale' }],
                optional: 1,
                inputs: [2, 2],
                outputs: [1, 1],
            },
            {
                name: 'average',
                doc: 'Temporal average over the last N frames (keeps state between iterations).',
                params: [{ name: 'frames', integer: true, min: 1 }],
                inputs: [1, 1],
                outputs: [1, 1],
            },
            {
                name: 'convolution',
                doc: 'k×k spatial convolution; reads (k-1)/2 rows around each output row.',
                params: [{ name: 'k', integer: true, min: 1, odd: true }],
                inputs: [1, 1],
                outputs: [1, 1],
                halo: args => Math.floor(((args[0] ?? 1) - 1) / 2),
            },
            { name: 'copy', doc: 'Copies its input.', params: [], inputs: [1, 1], outputs: [1, 1] },
            {
                name: 'dup',
                doc: 'Duplicates its input onto every output.',
                params: [],
                inputs: [1, 1],
                outputs: [2, MANY],
            },
            {
                name: 'sink',
                doc: 'Consumes frames (display); computes a checksum of its input.',
                params: [],
                inputs: [1, MANY],
                outputs: [0, 0],
            },
        ] as KernelSpec[]
    ).map(k => [k.name, k]),
);

export const PIXEL_TYPES: ReadonlyMap<string, number> = new Map([
    ['u8', 1],
    ['i8', 1],
    ['u16', 2],
    ['i16', 2],
    ['u32', 4],
    ['i32', 4],
    ['int', 4],
    ['f32', 4],
    ['f64', 8],
]);

export const SPLITTABLE_DEPENDENCIES = ['pointwise', 'halo', 'whole'] as const;
