/**
 * The extension's tests against the real language server and backend: the bundled server started over stdio with
 * one model open, and a text edit applied as the editor applies it.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import {
    DidOpenTextDocumentNotification,
    type ProtocolConnection,
    type TextEdit,
} from 'vscode-languageserver-protocol/node.js';
import { startServer } from '../../language/test/lsp/server-bundle';

export const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');

export interface OpenModel {
    uri: string;
    text: string;
    connection: ProtocolConnection;
    stop(): void;
}

/** Starts the language server and opens `file` (relative to the repository) in it. */
export async function openModel(file: string): Promise<OpenModel> {
    const path = join(repo, file);
    const uri = pathToFileURL(path).toString();
    const text = readFileSync(path, 'utf-8');
    const { server, connection }: { server: ChildProcessWithoutNullStreams; connection: ProtocolConnection } =
        await startServer(repo);
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'chain', version: 1, text },
    });
    return {
        uri,
        text,
        connection,
        stop: () => {
            connection.dispose();
            if (server.exitCode === null) server.kill();
        },
    };
}

/** `source` with `edits` applied (each within one line, as the offset and period edits are). */
export function applied(source: string, edits: TextEdit[]): string {
    const lines = source.split('\n');
    for (const e of [...edits].sort(
        (a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character,
    )) {
        const line = lines[e.range.start.line];
        lines[e.range.start.line] =
            line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
    }
    return lines.join('\n');
}
