/** Every CLI error line starts the same way: `chainlab: error:`, or a file position first as compilers write it. */
import { describe, expect, test } from 'vitest';
import { errorLine } from '../../src/cli/error-line.js';

describe('errorLine', () => {
    test('a bare message, a message that starts with error: and one that has the prefix already', () => {
        expect(errorLine('no such file')).toBe('chainlab: error: no such file');
        expect(errorLine("error: option '--boxes <n>' argument 'x' is invalid")).toBe(
            "chainlab: error: option '--boxes <n>' argument 'x' is invalid",
        );
        expect(errorLine('chainlab: error: twice?')).toBe('chainlab: error: twice?');
    });

    test('a message placed in a file keeps its place first', () => {
        expect(errorLine('lab.chain:3:14: error: unknown box')).toBe('lab.chain:3:14: error: unknown box');
        expect(errorLine('/a b/m.chain:1:1: warning: w')).toBe('/a b/m.chain:1:1: warning: w');
        expect(errorLine('m.chain: 3 errors')).toBe('chainlab: error: m.chain: 3 errors');
    });
});
