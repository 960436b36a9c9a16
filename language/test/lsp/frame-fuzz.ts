/**
 * Seeded hostile input for the language server's stdio framing (issue 17 F18): bad Content-Length values, missing or
 * malformed headers, bodies that are no JSON-RPC, random bytes between frames. Every well-formed Content-Length is
 * honest (the body that follows has that many bytes): otherwise the next frame would be read as its body, which no
 * framing can tell apart. No case sends `exit` or `shutdown`.
 */

const frame = (body: string | Buffer) =>
    Buffer.concat([Buffer.from(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n`), Buffer.from(body)]);

const METHODS = ['textDocument/hover', 'textDocument/completion', '$/cancelRequest', 'chainlab/nope', '', 'initialize'];
const BAD_LENGTHS = [
    '-5',
    'abc',
    '',
    '1e3',
    '0x10',
    '+7',
    '1000000000000',
    '99999999999999999999',
    '3.5',
    '-0',
    ' 12a',
];

/** One case: the bytes to send (possibly in several writes). */
export function frameCase(next: () => number): Buffer[] {
    const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
    const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(next() * 256)));
    const request = () =>
        JSON.stringify({
            jsonrpc: pick(['2.0', '1.0', 2]),
            id: pick([Math.floor(next() * 1000), null, 'x', {}, -1]),
            method: pick(METHODS),
            params: pick([{}, [], null, 'p', { textDocument: { uri: 'file:///nope.chain' }, position: { line: -1 } }]),
        });
    const body = () =>
        pick([request(), '1', 'null', '[]', '"x"', '{', '{"jsonrpc":"2.0"}', bytes(20).toString('latin1')]);
    const kind = Math.floor(next() * 9);
    let out: Buffer[];
    switch (kind) {
        case 0: // F18: a Content-Length that is no byte count, then a body
            out = [Buffer.from(`Content-Length: ${pick(BAD_LENGTHS)}\r\n\r\n${body()}`)];
            break;
        case 1: // no Content-Length
            out = [Buffer.from(`Content-Type: application/json\r\n\r\n${body()}`)];
            break;
        case 2: // a malformed header line
            out = [
                Buffer.from(
                    `${pick(['', ': x', 'Content-Length', 'X\u0001: y', 'Content-Length 5'])}\r\n\r\n${body()}`,
                ),
            ];
            break;
        case 3: // random bytes between frames
            out = [bytes(Math.floor(next() * 300))];
            break;
        case 4: // a well-formed frame whose body is no JSON-RPC request
            out = [frame(body())];
            break;
        case 5: // bare newlines instead of CRLF
            out = [Buffer.from(`Content-Length: 2\n\n{}`)];
            break;
        case 6: // a header that never ends
            out = [Buffer.from(`X-Long: ${'a'.repeat(4000 + Math.floor(next() * 2000))}`)];
            break;
        case 7: // two Content-Lengths, the second honest
            out = [Buffer.from(`Content-Length: ${pick(BAD_LENGTHS)}\r\nContent-Length: 2\r\n\r\n{}`)];
            break;
        default:
            {
                // a valid request split at a random byte, with garbage before it
                const whole = Buffer.concat([bytes(Math.floor(next() * 10)), frame(request())]);
                const cut = Math.floor(next() * whole.length);
                out = [whole.subarray(0, cut), whole.subarray(cut)];
            }
            break;
    }
    return out;
}
