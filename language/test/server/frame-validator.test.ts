/** The frame validator in front of the language server's stdin (issue 17 F18), on byte streams. */
import { describe, expect, test } from 'vitest';
import { FrameValidator } from '../../src/server/frame-validator.js';

const frame = (body: string) => `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const GOOD = frame('{"jsonrpc":"2.0","id":1,"method":"a"}');
const GOOD2 = frame('{"jsonrpc":"2.0","id":2,"method":"b","params":{"text":"é ∑ Content-Length: 3"}}');

/** Everything the validator passes on for `chunks`, and its notes. */
function through(chunks: Array<string | Buffer>, maxFrameBytes?: number): { out: string; notes: string[] } {
    const notes: string[] = [];
    const validator = new FrameValidator(note => notes.push(note), maxFrameBytes);
    const out: Buffer[] = [];
    validator.on('data', (chunk: Buffer) => out.push(chunk));
    for (const chunk of chunks) validator.write(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    return { out: Buffer.concat(out).toString('utf-8'), notes };
}

describe('frame validator', () => {
    test('well-formed frames pass unchanged, however the stream is cut', () => {
        const stream = Buffer.from(GOOD + GOOD2 + GOOD);
        for (let cut = 1; cut < stream.length; cut += 7) {
            const { out, notes } = through([stream.subarray(0, cut), stream.subarray(cut)]);
            expect(out).toBe(GOOD + GOOD2 + GOOD);
            expect(notes).toEqual([]);
        }
        const bytes = [...stream].map(b => Buffer.from([b]));
        expect(through(bytes).out).toBe(GOOD + GOOD2 + GOOD);
    });

    test('other headers are dropped, the body kept', () => {
        const body = '{"jsonrpc":"2.0","id":3,"method":"c"}';
        const withType = `Content-Type: application/vscode-jsonrpc; charset=utf-8\r\ncontent-length: ${body.length}\r\n\r\n${body}`;
        expect(through([withType]).out).toBe(frame(body));
    });

    test.each([
        ['a negative length', 'Content-Length: -5\r\n\r\n{"jsonrpc":"2.0","id":9,"method":"x"}'],
        ['a length that is no number', 'Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","id":9,"method":"x"}'],
        ['a hexadecimal length', 'Content-Length: 0x10\r\n\r\n{"jsonrpc":"2.0"}'],
        ['a length above the bound', 'Content-Length: 1000000000000\r\n\r\n{"jsonrpc":"2.0","id":9}'],
        ['no Content-Length', 'Content-Type: text/plain\r\n\r\n{}'],
        ['a header line without a name', 'Content-Length: 2\r\n: x\r\n\r\n{}'],
        ['a header with a bare newline', 'Content-Length: 5\n\n{"a":1}'],
        ['garbage', '\u0000\u00ff garbage {"jsonrpc":"2.0"}\r\n\r\n'],
        ['a header that never ends', 'X-Header: ' + 'a'.repeat(5000)],
    ])('%s is dropped with a note; the next frame passes', (_, bad) => {
        const { out, notes } = through([GOOD, bad, GOOD2]);
        expect(out).toBe(GOOD + GOOD2);
        expect(notes.length).toBeGreaterThan(0);
        expect(notes[0]).toMatch(/^dropped a bad message frame \(1 so far\): /);
    });

    test('two Content-Lengths: the second one starts the frame (the first lost its blank line)', () => {
        const { out, notes } = through([GOOD, 'Content-Length: 9\r\nContent-Length: 2\r\n\r\n{}', GOOD2]);
        expect(out).toBe(GOOD + frame('{}') + GOOD2);
        expect(notes).toEqual(['dropped a bad message frame (1 so far): two Content-Length headers']);
    });

    test('a frame above the bound is refused without buffering it', () => {
        const { out, notes } = through([frame('x'.repeat(200)), GOOD], 100);
        expect(out).toBe(GOOD);
        expect(notes[0]).toContain('Content-Length 200 is above the limit of 100 bytes');
    });

    test('a large frame in many chunks passes whole', () => {
        const body = JSON.stringify({ jsonrpc: '2.0', method: 'm', params: { text: 'x'.repeat(3_000_000) } });
        const stream = Buffer.from(frame(body) + GOOD);
        const chunks: Buffer[] = [];
        for (let at = 0; at < stream.length; at += 65_536) chunks.push(stream.subarray(at, at + 65_536));
        expect(through(chunks).out).toBe(frame(body) + GOOD);
    });

    test('notes stop after 100, then one per 1000', () => {
        const { out, notes } = through([...Array.from({ length: 2500 }, () => 'Content-Length: -1\r\n\r\n'), GOOD]);
        expect(out).toBe(GOOD);
        expect(notes.length).toBe(102);
        expect(notes.at(-1)).toContain('(2000 so far)');
    });
});
