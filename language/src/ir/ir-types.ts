/**
 * The chainlab IR: the versioned JSON form of a validated model, the only thing
 * that crosses into the Python backend. Times are integer nanoseconds, sizes
 * integer bytes. The schema is backend/chainlab/ir/chainlab-ir.schema.json;
 * change both together and bump IR_VERSION.
 */
export const IR_VERSION = '1.0';

export interface IrLoc { file: string; line: number; column: number }

export interface IrModel {
    ir_version: typeof IR_VERSION;
    source: string;
    platforms: IrPlatform[];
    images: IrImage[];
    boxes: IrBox[];
    chains: IrChain[];
    ptts: IrPtts[];
    throttles: IrThrottle[];
    targets: IrTarget[];
}

export interface IrPlatform {
    name: string; loc: IrLoc; cores: number; smt: boolean | null;
    caches: Array<{ level: string; size_bytes: number; shared: boolean }>;
}

export interface IrImage {
    name: string; loc: IrLoc; width: number; height: number; pixel: string; pixel_bytes: number; frame_bytes: number;
}

export type IrDependency = 'pointwise' | 'halo' | 'whole' | 'none';

export interface IrBox {
    name: string; loc: IrLoc;
    kernel: { name: string; args: number[] };
    ports: Array<{ name: string; direction: 'in' | 'out'; image: string; loc: IrLoc }>;
    split: 'rows' | 'none';
    depends: { kind: IrDependency; halo_rows: number };
    cost_ns: number | null;
    etp: IrEtp | null;
    source_period_ns: number | null;
}

export interface IrPortRef { instance: string; port: string }

export interface IrChain {
    name: string; loc: IrLoc; platform: string | null;
    instances: Array<{ name: string; box: string; loc: IrLoc }>;
    connections: Array<{ from: IrPortRef; to: IrPortRef; image: string; bytes: number; loc: IrLoc }>;
    schedule: { heuristic: 'simple' | 'barrier' | 'fixed' | 'predictable' | 'reduced'; threads: number; cores: number[] };
    memory: 'simple' | 'reuse';
    iterations: number | null;
    requirements: IrRequirement[];
}

export type IrEtp =
    | { kind: 'point'; value_ns: number }
    | { kind: 'uniform'; min_ns: number; max_ns: number; step_ns: number }
    | { kind: 'pmf'; points: Array<[number, number]> }
    | { kind: 'histogram'; file: string; samples: number; points: Array<[number, number]> }
    | { kind: 'chain'; chain: string };

export type IrRequirement =
    | { kind: 'percentile'; percentile: number; op: '<' | '<='; bound_ns: number; loc: IrLoc }
    | { kind: 'deadline'; op: '<' | '<='; bound_ns: number; probability: number; loc: IrLoc }
    | { kind: 'loss'; op: '<' | '<='; limit: number; loc: IrLoc };

export interface IrPtts {
    name: string; loc: IrLoc;
    order: 'production-first' | 'consumption-first';
    resolution_ns: number | null;
    components: Array<{ name: string; loc: IrLoc; period_ns: number; offset_ns: number; etp: IrEtp }>;
    requirements: IrRequirement[];
}

export interface IrCounter { event: string | null; raw: string | null }

export interface IrThrottle {
    name: string; loc: IrLoc;
    mode: 'duty-cycle' | 'budget';
    counter: IrCounter;
    mechanism: 'fifo-hold' | 'sigstop' | 'freeze';
    duty_cycle: {
        sample_ns: number; suspend_ns: number; proportional: boolean;
        threshold: IrThreshold | null; read_threshold: IrThreshold | null; write_threshold: IrThreshold | null;
    } | null;
    budget: { period_ns: number; misses: number; per_core: boolean; distribution: 'static' | 'dynamic' } | null;
}

export interface IrThreshold { value: number; unit: '%' | 'MB/s' | 'GB/s' | 'MiB/s' | 'GiB/s' }

export interface IrTarget {
    name: string; loc: IrLoc;
    kind: 'local' | 'ssh';
    user: string | null; host: string | null; port: number; key: string | null; root: string | null;
    platform: string | null;
    rt_cores: number[]; be_cores: number[];
    throttle: string | null;
    workload: { kind: 'hog' } | { kind: 'command'; command: string } | null;
}
