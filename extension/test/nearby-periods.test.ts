/**
 * Nearby periods as the extension drives them, against the real language server and backend: the proposals
 * for samples/xray.chain's System (fewer latency trees, each analysed), what the quick pick shows, and the one
 * edit that writes the chosen periods; after it the model has that many trees. Where nothing within 2 % shortens the
 * hyper-period (the thesis' Figure 5.2), the panel says so in words.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DidChangeTextDocumentNotification } from 'vscode-languageserver-protocol/node.js';
import type { RequestResultOf } from '@chainlab/contract';
import { periodsChart, periodsTable, proposalItems } from '../src/periods-data';
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
        expect(periodsChart(result).note).toBeUndefined(); // proposals: the table, no sentence
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

describe('nearby periods without a proposal', () => {
    test('Figure 5.2: no period set within 2 % shortens the hyper-period, said in the panel and the output', async () => {
        const fig52 = await openModel('samples/ptts/thesis-fig5-2.chain');
        try {
            const result = await fig52.connection.sendRequest<RequestResultOf<'chainlab/nearbyPeriods'>>(
                'chainlab/nearbyPeriods',
                { uri: fig52.uri, ptts: 'Fig52' },
            );
            expect(result.proposals).toEqual([]);
            expect(result.current.roots).toBe(203);
            const chart = periodsChart(result);
            expect(chart.note).toBe('no period set within 2 % shortens the hyper-period: the current periods stay');
            // the hyper-period (40600 ms) in s, as the hover writes it
            expect(chart.summary).toBe('now C0 200 ms, C1 58 ms, C2 56 ms: 203 latency trees, hyper-period 40.6 s');
            expect(periodsTable(result)).toEqual([
                'nearby periods of Fig52: now C0 200 ms, C1 58 ms, C2 56 ms, 203 latency trees, hyper-period 40.6 s',
                '  no period set within 2 % shortens the hyper-period: the current periods stay',
            ]);
            // the sentence names how far the periods were let move
            expect(periodsChart(result, 0.05).note).toContain('within 5 %');
        } finally {
            fig52.stop();
        }
    }, 120_000);
});
