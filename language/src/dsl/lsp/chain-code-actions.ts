/**
 * Quick fixes the language makes on its own: normalise a pmf whose probabilities do not sum to 1, and replace a
 * misspelt name by a close known one (did-you-mean-fix.ts). Nearby periods for slow-analysis come from the backend
 * (src/server/nearby-periods.ts).
 */
import { AstUtils, CstUtils, type LangiumDocument, type MaybePromise } from 'langium';
import type { CodeActionProvider } from 'langium/lsp';
import {
    CodeActionKind,
    type CodeAction,
    type CodeActionParams,
    type Command,
    type Diagnostic,
} from 'vscode-languageserver';
import { isPmfEtp, type PmfEtp } from '../../generated/ast.js';
import { pmfText } from '../pmf-text.js';
import { parseDecimal } from '../units.js';
import { Codes } from '../validation/diagnostic-codes.js';
import { didYouMeanFixes } from './did-you-mean-fix.js';

export class ChainCodeActionProvider implements CodeActionProvider {
    getCodeActions(document: LangiumDocument, params: CodeActionParams): MaybePromise<Array<Command | CodeAction>> {
        const actions: CodeAction[] = [];
        for (const diagnostic of params.context.diagnostics) {
            const code = (diagnostic.data as { code?: string } | undefined)?.code;
            if (code === Codes.pmfSum) actions.push(...normalisePmf(document, diagnostic));
            actions.push(...didYouMeanFixes(document, diagnostic));
        }
        return actions;
    }
}

export function nodeAt<T>(
    document: LangiumDocument,
    diagnostic: Diagnostic,
    guard: (n: unknown) => n is T,
): T | undefined {
    const root = document.parseResult.value.$cstNode;
    if (!root) return undefined;
    const leaf = CstUtils.findLeafNodeAtOffset(root, document.textDocument.offsetAt(diagnostic.range.start));
    return leaf ? AstUtils.getContainerOfType(leaf.astNode, guard as (n: unknown) => n is never) : undefined;
}

/** The pmf with its probabilities divided by their sum, to 12 decimals that sum to exactly 1. */
export function normalisedPmfText(pmf: PmfEtp): string | undefined {
    const probabilities = pmf.entries.map(e => parseDecimal(e.probability));
    if (probabilities.some(p => p === undefined)) return undefined;
    const scale = Math.max(0, ...probabilities.map(p => p!.scale));
    const weights = probabilities.map(p => p!.numerator * 10n ** BigInt(scale - p!.scale));
    if (weights.some(w => w < 0n) || weights.reduce((a, b) => a + b, 0n) <= 0n) return undefined;
    return pmfText(
        pmf.entries.map((e, i) => [e.time.$cstNode?.text ?? '', weights[i]] as const),
        12,
    );
}

function normalisePmf(document: LangiumDocument, diagnostic: Diagnostic): CodeAction[] {
    const pmf = nodeAt(document, diagnostic, isPmfEtp);
    const text = pmf ? normalisedPmfText(pmf) : undefined;
    if (!pmf?.$cstNode || !text) return [];
    return [
        {
            title: 'Normalise the probabilities to sum to 1',
            kind: CodeActionKind.QuickFix,
            diagnostics: [diagnostic],
            isPreferred: true,
            edit: { changes: { [document.textDocument.uri]: [{ range: pmf.$cstNode.range, newText: text }] } },
        },
    ];
}
