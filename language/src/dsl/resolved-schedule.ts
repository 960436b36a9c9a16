/**
 * How a chain is scheduled once every default is filled in, the way the backend's planner reads the IR
 * (backend/chainlab/plan/chainview.py): without `threads`, one thread per core of the core set, else one
 * per platform core; without `cores`, cores 0..threads-1. The IR export, the hover, the diagrams and the
 * halo check all read it here, so none of them can show another split than the plan makes.
 */
import type { Chain, Instance } from '../generated/ast.js';
import {
    chainMemory,
    chainSchedule,
    expandCoreSet,
    platformCores,
    scheduleCores,
    scheduleThreads,
} from './model-util.js';
import { boxSlices, type BoxSlices } from './row-slices.js';

export const DEFAULT_HEURISTIC = 'reduced';
export const DEFAULT_MEMORY = 'reuse';
/** Cores listed at most (as expandCoreSet): an absurd thread count must not build an absurd list. */
const MAX_CORES = 4096;

export interface ResolvedSchedule {
    readonly heuristic: string;
    readonly memory: string;
    readonly threads: number;
    readonly cores: number[];
    /** The sub-boxes of an instance of this chain; undefined while its box or image is unknown. */
    slicesOf(instance: Instance): BoxSlices | undefined;
}

export function resolvedSchedule(chain: Chain): ResolvedSchedule {
    const schedule = chainSchedule(chain);
    const chosen = expandCoreSet(scheduleCores(schedule));
    const platformCoreCount = chain.platform?.ref ? platformCores(chain.platform.ref) : undefined;
    const threads = scheduleThreads(schedule) ?? (chosen.length > 0 ? chosen.length : (platformCoreCount ?? 1));
    const cores =
        chosen.length > 0 ? chosen : Array.from({ length: Math.max(0, Math.min(threads, MAX_CORES)) }, (_, i) => i);
    return {
        heuristic: schedule?.heuristic ?? DEFAULT_HEURISTIC,
        memory: chainMemory(chain) ?? DEFAULT_MEMORY,
        threads,
        cores,
        slicesOf: instance => (instance.box?.ref ? boxSlices(instance.box.ref, threads) : undefined),
    };
}
