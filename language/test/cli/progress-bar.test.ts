/** The CLI's progress bar: share, time left from the pace so far, nothing outside a terminal. */
import { Writable } from 'node:stream';
import { describe, expect, test } from 'vitest';
import { formatSeconds, progressBar, progressLine } from '../../src/cli/progress-bar.js';

function terminal(isTTY: boolean): NodeJS.WriteStream & { text: string } {
    const stream = new Writable({
        write(chunk, _encoding, done) {
            stream.text += String(chunk);
            done();
        },
    }) as unknown as NodeJS.WriteStream & { text: string };
    stream.text = '';
    Object.assign(stream, { isTTY, columns: 80 });
    return stream;
}

describe('progress bar', () => {
    test('a line: bar, share, time left at the pace so far, message', () => {
        expect(progressLine(0.25, 30, '250 of 1000 points')).toBe(
            '  [██████··················]  25 %  ~1 min 30 s left  250 of 1000 points',
        );
        expect(progressLine(0.01, 5, 'start')).not.toContain('left'); // too early to say
        expect(progressLine(1, 40, 'done')).toBe('  [████████████████████████] 100 %  done');
        expect(progressLine(Number.NaN, 1, 'x')).toContain('  0 %');
        expect(formatSeconds(0.2)).toBe('1 s');
        expect(formatSeconds(7300)).toBe('2 h 2 min');
    });

    test('redrawn in place on a terminal, cut to its width, ended by a newline', () => {
        const tty = terminal(true);
        const bar = progressBar(false, tty);
        bar.onProgress!({ fraction: 0.5, message: 'x'.repeat(200) });
        bar.onProgress!({ fraction: 0.6, message: 'short' });
        bar.end();
        const lines = tty.text.split('\r').filter(Boolean);
        expect(lines).toHaveLength(2);
        expect(lines[0].length).toBe(79);
        expect(lines[1].trimEnd()).toMatch(/ 60 % .*short$/);
        expect(tty.text.endsWith('\n')).toBe(true);
    });

    test('nothing in a pipe or with --json', () => {
        const pipe = terminal(false);
        expect(progressBar(false, pipe).onProgress).toBeUndefined();
        expect(progressBar(true, terminal(true)).onProgress).toBeUndefined();
        progressBar(false, pipe).end();
        expect(pipe.text).toBe('');
    });
});
