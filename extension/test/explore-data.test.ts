/**
 * What Explore offsets shows and applies, from a real sweep (the CLI's `explore --json` is the same backend
 * method the language server forwards): the best offsets, the ranking by the objective, the table.
 */
import { execFileSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, test } from 'vitest';
import type { ExploreResult } from '@chainlab/contract';
import { bestText, exploreTable, objectiveValue, parseCandidatePeriods } from '../src/explore-data';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
let result: ExploreResult;

beforeAll(() => {
    const cli = join(repo, 'language', 'bin', 'chainlab.js');
    const args = ['explore', 'samples/ptts/thesis-fig5-2.chain', '--ptts', 'Fig52', '--vary', 'C1', '--step', '5 ms'];
    result = JSON.parse(execFileSync(process.execPath, [cli, ...args, '--json'], { cwd: repo, encoding: 'utf-8' }));
}, 120_000);

describe('Explore offsets', () => {
    test('the best point is the lowest objective and holds the swept offsets only (the change to apply)', () => {
        expect(result.vary).toEqual(['C1']);
        expect(Object.keys(result.best.offsets_ns)).toEqual(['C1']);
        expect(result.best.periods_ns).toEqual({});
        const values = result.points.map(p => objectiveValue(result, p));
        expect(objectiveValue(result, result.best)).toBe(Math.min(...values));
    });

    test('the table: the best line, a header, then the points ranked by the objective', () => {
        const [first, header, ...rows] = exploreTable(result, 5);
        expect(first).toBe(`ptts Fig52: ${result.points.length} offset combinations, ${bestText(result)}`);
        expect(bestText(result)).toMatch(/^best offsets for p99: C1 \d+(\.\d+)? ms → p99 \d/);
        expect(header.trim().split(/\s{2,}/)).toEqual(['C1 offset', 'mean', 'p99', 'max', 'loss']);
        expect(rows).toHaveLength(5);
        expect(rows[0].trim().startsWith(`${result.best.offsets_ms.C1} ms`)).toBe(true);
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
