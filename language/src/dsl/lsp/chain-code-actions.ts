/**
 * Quick fixes: normalise a pmf whose probabilities do not sum to 1,
 * replace periods by nearby ones that shrink the hyper-period (thesis 5.7),
 * and replace a misspelt name by a close known one (did-you-mean-fix.ts).
 */
import { AstUtils, CstUtils, type LangiumDocument, type MaybePromise } from 'langium';
import type { CodeActionProvider } from 'langium/lsp';
import { CodeActionKind, type CodeAction, type CodeActionParams, type Command, type Diagnostic, type TextEdit } from 'vscode-languageserver';
import { isPmfEtp, isPtts, type PmfEtp, type Ptts } from '../../generated/ast.js';
import { componentPeriod, pttsComponents } from '../model-util.js';
import { pttsTiming, proposePeriods } from '../ptts-cost.js';
import { formatNs, sumDecimals } from '../units.js';
import { Codes } from '../validation/diagnostic-codes.js';
import { didYouMeanFixes } from './did-you-mean-fix.js';

export class ChainCodeActionProvider implements CodeActionProvider {
    getCodeActions(document: LangiumDocument, params: CodeActionParams): MaybePromise<Array<Command | CodeAction>> {
        const actions: CodeAction[] = [];
        for (const diagnostic of params.context.diagnostics) {
            const code = (diagnostic.data as { code?: string } | undefined)?.code;
            if (code === Codes.pmfSum) actions.push(...normalisePmf(document, diagnostic));
            if (code === Codes.slowAnalysis) actions.push(...nearbyPeriods(document, diagnostic));
            actions.push(...didYouMeanFixes(document, diagnostic));
        }
        return actions;
    }
}

function nodeAt<T>(document: LangiumDocument, diagnostic: Diagnostic, guard: (n: unknown) => n is T): T | undefined {
    const root = document.parseResult.value.$cstNode;
    if (!root) return undefined;
    const leaf = CstUtils.findLeafNodeAtOffset(root, document.textDocument.offsetAt(diagnostic.range.start));
    return leaf ? AstUtils.getContainerOfType(leaf.astNode, guard as (n: unknown) => n is never) as T | undefined : undefined;
}

/** A probability printed with up to 12 significant digits, without float noise. */
function formatProbability(value: number): string {
    return String(Number(value.toPrecision(12)));
}

export function normalisedPmfText(pmf: PmfEtp): string | undefined {
    const sum = sumDecimals(pmf.entries.map(e => String(e.probability)));
    if (!sum || sum.numerator <= 0n) return undefined;
    const total = Number(sum.numerator) / 10 ** sum.scale;
    const entries = pmf.entries.map(e => `${e.time.$cstNode?.text ?? ''}: ${formatProbability(Number(e.probability) / total)}`);
    return `pmf { ${entries.join(', ')} }`;
}

function normalisePmf(document: LangiumDocument, diagnostic: Diagnostic): CodeAction[] {
    const pmf = nodeAt(document, diagnostic, isPmfEtp);
    const text = pmf ? normalisedPmfText(pmf) : undefined;
    if (!pmf?.$cstNode || !text) return [];
    return [{
        title: 'Normalise the probabilities to sum to 1',
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: true,
        edit: { changes: { [document.textDocument.uri]: [{ range: pmf.$cstNode.range, newText: text }] } },
    }];
}

function nearbyPeriods(document: LangiumDocument, diagnostic: Diagnostic): CodeAction[] {
    const ptts = nodeAt(document, diagnostic, isPtts) as Ptts | undefined;
    const timing = ptts ? pttsTiming(ptts) : undefined;
    if (!ptts || !timing) return [];
    return proposePeriods(timing).map(proposal => {
        const edits: TextEdit[] = [];
        pttsComponents(ptts).forEach((component, index) => {
            const period = componentPeriod(component);
            if (period?.$cstNode && proposal.periods[index] !== timing.periods[index]) {
                edits.push({ range: period.$cstNode.range, newText: formatNs(proposal.periods[index]) });
            }
        });
        return {
            title: `Use periods ${proposal.periods.map(formatNs).join(', ')} (${proposal.cost.trees} latency trees, periods change by at most ${proposal.maxChangePercent.toFixed(2)} %)`,
            kind: CodeActionKind.QuickFix,
            diagnostics: [diagnostic],
            edit: { changes: { [document.textDocument.uri]: edits } },
        };
    });
}
