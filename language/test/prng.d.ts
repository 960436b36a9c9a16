/** mulberry32: a generator of numbers in [0, 1) from `seed`, the same on every platform (prng.js). */
export declare function prng(seed: number): () => number;
