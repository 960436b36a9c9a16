/** What the language server keeps of a sweep for its code action: the best point's changes to the model. */
import { describe, expect, test } from 'vitest';
import { changes, rememberSweep, SweepResults } from '../../src/server/sweep-results.js';

const point = (offsets_ns: Record<string, number>, periods_ns: Record<string, number> = {}) => ({
    offsets_ns,
    offsets_ms: {},
    periods_ns,
    periods_ms: {},
    mean_ms: 200,
    p50_ms: 197,
    p99_ms: 279,
    max_ms: 317,
    loss: 8.5e-5,
});

describe('sweep results', () => {
    test('only the offsets and periods that differ from the model are kept (what the objective depends on)', () => {
        const sweeps = new SweepResults();
        const reply = {
            vary: ['C1', 'C2'],
            objective: 'p99',
            complete: true,
            best: point({ C1: 30_000_000, C2: 10_000_000 }, { C0: 200_000_000 }),
            current: { offsets_ns: { C1: 30_000_000, C2: 8_000_000 }, periods_ns: { C0: 200_000_000 } },
        };
        expect(rememberSweep(sweeps, 'chainlab/explore', 'file:///f.chain', { ptts: 'Fig52' }, reply)).toBe(true);
        const kept = sweeps.get('file:///f.chain', 'Fig52');
        expect(kept?.offsets_ns).toEqual({ C2: 10_000_000 });
        expect(kept?.periods_ns).toEqual({});
        expect(kept?.p99_ms).toBe(279);
    });

    test('another request, or a reply without a best point, keeps nothing', () => {
        const sweeps = new SweepResults();
        expect(rememberSweep(sweeps, 'chainlab/analyze', 'file:///f.chain', { ptts: 'P' }, {})).toBe(false);
        expect(rememberSweep(sweeps, 'chainlab/explore', 'file:///f.chain', { ptts: 'P' }, { vary: [] })).toBe(false);
        expect(sweeps.has('file:///f.chain')).toBe(false);
    });

    test('changes: everything when the current values are unknown', () => {
        expect(changes({ A: 1, B: 2 }, { A: 1, B: 3 })).toEqual({ B: 2 });
        expect(changes({ A: 1 }, undefined)).toEqual({ A: 1 });
    });
});
