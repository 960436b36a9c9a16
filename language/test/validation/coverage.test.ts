/**
 * Every diagnostic code has tests: a describe block named after it, and at
 * least one expectation of the exact diagnostic (`error CODE line:col..`).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { Codes } from '../../src/dsl/validation/diagnostic-codes.js';

const here = new URL('.', import.meta.url).pathname;
const sources = readdirSync(here)
    .filter(f => f.endsWith('.test.ts') && f !== 'coverage.test.ts')
    .map(f => readFileSync(join(here, f), 'utf-8'));
const all = sources.join('\n');
const LANGIUM_CODES = ['linking-error', 'parsing-error', 'lexing-error'];

describe('every diagnostic code is tested', () => {
    test.each([...Object.values(Codes), ...LANGIUM_CODES])('%s', code => {
        const describes = [...all.matchAll(/describe\((['"`])(.*?)\1/g)].map(m => m[2]);
        expect(
            describes.some(title => title.includes(code)),
            `a describe block naming '${code}'`,
        ).toBe(true);
        expect(
            new RegExp(`'(error|warning) ${code} \\d+:\\d+\\.\\.\\d+:\\d+ `).test(all),
            `an exact expectation of '${code}'`,
        ).toBe(true);
    });

    test('the codes are unique', () => {
        const codes = Object.values(Codes);
        expect(new Set(codes).size).toBe(codes.length);
    });
});
