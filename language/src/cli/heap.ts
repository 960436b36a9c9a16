/**
 * A full garbage collection between the phases of a large model's build. V8 lets the old generation grow to several
 * times its live size before it collects, so without one the CLI's peak memory for a model near the 4 MiB limit
 * was twice what the model needs: the tokens of the parse and each phase's garbage stayed on top of the next phase.
 * A collection takes about a tenth of a second per hundred megabytes; a model under a mebibyte does not need one.
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** Models of more characters than this (about a mebibyte) are built with a collection after each phase. */
export const COLLECT_ABOVE_CHARACTERS = 1024 * 1024;

let gc: (() => void) | undefined;

export function collectGarbage(): void {
    gc ??= exposedCollector();
    gc();
}

/** V8's collector: exposed to contexts made after the flag is set (a runtime without it only uses more memory). */
function exposedCollector(): () => void {
    try {
        setFlagsFromString('--expose-gc');
        const collector: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
        if (typeof collector === 'function') return collector as () => void;
    } catch {
        // fall through: no collection on demand
    }
    return () => undefined;
}
