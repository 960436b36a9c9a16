/**
 * The latest `Run on target` reply (the backend's deploy/run, relayed as `chainlab/deploy`) per document
 * and chain, kept by the language server so that its ETP quick fix and `chainlab/etpFromMeasurement`
 * can write what was measured.
 */
import { ElementResults } from './element-results.js';
import type { MeasuredRun } from './measured-etp.js';

export class RunResults extends ElementResults<MeasuredRun> {}

/** Keeps a `chainlab/deploy` reply of a chain; true when one was kept. */
export function rememberRun(runs: RunResults, request: string, uri: string, params: object, result: unknown): boolean {
    if (
        request !== 'chainlab/deploy' ||
        !('chain' in params) ||
        typeof params.chain !== 'string' ||
        !result ||
        typeof result !== 'object'
    ) {
        return false;
    }
    const scenarios = (result as Partial<MeasuredRun>).scenarios;
    if (!Array.isArray(scenarios)) return false;
    runs.set(uri, params.chain, result as MeasuredRun);
    return true;
}
