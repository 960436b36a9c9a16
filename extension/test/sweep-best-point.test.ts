/**
 * The best point of a sweep as a code action, against the real language server and backend: Explore offsets
 * of samples/ptts/case-study.chain's ConfigE over Wall's offset and two candidate periods of Wall; the server then
 * offers "Apply the best point of the last sweep" on that ptts, one edit that writes what changes (the offset:
 * the best keeps the current period); analysed after the edit, the model gives the sweep's best p99. On the
 * thesis' Figure 5.2, whose p99 depends on C2's offset only, it writes C2's offset in the file's own columns and
 * leaves C1 alone; after a sweep of a flat objective it offers nothing.
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
    test('offered on the swept ptts as one edit of what changes; the edited model gives its p99', async () => {
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
        // the period stays: the best among ties keeps the current one (16.6 ms), so only the offset is written
        expect(best.periods_ns.Wall).toBe(sweep.current.periods_ns.Wall);
        expect(action?.title).toMatch(/^Apply the best point of the last sweep \(p99\): Wall offset [\d.]+ (ms|µs)$/);
        const edits = action!.edit!.changes![uri];
        expect(edits).toHaveLength(1);
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

    test("Figure 5.2: only C2's offset changes the p99, written in the file's columns; a flat mean offers nothing", async () => {
        const fig52 = await openModel('samples/ptts/thesis-fig5-2.chain');
        try {
            const lines = fig52.text.split('\n');
            const at = lines.findIndex(l => l.startsWith('ptts Fig52'));
            const range = { start: { line: at, character: 0 }, end: { line: at + 1, character: 0 } };
            const bestActions = async () =>
                (
                    (await fig52.connection.sendRequest(CodeActionRequest.type, {
                        textDocument: { uri: fig52.uri },
                        range,
                        context: { diagnostics: [] },
                    })) as CodeAction[]
                ).filter(a => a.title.startsWith('Apply the best point'));
            const sweep = await fig52.connection.sendRequest<RequestResultOf<'chainlab/explore'>>('chainlab/explore', {
                uri: fig52.uri,
                ptts: 'Fig52',
                vary: ['C1', 'C2'],
                objective: 'p99',
            });
            expect(sweep.depends.offsets).toEqual({ C1: false, C2: true });
            const [action] = await bestActions();
            const c2 = sweep.best.offsets_ms.C2;
            expect(action.title).toBe(`Apply the best point of the last sweep (p99): C2 offset ${c2} ms`);
            const edited = applied(fig52.text, action.edit!.changes![fig52.uri]).split('\n');
            const c1Line = lines.findIndex(l => l.includes('component C1'));
            expect(edited[c1Line]).toBe(lines[c1Line]); // C1 stays at 30 ms
            // `offset  8 ms` becomes `offset 18 ms`: the etp column after it stays where it was
            const c2Line = lines.findIndex(l => l.includes('component C2'));
            expect(edited[c2Line]).toBe(lines[c2Line].replace(/offset +8 ms/, `offset ${String(c2).padStart(2)} ms`));
            expect(edited[c2Line].indexOf('etp')).toBe(lines[c2Line].indexOf('etp'));

            const flat = await fig52.connection.sendRequest<RequestResultOf<'chainlab/explore'>>('chainlab/explore', {
                uri: fig52.uri,
                ptts: 'Fig52',
                vary: ['C1'],
                objective: 'mean',
            });
            expect(flat.depends.offsets).toEqual({ C1: false });
            expect(await bestActions()).toEqual([]); // the current offset is the best: nothing to apply
        } finally {
            fig52.stop();
        }
    }, 120_000);
});
