/** Control characters in CLI output (issue 17 F26): escaped, and JSON output stays JSON with the same value. */
import { describe, expect, test } from 'vitest';
import { escapeControls, MAX_MESSAGE_LINE, readableMessage } from '../../src/cli/escape-controls.js';

describe('escapeControls', () => {
    test('terminal escapes, C1 controls and bidirectional overrides are written out', () => {
        expect(escapeControls('a\u001b]0;t\u0007b\u009b2J\u202ec\u2066d\u007f')).toBe(
            'a\\x1b]0;t\\x07b\\u009b2J\\u202ec\\u2066d\\u007f',
        );
    });

    test('newlines and tabs stay, unless one line is asked for', () => {
        expect(escapeControls('a\nb\tc\r')).toBe('a\nb\tc\\r');
        expect(escapeControls('a\nb\tc', true)).toBe('a\\nb\\tc');
    });

    test('JSON output keeps its value', () => {
        const value = { s: 'x\u0085\u007f\u202e\u2069\u0000\u001b y' };
        const printed = escapeControls(JSON.stringify(value, null, 2));
        // eslint-disable-next-line no-control-regex
        expect(printed).not.toMatch(/[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u202e\u2069]/);
        expect(JSON.parse(printed)).toEqual(value);
    });
});

describe('readableMessage', () => {
    const long = 'y'.repeat(100);

    test('a long quoted value is cut to 40 characters and says how long it was', () => {
        expect(readableMessage(`argument '${long}' is invalid, not '${long}'`)).toBe(
            `argument '${'y'.repeat(40)}...' (100 characters) is invalid, not '${'y'.repeat(40)}...' (100 characters)`,
        );
    });

    test('prose between two short quoted values, and apostrophes, are kept whole', () => {
        const prose = `no ptts 'A' in this file: the chain's ${'words '.repeat(20)}name one of 'B', 'C'`;
        expect(readableMessage(prose)).toBe(prose);
    });

    test('one line: line breaks escaped; any line above the limit cut there', () => {
        expect(readableMessage('a\nb', true)).toBe('a\\nb');
        const line = readableMessage('x'.repeat(5000));
        expect(line).toBe(`${'x'.repeat(MAX_MESSAGE_LINE)}... (5000 characters)`);
    });
});
