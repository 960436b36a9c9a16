/**
 * The bundled language server over stdio against hostile input: a document above the size limit (issue 17 F3) and
 * bad framing (F18): one frame with `Content-Length: -5` or
 * `abc` made it deaf for good. Now a bad frame is dropped with a note in the client's log and the next one is
 * served; a seeded fuzz (CHAINLAB_LSP_FUZZ_CASES, default 300; bench/lsp runs 10,000) sends hostile bytes, each
 * followed by a sentinel request that must be answered once, and the server must still answer a hover at the end.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { StreamMessageReader, type Message, type ResponseMessage } from 'vscode-languageserver/node.js';
import { ensureServerBundle, languageDir } from './server-bundle.js';
import { prng } from '../prng.js';
import { frameCase } from './frame-fuzz.js';

const CASES = Number(process.env.CHAINLAB_LSP_FUZZ_CASES ?? 300);
const SEED = Number(process.env.CHAINLAB_LSP_FUZZ_SEED ?? 18);

let server: ChildProcessWithoutNullStreams;
let stderr = '';
const answers = new Map<string, ResponseMessage[]>();
const logged: string[] = [];
const diagnostics = new Map<string, Array<{ message: string }>>();
let waiting: (() => void) | undefined;

function send(bytes: Buffer | string): void {
    server.stdin.write(bytes);
}

function frame(message: object): string {
    const body = JSON.stringify({ jsonrpc: '2.0', ...message });
    return `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
}

/** The answers to the request `id` (a string: the fuzz cases use other ids), once one came or after `timeoutMs`. */
async function answer(id: string, timeoutMs = 20_000): Promise<ResponseMessage[]> {
    const deadline = Date.now() + timeoutMs;
    while (!answers.has(id) && Date.now() < deadline && server.exitCode === null) {
        await new Promise<void>(resolve => {
            waiting = resolve;
            setTimeout(resolve, 200);
        });
    }
    return answers.get(id) ?? [];
}

async function request(id: string, method: string, params: object): Promise<ResponseMessage> {
    send(frame({ id, method, params }));
    const replies = await answer(id);
    expect(replies.length, `${method} ${id} unanswered; stderr: ${stderr}`).toBe(1);
    return replies[0];
}

beforeAll(async () => {
    const bundle = await ensureServerBundle();
    server = spawn(process.execPath, [bundle, '--stdio'], { cwd: languageDir, stdio: 'pipe' });
    server.stderr.on('data', chunk => (stderr += String(chunk)));
    server.stdin.on('error', () => undefined); // a dead server is reported by the test that waits on it
    const reader = new StreamMessageReader(server.stdout);
    reader.listen((message: Message) => {
        const m = message as ResponseMessage & { method?: string; params?: { message?: string } };
        if (m.method === 'window/logMessage' && m.params?.message) logged.push(m.params.message);
        if (m.method === 'textDocument/publishDiagnostics') {
            const params = m.params as unknown as { uri: string; diagnostics: Array<{ message: string }> };
            diagnostics.set(params.uri, params.diagnostics);
        }
        if (typeof m.id === 'string' && m.method === undefined) answers.set(m.id, [...(answers.get(m.id) ?? []), m]);
        waiting?.();
    });
    await request('init', 'initialize', { processId: process.pid, rootUri: null, capabilities: {} });
    send(frame({ method: 'initialized', params: {} }));
    const text = 'ptts P {\n  component A period 10 ms offset 0 ms etp point 1 ms\n}\n';
    send(
        frame({
            method: 'textDocument/didOpen',
            params: { textDocument: { uri: 'file:///fuzz/p.chain', languageId: 'chain', version: 1, text } },
        }),
    );
}, 60_000);

afterAll(() => {
    if (server && server.exitCode === null) server.kill();
});

const hover = (id: string) =>
    request(id, 'textDocument/hover', {
        textDocument: { uri: 'file:///fuzz/p.chain' },
        position: { line: 1, character: 25 },
    });

describe('a document above the size limit (F3)', () => {
    test('is not parsed: one diagnostic says why, and the server keeps serving', async () => {
        const uri = 'file:///fuzz/large.chain';
        const line = '  component C period 10 ms offset 0 ms etp point 1 ms\n';
        const text = `ptts P {\n${line.repeat(Math.ceil((5 * 1024 * 1024) / line.length))}}\n`;
        const started = Date.now();
        send(
            frame({
                method: 'textDocument/didOpen',
                params: { textDocument: { uri, languageId: 'chain', version: 1, text } },
            }),
        );
        while (!diagnostics.has(uri) && Date.now() - started < 30_000) await new Promise(r => setTimeout(r, 100));
        expect(diagnostics.get(uri)?.map(d => d.message)).toEqual([
            "Not parsed: the model is 5.0 MiB, above chainlab's limit of 4 MiB (parsing needs a few hundred bytes of memory per byte of model): split it into smaller files.",
        ]);
        expect(JSON.stringify((await hover('after the large document')).result)).toContain('10 ms');
        const completion = await request('completion in the large document', 'textDocument/completion', {
            textDocument: { uri },
            position: { line: 5, character: 3 },
        });
        expect(completion.error).toBeUndefined();
    });
});

describe('language server framing', () => {
    test.each([
        ['a negative Content-Length', 'Content-Length: -5\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"x"}'],
        ['a Content-Length that is no number', 'Content-Length: abc\r\n\r\n{"jsonrpc":"2.0","id":1,"method":"x"}'],
        ['a Content-Length of 10^12', 'Content-Length: 1000000000000\r\n\r\n{"jsonrpc":"2.0","id":1}'],
        ['a header line without a colon', 'Content-Length 12\r\n\r\n{}'],
    ])('%s is dropped, logged, and the next request answered (F18)', async (name, bad) => {
        const before = logged.length;
        send(bad);
        const reply = await hover(`after ${name}`);
        expect(JSON.stringify(reply.result)).toContain('10 ms');
        expect(logged.slice(before).join('\n')).toContain('dropped a bad message frame');
    });

    test(`${CASES} seeded hostile cases (seed ${SEED}): every sentinel answered once, the server alive`, async () => {
        const next = prng(SEED);
        for (let i = 0; i < CASES; i++) {
            const parts = frameCase(next);
            for (const part of parts) send(part);
            const id = `sentinel ${i}`;
            send(frame({ id, method: 'chainlab/fuzzSentinel', params: {} }));
            const replies = await answer(id);
            expect(
                replies.length,
                `case ${i} (${JSON.stringify(Buffer.concat(parts).toString('latin1').slice(0, 200))}): stderr ${stderr}`,
            ).toBe(1);
        }
        expect(server.exitCode).toBe(null);
        expect(JSON.stringify((await hover('after the fuzz')).result)).toContain('10 ms');
        expect(stderr).toBe('');
        // bounded memory: the peak resident size of the server (Linux), printed for the bench's README
        const peak = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${server.pid}/status`, 'utf-8'))?.[1];
        if (peak) {
            console.log(`language server peak RSS after ${CASES} cases: ${(Number(peak) / 1024).toFixed(1)} MiB`);
            expect(Number(peak) / 1024).toBeLessThan(1024);
        }
    }, 600_000);
});
