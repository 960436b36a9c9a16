/**
 * The bundled language server (dist/server.cjs) over stdio, as an editor
 * would use it: initialize, diagnostics on open and on change, hover,
 * completion, formatting, survival of bad input, shutdown and exit.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import {
    CompletionRequest,
    createProtocolConnection,
    DidChangeTextDocumentNotification,
    DidOpenTextDocumentNotification,
    DocumentFormattingRequest,
    ExitNotification,
    HoverRequest,
    InitializedNotification,
    InitializeRequest,
    PublishDiagnosticsNotification,
    ShutdownRequest,
    StreamMessageReader,
    StreamMessageWriter,
    type Diagnostic,
    type InitializeResult,
    type MarkupContent,
    type ProtocolConnection,
    type PublishDiagnosticsParams,
} from 'vscode-languageserver/node.js';
import { ensureServerBundle, languageDir } from './server-bundle.js';
import { codeOf } from '../test-utils.js';

const ERRORS_URI = 'file:///work/models/errors.chain';
const ERRORS = 'image F 8 x 8 of u17\nbox A { out o: F kernel blur(3) }\nchain C { a: A b: Nope }\n';
const CLEAN = [
    'platform P { cores 2 }',
    'image F 8 x 8 of u8',
    'box S { out o: F source period 10 ms }',
    'box K { in i: F kernel sink }',
    'chain C on P { s: S k: K s.o -> k.i }',
    '',
].join('\n');

let server: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;
let stderr = '';
const published: PublishDiagnosticsParams[] = [];
const waiters: Array<() => void> = [];

/** The next diagnostics published for `uri` after `count` earlier publications for it. */
async function diagnosticsFor(uri: string, count: number, timeoutMs = 10_000): Promise<Diagnostic[]> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const forUri = published.filter(p => p.uri === uri);
        if (forUri.length > count) return forUri[count].diagnostics;
        if (Date.now() > deadline)
            throw new Error(`no diagnostics for ${uri} within ${timeoutMs} ms; stderr: ${stderr}`);
        await new Promise<void>(resolve => {
            waiters.push(resolve);
            setTimeout(resolve, 100);
        });
    }
}

function compact(diagnostics: Diagnostic[]): string[] {
    return diagnostics
        .map(
            d =>
                `${codeOf(d)} ${d.range.start.line}:${d.range.start.character}-${d.range.end.line}:${d.range.end.character} severity ${d.severity}`,
        )
        .sort();
}

beforeAll(async () => {
    const bundle = await ensureServerBundle();
    server = spawn(process.execPath, [bundle, '--stdio'], { cwd: languageDir, stdio: 'pipe' });
    server.stderr.on('data', chunk => {
        stderr += String(chunk);
    });
    connection = createProtocolConnection(
        new StreamMessageReader(server.stdout),
        new StreamMessageWriter(server.stdin),
    );
    connection.onNotification(PublishDiagnosticsNotification.type, params => {
        published.push(params);
        waiters.splice(0).forEach(resolve => resolve());
    });
    connection.listen();
}, 60_000);

afterAll(() => {
    connection?.dispose();
    if (server && server.exitCode === null) server.kill();
});

describe('language server over stdio', () => {
    let capabilities: InitializeResult['capabilities'];

    test('initialize announces the language features', async () => {
        const result = await connection.sendRequest(InitializeRequest.type, {
            processId: process.pid,
            rootUri: null,
            workspaceFolders: null,
            capabilities: {},
        });
        await connection.sendNotification(InitializedNotification.type, {});
        capabilities = result.capabilities;
        expect(capabilities.completionProvider?.triggerCharacters).toContain('.');
        expect(capabilities).toMatchObject({
            hoverProvider: true,
            definitionProvider: {},
            referencesProvider: {},
            documentSymbolProvider: {},
            foldingRangeProvider: {},
            documentFormattingProvider: {},
            renameProvider: { prepareProvider: true },
        });
        expect(capabilities.codeActionProvider).toBeTruthy();
    });

    test('didOpen of a model with errors publishes them with their codes and ranges', async () => {
        await connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: ERRORS_URI, languageId: 'chain', version: 1, text: ERRORS },
        });
        const diagnostics = await diagnosticsFor(ERRORS_URI, 0);
        expect(compact(diagnostics.filter(d => d.severity === 1))).toEqual([
            'linking-error 2:18-2:22 severity 1', // Nope
            'unknown-kernel 1:24-1:28 severity 1', // blur
            'unknown-pixel-type 0:17-0:20 severity 1', // u17
        ]);
        expect(diagnostics.find(d => codeOf(d) === 'unknown-kernel')?.message).toMatch(/^Unknown kernel 'blur'/);
    });

    test('didChange to a clean model clears the diagnostics', async () => {
        await connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri: ERRORS_URI, version: 2 },
            contentChanges: [{ text: CLEAN }],
        });
        expect(await diagnosticsFor(ERRORS_URI, 1)).toEqual([]);
    });

    test('hover answers with normalised values', async () => {
        const period = await connection.sendRequest(HoverRequest.type, {
            textDocument: { uri: ERRORS_URI },
            position: { line: 2, character: 32 }, // `10 ms`
        });
        expect((period?.contents as MarkupContent).value).toBe('10 ms = 10000000 ns');
        const image = await connection.sendRequest(HoverRequest.type, {
            textDocument: { uri: ERRORS_URI },
            position: { line: 1, character: 6 }, // image F
        });
        expect((image?.contents as MarkupContent).value).toBe(
            '**image F**: 8 × 8 of u8 (1 B per pixel), 64 B per frame',
        );
    });

    test('completion and formatting answer', async () => {
        const completion = await connection.sendRequest(CompletionRequest.type, {
            textDocument: { uri: ERRORS_URI },
            position: { line: 4, character: 34 }, // after `k.` on the right of `->`
        });
        const items = Array.isArray(completion) ? completion : (completion?.items ?? []);
        expect(items.map(i => i.label)).toEqual(['i']);
        const edits = await connection.sendRequest(DocumentFormattingRequest.type, {
            textDocument: { uri: ERRORS_URI },
            options: { tabSize: 4, insertSpaces: true },
        });
        expect(edits?.length).toBeGreaterThan(0);
    });

    test('garbage does not bring the server down', async () => {
        const junk = 'file:///work/models/junk.chain';
        const text =
            '\u0000box {{{ ->->-> . : ptts ptts "unterminated\n'.repeat(50) + 'box A { kernel gain(' + '('.repeat(500);
        await connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri: junk, languageId: 'chain', version: 1, text },
        });
        expect((await diagnosticsFor(junk, 0)).length).toBeGreaterThan(0);
        await connection.sendRequest(HoverRequest.type, {
            textDocument: { uri: junk },
            position: { line: 3, character: 5 },
        });
        await connection.sendRequest(CompletionRequest.type, {
            textDocument: { uri: junk },
            position: { line: 50, character: 20 },
        });
        // Still serving the other document.
        const hover = await connection.sendRequest(HoverRequest.type, {
            textDocument: { uri: ERRORS_URI },
            position: { line: 2, character: 32 },
        });
        expect((hover?.contents as MarkupContent).value).toBe('10 ms = 10000000 ns');
    });

    test('shutdown and exit end the process with code 0', async () => {
        await connection.sendRequest(ShutdownRequest.type);
        const exited = new Promise<number | null>(resolve => server.once('exit', code => resolve(code)));
        await connection.sendNotification(ExitNotification.type);
        expect(await exited).toBe(0);
        expect(stderr).toBe('');
    });
});
