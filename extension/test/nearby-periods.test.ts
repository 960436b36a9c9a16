/**
 * Nearby periods as the extension drives them, against the real language server and backend: the proposals
 * for samples/xray.chain's System (fewer latency trees, each analysed), what the quick pick shows, and the one
 * edit that writes the chosen periods; after it the model has that many trees.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DidChangeTextDocumentNotification } from 'vscode-languageserver-protocol/node.js';
import type { RequestResultOf } from '@chainlab/contract';
import { periodsTable, proposalItems } from '../src/periods-data';
import { applied, openModel, type OpenModel } from './open-model';

let model: OpenModel;
let uri: string;
let text: string;
let connection: OpenModel['connection'];

beforeAll(async () => {
    model = await openModel('samples/xray.chain');
    ({ uri, text, connection } = model);
}, 60_000);

afterAll(() => model?.stop());

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
        // the hyper-period in s from 10 s on, as the hover writes it (not 923000 ms)
        expect(periodsTable(result)[0]).toMatch(/hyper-period 923 s$/);
        expect(one.detail).toMatch(/\(now 923 s\)/);

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
