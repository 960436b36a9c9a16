/**
 * Nearby periods as the extension drives them, against the real language server and backend: the proposals
 * for samples/xray.chain's System (fewer latency trees, each analysed), what the quick pick shows, and the one
 * edit that writes the chosen periods; after it the model has that many trees.
 */
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    DidChangeTextDocumentNotification,
    DidOpenTextDocumentNotification,
    type ProtocolConnection,
    type TextEdit,
} from 'vscode-languageserver-protocol/node.js';
import type { RequestResultOf } from '@chainlab/contract';
import { startServer } from '../../language/test/lsp/server-bundle';
import { periodsTable, proposalItems } from '../src/periods-data';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const file = join(repo, 'samples', 'xray.chain');
const uri = pathToFileURL(file).toString();
const text = readFileSync(file, 'utf-8');
let server: ChildProcessWithoutNullStreams;
let connection: ProtocolConnection;

beforeAll(async () => {
    ({ server, connection } = await startServer(repo));
    await connection.sendNotification(DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'chain', version: 1, text },
    });
}, 60_000);

afterAll(() => {
    connection?.dispose();
    if (server && server.exitCode === null) server.kill();
});

function applied(source: string, edits: TextEdit[]): string {
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

describe('nearby periods', () => {
    test('proposals with fewer trees, analysed; the chosen one is one edit; then the model has that many trees', async () => {
        const result = await connection.sendRequest<RequestResultOf<'chainlab/nearbyPeriods'>>(
            'chainlab/nearbyPeriods',
            {
                uri,
                ptts: 'System',
            },
        );
        expect(result.current.roots).toBe(13861);
        const items = proposalItems(result);
        expect(items.length).toBeGreaterThan(0);
        const one = items[0]; // fewest trees first
        expect(one.proposal.roots).toBe(1);
        expect(one.label).toBe('Sensor 66.6 ms, Process 33.3 ms, GPU 16.65 ms, Wall 16.65 ms');
        expect(one.description).toMatch(/^1 latency tree \(now 13,861\), periods move ≤ 0\.\d+ %$/);
        expect(one.detail).toMatch(/^p99 [\d.]+ ms, mean [\d.]+ ms, loss /);
        expect(periodsTable(result)[0]).toContain('13,861 latency trees');

        const reply = await connection.sendRequest<RequestResultOf<'chainlab/periodsEdit'>>('chainlab/periodsEdit', {
            uri,
            ptts: 'System',
            periods_ns: one.proposal.periods_ns,
        });
        const edits = reply.edit.changes?.[uri] ?? [];
        expect(edits.map(e => e.newText).sort()).toEqual(['16.65 ms', '16.65 ms']); // only the two that change
        const edited = applied(text, edits);
        await connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri, version: 2 },
            contentChanges: [{ text: edited }],
        });
        const after = await connection.sendRequest<RequestResultOf<'chainlab/nearbyPeriods'>>(
            'chainlab/nearbyPeriods',
            {
                uri,
                ptts: 'System',
            },
        );
        expect(after.current.roots).toBe(1);
        expect(after.current.periods_ms).toEqual(one.proposal.periods_ms);
    }, 120_000);
});
