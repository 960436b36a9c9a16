/**
 * The best point of the latest sweep (`chainlab/explore`) per document and ptts, kept by the language server so
 * that it can offer it as a code action on the ptts: the offsets (and periods, when candidate periods were swept)
 * that differ from the model's, written as one edit, undoable. The backend keeps the current value of whatever
 * the objective does not depend on, so these are the changes that change the objective.
 */
import type { ExploreResult } from '@chainlab/contract';
import { ElementResults } from './element-results.js';

export interface SweptPoint {
    objective: ExploreResult['objective'];
    /** The best point's offsets that differ from the model's when it was swept. */
    offsets_ns: Record<string, number>;
    /** The best point's periods that differ from the model's, where candidate periods were swept. */
    periods_ns: Record<string, number>;
    p99_ms: number;
    mean_ms: number;
    loss: number;
    /** Whether the sweep ran to its end (a cancelled one has a best of the points done). */
    complete: boolean;
}

export class SweepResults extends ElementResults<SweptPoint> {}

/** The values of `best` that differ from `current` (all of them where the reply has no current values). */
export function changes(
    best: Readonly<Record<string, number>>,
    current: Readonly<Record<string, number>> | undefined,
): Record<string, number> {
    return Object.fromEntries(Object.entries(best).filter(([name, ns]) => current?.[name] !== ns));
}

/** Keeps the best point of a `chainlab/explore` reply; true when one was kept. */
export function rememberSweep(
    sweeps: SweepResults,
    request: string,
    uri: string,
    params: object,
    result: unknown,
): boolean {
    if (request !== 'chainlab/explore' || !('ptts' in params) || typeof params.ptts !== 'string') return false;
    const reply = result as Partial<ExploreResult> | undefined;
    if (!reply?.best || !Array.isArray(reply.vary) || !reply.objective) return false;
    const best = reply.best; // its offsets and periods are exactly the swept ones (the contract says so)
    sweeps.set(uri, params.ptts, {
        objective: reply.objective,
        offsets_ns: changes(best.offsets_ns, reply.current?.offsets_ns),
        periods_ns: changes(best.periods_ns, reply.current?.periods_ns),
        p99_ms: best.p99_ms,
        mean_ms: best.mean_ms,
        loss: best.loss,
        complete: reply.complete !== false,
    });
    return true;
}
