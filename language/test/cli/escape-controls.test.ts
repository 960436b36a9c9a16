/** Control characters in CLI output (issue 17 F26): escaped, and JSON output stays JSON with the same value. */
import { describe, expect, test } from 'vitest';
import { escapeControls } from '../../src/cli/escape-controls.js';

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
