/**
 * What Explore offsets shows and applies, from real sweeps (the CLI's `explore --json` is the same backend
 * method the language server forwards): the best offsets, the ranking by the objective, the table; a flat
 * objective said in words, offsets that change nothing kept, only changes applied.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ExploreResult } from '@chainlab/contract';
import {
    bestChanges,
    bestText,
    exploreChart,
    exploreTable,
    independenceText,
    isFlat,
    objectiveValue,
    parseCandidatePeriods,
} from '../src/explore-data';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const fig52 = (...args: string[]): ExploreResult => {
    const cli = join(repo, 'language', 'bin', 'chainlab.js');
    const sweep = ['explore', 'samples/ptts/thesis-fig5-2.chain', '--ptts', 'Fig52', ...args, '--json'];
    return JSON.parse(execFileSync(process.execPath, [cli, ...sweep], { cwd: repo, encoding: 'utf-8' }));
};
let result: ExploreResult;
let flatMean: ExploreResult;
let twoOffsets: ExploreResult;

beforeAll(() => {
    result = fig52('--vary', 'C2', '--step', '5 ms');
    flatMean = fig52('--vary', 'C1', '--objective', 'mean');
    twoOffsets = fig52('--vary', 'C1,C2', '--objective', 'p99');
}, 120_000);

describe('Explore offsets', () => {
    test('the best point is the lowest objective and holds the swept offsets only (the change to apply)', () => {
        expect(result.vary).toEqual(['C2']);
        expect(Object.keys(result.best.offsets_ns)).toEqual(['C2']);
        expect(result.best.periods_ns).toEqual({});
        const values = result.points.map(p => objectiveValue(result, p));
        expect(objectiveValue(result, result.best)).toBe(Math.min(...values));
    });

    test('the table: the best line, a header, then the points ranked by the objective', () => {
        const [first, header, ...rows] = exploreTable(result, 5);
        expect(first).toBe(`ptts Fig52: ${result.points.length} offset combinations, ${bestText(result)}`);
        expect(bestText(result)).toMatch(
            /^best offsets for p99: C2 10 ms \(now 8 ms\) → p99 279 ms, mean 200 ms, loss /,
        );
        expect(header.trim().split(/\s{2,}/)).toEqual(['C2 offset', 'mean', 'p99', 'max', 'loss']);
        expect(rows).toHaveLength(5);
        expect(rows[0].trim().startsWith(`${result.best.offsets_ms.C2} ms`)).toBe(true);
        const p99s = rows.map(r =>
            Number(
                r
                    .trim()
                    .split(/\s{2,}/)[2]
                    .replace(' ms', ''),
            ),
        );
        expect(p99s).toEqual([...p99s].sort((a, b) => a - b));
    });
});

describe('a flat objective and offsets that change nothing', () => {
    test('the mean over C1 is flat: said in words, drawn flat, the current offset kept, nothing to apply', () => {
        const means = flatMean.points.map(p => p.mean_ms);
        expect(Math.max(...means) - Math.min(...means)).toBeLessThan(1e-9); // rounding noise only
        expect(isFlat(flatMean)).toBe(true);
        expect(independenceText(flatMean)).toBe("the mean latency does not depend on C1's offset");
        expect(bestText(flatMean)).toBe(
            "the mean latency does not depend on C1's offset (200 ms at every offset swept): the current offsets stay",
        );
        expect(flatMean.best.offsets_ns).toEqual({ C1: 30_000_000 });
        expect(bestChanges(flatMean)).toEqual({ offsets_ns: {}, periods_ns: {} });
        const chart = exploreChart(flatMean);
        expect(chart).toMatchObject({ flat: true, changes: 0, current: { x: 30 }, best: { x: 30 } });
        expect(chart.note).toBe("the mean latency does not depend on C1's offset");
    });

    test('p99 over C1 × C2 depends on C2 only: C1 stays at 30 ms and only C2 is applied', () => {
        expect(twoOffsets.depends.offsets).toEqual({ C1: false, C2: true });
        expect(isFlat(twoOffsets)).toBe(false);
        expect(twoOffsets.best.offsets_ns.C1).toBe(30_000_000);
        const changes = bestChanges(twoOffsets);
        expect(Object.keys(changes.offsets_ns)).toEqual(['C2']);
        expect(bestText(twoOffsets)).toMatch(
            /^best offsets for p99: C1 30 ms, C2 \d+ ms \(now 8 ms\) → p99 279 ms, .*; the p99 latency does not depend on C1's offset$/,
        );
        const chart = exploreChart(twoOffsets);
        expect(chart).toMatchObject({ flat: false, changes: 1, current: { x: 30, y: 8 } });
        // the table ranks by the objective in steps of its resolution: the best first, then the p99 ascending
        const p99s = exploreTable(twoOffsets, 20)
            .slice(2)
            .map(r =>
                Number(
                    r
                        .trim()
                        .split(/\s{2,}/)[3]
                        .replace(' ms', ''),
                ),
            );
        expect(p99s).toEqual([...p99s].sort((a, b) => a - b));
    });
});

describe('candidate periods as typed in the editor', () => {
    test('NAME=ms,ms per component, in ns; a clear reason otherwise', () => {
        expect(parseCandidatePeriods('')).toEqual({});
        expect(parseCandidatePeriods(' Wall=16.6,16.7  GPU=16.65 ')).toEqual({
            Wall: [16_600_000, 16_700_000],
            GPU: [16_650_000],
        });
        expect(parseCandidatePeriods('Wall=16.6;GPU=16.7')).toEqual({ Wall: [16_600_000], GPU: [16_700_000] });
        expect(parseCandidatePeriods('Wall 16.6')).toMatch(/^'Wall': write NAME=ms,ms/);
        expect(parseCandidatePeriods('Wall=0')).toBe("'Wall=0': periods are positive numbers of ms");
    });
});
