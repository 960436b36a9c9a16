/** A generated model of `instances` box instances of `defs` box definitions (large-model.js), with its counts. */
export declare function generateModel(
    instances: number,
    defs: number,
    seed?: number,
): { text: string; instances: number; connections: number; defs: number };
