/**
 * Nearby periods for a PTTS chain whose exact analysis the backend refuses (the slow-analysis warning):
 * the backend's `ptts/cost` proposes them — the proposals `chainlab analyze` prints when it refuses —
 * and each becomes a quick fix that edits the periods that change (thesis section 5.7).
 */
import type { LangiumDocument } from 'langium';
import { formatPercent, type CostResult } from '@chainlab/contract';
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver';
import { isPtts, type Model } from '../generated/ast.js';
import { nodeAt } from '../dsl/lsp/chain-code-actions.js';
import { pttsComponents } from '../dsl/model-util.js';
import { formatNs } from '../dsl/units.js';
import { documentExportContext } from '../ir/document-export-context.js';
import { exportIr } from '../ir/ir-export.js';
import type { IrModel } from '../ir/ir-types.js';
import { periodEdits } from './offset-edits.js';
import type { SharedBackend } from './shared-backend.js';

/** Asks the backend's `ptts/cost`: the cost before any work and, when `analyze` would refuse, why and what instead. */
export interface CostSource {
    cost(ir: IrModel, ptts: string): Promise<CostResult>;
}

export function backendCostSource(backend: SharedBackend): CostSource {
    return { cost: (ir, ptts) => backend.client().request('ptts/cost', { ir, ptts }, { timeoutMs: 60_000 }) };
}

/** The IR of a document without errors; undefined otherwise (the backend would refuse it). */
function exportable(document: LangiumDocument): IrModel | undefined {
    if ((document.diagnostics ?? []).some(d => d.severity === 1)) return undefined;
    try {
        return exportIr(document.parseResult.value as Model, documentExportContext(document.uri));
    } catch {
        return undefined;
    }
}

export async function nearbyPeriodActions(
    document: LangiumDocument,
    diagnostic: Diagnostic,
    costs: CostSource,
): Promise<CodeAction[]> {
    const ptts = nodeAt(document, diagnostic, isPtts);
    const ir = ptts?.name ? exportable(document) : undefined;
    if (!ptts || !ir) return [];
    let reply: CostResult;
    try {
        reply = await costs.cost(ir, ptts.name);
    } catch {
        return []; // no backend, no proposals: the warning still says what is wrong
    }
    const components = pttsComponents(ptts);
    return (reply.refused?.proposals ?? []).map(proposal => {
        const edits = periodEdits(document as LangiumDocument<Model>, ptts.name, proposal.periods_ns);
        // the periods the fix writes into the source, so every digit of them
        const periods = components.map(c => formatNs(proposal.periods_ns[c.name] ?? 0)).join(', ');
        return {
            title: `Use periods ${periods} (${proposal.roots} latency trees, periods change by at most ${formatPercent(proposal.max_relative_change)})`,
            kind: CodeActionKind.QuickFix,
            diagnostics: [diagnostic],
            edit: { changes: { [document.textDocument.uri]: edits } },
        };
    });
}
