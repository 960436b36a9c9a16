/**
 * The language server with a backend of another contract version: the editor's request fails with the
 * contract's CONTRACT_MISMATCH code and the message that says what to do (the extension shows it).
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import {
    createProtocolConnection,
    DidOpenTextDocumentNotification,
    InitializedNotification,
    InitializeRequest,
    ResponseError,
    StreamMessageReader,
    StreamMessageWriter,
    type ProtocolConnection,
} from 'vscode-languageserver/node.js';
import { CONTRACT_VERSION, ERROR_CODES } from '@chainlab/contract';
import { backendSpeaking } from '../backend-rpc/contract-backends.js';
import { ensureServerBundle, languageDir } from './server-bundle.js';

const sample = join(languageDir, '..', 'samples', 'ptts', 'thesis-fig5-2.chain');
const sampleUri = pathToFileURL(sample).toString();

let server: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;

beforeAll(async () => {
    server = spawn(process.execPath, [await ensureServerBundle(), '--stdio'], {
        cwd: languageDir,
        stdio: 'pipe',
        env: { ...process.env, CHAINLAB_PYTHON: backendSpeaking('0.9.0') },
    });
    connection = createProtocolConnection(
        new StreamMessageReader(server.stdout),
        new StreamMessageWriter(server.stdin),
    );
    connection.listen();
    await connection.sendRequest(InitializeRequest.type, {
        processId: process.pid,
        rootUri: null,
        workspaceFolders: null,
        capabilities: {},
    });
    await connection.sendNotification(InitializedNotification.type, {});
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri: sampleUri, languageId: 'chain', version: 1, text: readFileSync(sample, 'utf-8') },
    });
}, 60_000);

afterAll(() => {
    connection?.dispose();
    if (server && server.exitCode === null) server.kill();
});

describe('a backend of another contract version', () => {
    test('chainlab/analyze fails with CONTRACT_MISMATCH and says to reinstall', async () => {
        const error = await connection.sendRequest('chainlab/analyze', { uri: sampleUri, ptts: 'Fig52' }).then(
            () => undefined,
            (e: unknown) => e,
        );
        expect(error).toBeInstanceOf(ResponseError);
        expect((error as ResponseError<unknown>).code).toBe(ERROR_CODES.CONTRACT_MISMATCH);
        expect((error as Error).message).toBe(
            `chainlab backend speaks contract 0.9.0, this client ${CONTRACT_VERSION}: install matching versions of the backend (chainlab-backend) and of the CLI or extension`,
        );
        expect((error as ResponseError<unknown>).data).toEqual({ backend: '0.9.0', client: CONTRACT_VERSION });
    });
});
