/** The contract's number format against the vectors the backend's report text is held to as well. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { formatDuration, formatMs, formatNumber, formatProbability } from '@chainlab/contract';

interface Vectors {
    number: [number | null, string][];
    probability: [number | null, string][];
    duration: [number, string | null, string][];
    ms: [number, string][];
}

const vectors = JSON.parse(
    readFileSync(join(__dirname, '..', '..', '..', 'tests', 'number-format-vectors', 'number-format.json'), 'utf-8'),
) as Vectors;

describe('the one number format (tests/number-format-vectors)', () => {
    test.each(vectors.number)('number %s → %s', (value, text) => expect(formatNumber(value)).toBe(text));
    test.each(vectors.probability)('probability %s → %s', (value, text) => expect(formatProbability(value)).toBe(text));
    test.each(vectors.duration)('duration %s ns (source unit %s) → %s', (ns, unit, text) =>
        expect(formatDuration(ns, unit ? { unit } : {})).toBe(text),
    );
    test.each(vectors.ms)('latency %s ms → %s', (ms, text) => expect(formatMs(ms)).toBe(text));

    test('no number reads as a dash, never NaN', () => {
        for (const v of [NaN, Infinity, undefined, null]) {
            expect(formatNumber(v)).toBe('–');
            expect(formatDuration(v)).toBe('–');
        }
    });
});
