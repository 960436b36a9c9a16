/**
 * The language server's analysis requests, end to end: bundled server over stdio → IR of the open
 * document → Python backend over JSON-RPC. Errors come back as LSP errors, a cancelled request
 * returns at once and the next request gets a fresh backend.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
    CancellationTokenSource,
    DidOpenTextDocumentNotification,
    type ResponseError,
    type ProtocolConnection,
} from 'vscode-languageserver/node.js';
import { languageDir, startServer } from './server-bundle.js';

const sample = join(languageDir, '..', 'samples', 'ptts', 'thesis-fig5-2.chain');
const sampleUri = pathToFileURL(sample).toString();

let server: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;

beforeAll(async () => {
    ({ server, connection } = await startServer());
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: sampleUri, languageId: 'chain', version: 1, text: readFileSync(sample, 'utf-8') },
    });
}, 60_000);

afterAll(() => {
    connection?.dispose();
    if (server && server.exitCode === null) server.kill();
});

async function failure(promise: Promise<unknown>): Promise<ResponseError<unknown>> {
    try {
        await promise;
    } catch (error) {
        return error as ResponseError<unknown>;
    }
    throw new Error('the request succeeded');
}

describe('analysis requests of the language server', () => {
    test('the venv backend exists (set up by npm test)', () => {
        expect(existsSync(join(languageDir, '..', 'backend', '.venv', 'bin', 'python'))).toBe(true);
    });

    test('chainlab/analyze returns the exact distribution of the open document', async () => {
        const result = await connection.sendRequest<{ hyperperiod_ms: number; roots: number }>('chainlab/analyze', {
            uri: sampleUri,
            ptts: 'Fig52',
        });
        expect(result.hyperperiod_ms).toBe(40600);
        expect(result.roots).toBe(203);
    });

    test('a model error comes back as an LSP error with the backend message', async () => {
        const error = await failure(connection.sendRequest('chainlab/analyze', { uri: sampleUri, ptts: 'Nope' }));
        expect(error.code).toBe(-32001);
        expect(error.message).toContain("has no ptts named 'Nope'");
    });

    test('a document with errors is refused before the backend is asked', async () => {
        const uri = 'file:///tmp/chainlab-broken.chain';
        await connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: {
                uri,
                languageId: 'chain',
                version: 1,
                text: 'ptts T { component A period 0 ms etp point 1 ms }',
            },
        });
        const error = await failure(connection.sendRequest('chainlab/analyze', { uri, ptts: 'T' }));
        expect(error.code).toBe(-32001);
        expect(error.message).toMatch(/1 error\(s\); fix them before analysing/);
    });

    test("the IR export reads a measurement file through the CLI's reader: over the size limit it is refused, not read (issue 17)", async () => {
        // 300 MiB: above the 16 MiB the validation reads, so only the export meets it; it used to read all of it
        const dir = mkdtempSync(join(tmpdir(), 'chainlab-ls-measurement-'));
        try {
            const model = join(dir, 'm.chain');
            const uri = pathToFileURL(model).toString();
            writeFileSync(join(dir, 'big.csv'), '');
            truncateSync(join(dir, 'big.csv'), 300 * 1024 * 1024);
            const text =
                'ptts M {\n  component A period 10 ms offset 0 ms etp histogram "big.csv"\n  component B period 7 ms offset 1 ms etp point 1 ms\n}\n';
            writeFileSync(model, text);
            await connection.sendNotification(DidOpenTextDocumentNotification.type, {
                textDocument: { uri, languageId: 'chain', version: 1, text },
            });
            const started = Date.now();
            const error = await failure(connection.sendRequest('chainlab/analyze', { uri, ptts: 'M' }));
            expect(error.message).toContain('big.csv');
            expect(error.message).toContain('300 MiB, above the limit of 256 MiB for a measurement file');
            expect(Date.now() - started).toBeLessThan(5000);
        } finally {
            rmSync(dir, { recursive: true, force: true });
        }
    });

    test('cancelling a long request answers at once; the next request works', async () => {
        const source = new CancellationTokenSource();
        const started = Date.now();
        const long = connection.sendRequest(
            'chainlab/simulate',
            { uri: sampleUri, ptts: 'Fig52', iterations: 600_000 }, // seconds of work, within the memory limit
            source.token,
        );
        setTimeout(() => source.cancel(), 500);
        const error = await failure(long);
        expect(error.code).toBe(-32800);
        expect(Date.now() - started).toBeLessThan(5_000);
        const again = await connection.sendRequest<{ roots: number }>('chainlab/analyze', {
            uri: sampleUri,
            ptts: 'Fig57',
        });
        expect(again.roots).toBe(203);
    });
});
