/**
 * The best point of a sweep as a code action, against the real language server and backend: Explore offsets
 * of samples/ptts/case-study.chain's ConfigE over Wall's offset and two candidate periods of Wall; the server then
 * offers "Apply the best point of the last sweep" on that ptts, one edit that writes the offset and the period;
 * analysed after the edit, the model gives the sweep's best p99.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    CodeActionRequest,
    DidChangeTextDocumentNotification,
    type CodeAction,
} from 'vscode-languageserver-protocol/node.js';
import type { RequestResultOf } from '@chainlab/contract';
import { applied, openModel, type OpenModel } from './open-model';

let model: OpenModel;
let uri: string;
let text: string;
let connection: OpenModel['connection'];

beforeAll(async () => {
    model = await openModel('samples/ptts/case-study.chain');
    ({ uri, text, connection } = model);
}, 60_000);

afterAll(() => model?.stop());

const configE = () => {
    const line = text.split('\n').findIndex(l => l.startsWith('ptts ConfigE'));
    return { start: { line, character: 0 }, end: { line: line + 1, character: 0 } };
};

const actionsOnConfigE = async () =>
    (await connection.sendRequest(CodeActionRequest.type, {
        textDocument: { uri },
        range: configE(),
        context: { diagnostics: [] },
    })) as CodeAction[];

describe('the best point of a sweep', () => {
    test('offered on the swept ptts as one edit of offset and period; the edited model gives its p99', async () => {
        expect((await actionsOnConfigE()).filter(a => a.title.startsWith('Apply the best point'))).toEqual([]);
        const sweep = await connection.sendRequest<RequestResultOf<'chainlab/explore'>>('chainlab/explore', {
            uri,
            ptts: 'ConfigE',
            vary: ['Wall'],
            step_ns: 2_000_000,
            periods_ns: { Wall: [16_600_000, 16_700_000] },
            objective: 'p99',
        });
        expect(sweep.complete).toBe(true);
        const best = sweep.best;
        const action = (await actionsOnConfigE()).find(a => a.title.startsWith('Apply the best point'));
        expect(action?.title).toMatch(
            /^Apply the best point of the last sweep \(p99\): Wall offset [\d.]+ (ms|µs), Wall period 16\.[67] ms$/,
        );
        const edits = action!.edit!.changes![uri];
        const edited = applied(text, edits);
        const wall = edited.split('\n').filter(l => l.includes('component Wall'))[1]; // ConfigE's
        expect(wall).toContain(`period ${best.periods_ms.Wall} ms`);
        expect(wall).toMatch(new RegExp(`offset ${best.offsets_ms.Wall} ms|offset ${best.offsets_ns.Wall / 1000} us`));
        await connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri, version: 2 },
            contentChanges: [{ text: edited }],
        });
        const analysed = await connection.sendRequest<RequestResultOf<'chainlab/analyze'>>('chainlab/analyze', {
            uri,
            ptts: 'ConfigE',
        });
        expect(analysed.percentiles['99']).toBeCloseTo(best.p99_ms, 6);
    }, 120_000);
});
