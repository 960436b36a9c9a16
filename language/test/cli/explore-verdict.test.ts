/**
 * What `chainlab explore` says of the best point, on the reply of tests/rpc-vectors (a real sweep, checked against
 * the contract) and variations of it: a flat objective in words, the settings kept, the changes with what they
 * are now.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ExploreResult } from '@chainlab/contract';
import { bestIsCurrent, independenceText, isFlat, settingsText, verdictLines } from '../../src/cli/explore-verdict.js';

const vector = join(__dirname, '..', '..', '..', 'tests', 'rpc-vectors', 'valid-ptts-explore.json');
const sweep = (): ExploreResult => JSON.parse(readFileSync(vector, 'utf-8')).value;

/** Wall's offset in the vector's sweep, every point at `p99` (a flat objective) and the model at `now` ms. */
function flat(p99: number, now: number): ExploreResult {
    const r = sweep();
    r.points = r.points.map(p => ({ ...p, p99_ms: p99 + (p.offsets_ns.Wall % 3) * 1e-13 }));
    r.current = { offsets_ns: { Wall: now * 1e6 }, periods_ns: {} };
    r.best = r.points.find(p => p.offsets_ns.Wall === now * 1e6)!;
    r.depends = { offsets: { Wall: false }, periods: {} };
    return r;
}

describe('explore verdict', () => {
    test('the best point that changes an offset names it with what it is now', () => {
        const r = sweep();
        expect(bestIsCurrent(r)).toBe(false);
        expect(settingsText(r)).toBe('Wall offset 12 ms (now 0 ms)');
        expect(verdictLines(r)).toEqual([
            'best for p99: Wall offset 12 ms (now 0 ms) → mean 73.2 ms, p99 93.8 ms, loss 0',
        ]);
        expect(independenceText(r)).toBeUndefined();
    });

    test('a flat objective is said in words, with its value, and the current offsets are kept', () => {
        const r = flat(98.4, 8);
        expect(isFlat(r)).toBe(true);
        expect(verdictLines(r)).toEqual([
            "the p99 does not depend on Wall's offset (98.4 ms at every point): keep the current settings (Wall offset 8 ms)",
        ]);
    });

    test('the best at the current settings says so', () => {
        const r = sweep();
        r.current = { offsets_ns: { Wall: 12_000_000 }, periods_ns: {} };
        expect(verdictLines(r)[0]).toBe(
            'best for p99: the current settings (Wall offset 12 ms) → mean 73.2 ms, p99 93.8 ms, loss 0',
        );
    });

    test('an offset that changes nothing next to one that does: it keeps its value, in words', () => {
        const r = sweep();
        r.vary = ['GPU', 'Wall'];
        r.points = r.points.map(p => ({ ...p, offsets_ns: { GPU: 4_000_000, ...p.offsets_ns } }));
        r.best = { ...r.best, offsets_ns: { GPU: 4_000_000, ...r.best.offsets_ns } };
        r.current = { offsets_ns: { GPU: 4_000_000, Wall: 0 }, periods_ns: {} };
        r.depends = { offsets: { GPU: false, Wall: true }, periods: {} };
        expect(isFlat(r)).toBe(false);
        expect(verdictLines(r)).toEqual([
            'best for p99: GPU offset 4 ms, Wall offset 12 ms (now 0 ms) → mean 73.2 ms, p99 93.8 ms, loss 0',
            "  the p99 does not depend on GPU's offset: it keeps its current value",
        ]);
    });
});
