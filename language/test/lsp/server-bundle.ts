/** The bundled language server used by the stdio tests, rebuilt only when its sources are newer, and its start. */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
    createProtocolConnection,
    InitializedNotification,
    InitializeRequest,
    StreamMessageReader,
    StreamMessageWriter,
    type ProtocolConnection,
} from 'vscode-languageserver/node.js';
import { buildServer } from '../../esbuild.mjs';

export const languageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const serverBundle = join(languageDir, 'dist', 'server.cjs');

/** Newest modification time of the files under `dir`. */
function newestSource(dir: string): number {
    let newest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
    }
    return newest;
}

export async function ensureServerBundle(): Promise<string> {
    // the bundle holds the contract too (contract/out, built by scripts/setup.mjs)
    const sources = Math.max(
        newestSource(join(languageDir, 'src')),
        newestSource(join(languageDir, '..', 'contract', 'out')),
        statSync(join(languageDir, 'esbuild.mjs')).mtimeMs,
    );
    if (!existsSync(serverBundle) || statSync(serverBundle).mtimeMs < sources) await buildServer();
    return serverBundle;
}

/** The bundled server started over stdio in `cwd` and initialized (no workspace), as an editor starts it. */
export async function startServer(
    cwd = languageDir,
): Promise<{ server: ChildProcessWithoutNullStreams; connection: ProtocolConnection }> {
    const server = spawn(process.execPath, [await ensureServerBundle(), '--stdio'], { cwd, stdio: 'pipe' });
    const connection = createProtocolConnection(
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
    return { server, connection };
}
