/**
 * The slow-analysis quick fix of the language server asks the backend: its nearby periods are exactly
 * those `chainlab analyze` proposes when it refuses the same model (one algorithm, backend/chainlab/ptts/cost.py),
 * each edits only the periods that change, and the edited model no longer warns.
 */
import { EmptyFileSystem, type LangiumDocument } from 'langium';
import { parseHelper } from 'langium/test';
import { afterAll, describe, expect, test } from 'vitest';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver';
import { type BackendModelError } from '../../src/backend-rpc/backend-client.js';
import { createChainServices } from '../../src/dsl/chain-module.js';
import type { Model } from '../../src/generated/ast.js';
import { documentExportContext } from '../../src/ir/document-export-context.js';
import { exportIr } from '../../src/ir/ir-export.js';
import type { PeriodProposal } from '@chainlab/contract';
import { backendCostSource, type CostSource } from '../../src/server/nearby-periods.js';
import { RunResults } from '../../src/server/run-results.js';
import { SweepResults } from '../../src/server/sweep-results.js';
import { createServerModule } from '../../src/server/server-module.js';
import { SharedBackend } from '../../src/server/shared-backend.js';
import { codeOf } from '../test-utils.js';

const backend = new SharedBackend();
afterAll(async () => {
    await backend.stop();
});

function server(costs: CostSource) {
    const { Chain } = createChainServices(EmptyFileSystem, {
        language: [createServerModule(costs, new RunResults(), new SweepResults())],
    });
    return { Chain, parse: parseHelper<Model>(Chain) };
}

const slow = [
    'ptts T {',
    '    component C0 period 66.666667 ms etp uniform 30 ms .. 60 ms',
    '    // the consumer of C0, at 60 Hz',
    '    component C1 period 16.666667 ms etp pmf { 11 ms: 0.9, 12 ms: 0.1 }',
    '    component C2 period 16.7 ms etp point 8 ms',
    '}',
].join('\n');

async function quickFixes(
    services: ReturnType<typeof server>,
    document: LangiumDocument,
): Promise<{ diagnostic: Diagnostic; actions: CodeAction[] }> {
    const diagnostic = (document.diagnostics ?? []).find(d => codeOf(d) === 'slow-analysis')!;
    expect(diagnostic).toBeDefined();
    const actions = (await services.Chain.lsp.CodeActionProvider!.getCodeActions(document, {
        textDocument: { uri: document.textDocument.uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
    })) as CodeAction[];
    return { diagnostic, actions };
}

function applied(document: LangiumDocument, edits: TextEdit[]): string {
    let text = document.textDocument.getText();
    for (const edit of [...edits].sort(
        (a, b) => document.textDocument.offsetAt(b.range.start) - document.textDocument.offsetAt(a.range.start),
    )) {
        text =
            text.slice(0, document.textDocument.offsetAt(edit.range.start)) +
            edit.newText +
            text.slice(document.textDocument.offsetAt(edit.range.end));
    }
    return text;
}

describe('nearby periods from the backend', () => {
    test('the quick fixes are the proposals `analyze` refuses with, in its order', async () => {
        const services = server(backendCostSource(backend));
        const document = await services.parse(slow, { validation: true });
        const { diagnostic, actions } = await quickFixes(services, document);
        const ir = exportIr(document.parseResult.value, documentExportContext(document.uri));
        let refusal: PeriodProposal[] | undefined;
        try {
            await backend.client().request('ptts/analyze', { ir, ptts: 'T' });
        } catch (error) {
            refusal = (error as BackendModelError).data?.proposals;
        }
        expect(refusal?.length).toBeGreaterThan(0);
        expect(actions).toHaveLength(refusal!.length);
        actions.forEach((action, i) => {
            const proposal = refusal![i];
            expect(action.diagnostics).toEqual([diagnostic]);
            expect(action.title).toMatch(
                new RegExp(
                    `^Use periods .* \\(${proposal.roots} latency trees, periods change by at most [\\d.·⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+ %\\)$`,
                ),
            );
            const text = applied(document, action.edit!.changes![document.textDocument.uri]);
            const periods = [...text.matchAll(/period ([\d.]+) ms/g)].map(m => Math.round(Number(m[1]) * 1e6));
            expect(periods).toEqual(['C0', 'C1', 'C2'].map(c => proposal.periods_ns[c]));
        });
    }, 60_000);

    test('only the periods that change are edited; the edited model is analysed without a warning', async () => {
        const services = server(backendCostSource(backend));
        const document = await services.parse(slow, { validation: true });
        const { actions } = await quickFixes(services, document);
        const edits = actions[0].edit!.changes![document.textDocument.uri];
        const before = ['66.666667 ms', '16.666667 ms', '16.7 ms'];
        for (const edit of edits) {
            expect(before).toContain(document.textDocument.getText(edit.range));
            expect(edit.newText).not.toBe(document.textDocument.getText(edit.range));
        }
        const fixed = await services.parse(applied(document, edits), { validation: true });
        expect((fixed.diagnostics ?? []).map(d => codeOf(d))).toEqual([]);
        const ir = exportIr(fixed.parseResult.value, documentExportContext(fixed.uri));
        const reply = await backendCostSource(backend).cost(ir, 'T');
        expect(reply.refused).toBeNull();
    }, 60_000);

    test('without a backend there is no quick fix, and the warning stays', async () => {
        const services = server({ cost: () => Promise.reject(new Error('no backend')) });
        const document = await services.parse(slow, { validation: true });
        expect((await quickFixes(services, document)).actions).toEqual([]);
    });
});
