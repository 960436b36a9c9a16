/**
 * "Change to 'Gain'": one quick fix per close name that a diagnostic carries in `data.suggestions`
 * (unknown references, kernels and pixel types, misspelt keywords: keyword-typos.ts), replacing the misspelt text at
 * the diagnostic's range.
 */
import type { LangiumDocument } from 'langium';
import { CodeActionKind, type CodeAction, type Diagnostic } from 'vscode-languageserver';

interface SuggestionData {
    suggestions?: unknown;
    refText?: unknown;
}

export function didYouMeanFixes(document: LangiumDocument, diagnostic: Diagnostic): CodeAction[] {
    const data = diagnostic.data as SuggestionData | undefined;
    if (!Array.isArray(data?.suggestions)) return [];
    // A diagnostic from before an edit may no longer cover the name it was about: offer nothing then.
    if (typeof data.refText === 'string' && document.textDocument.getText(diagnostic.range) !== data.refText) return [];
    const names = data.suggestions.filter((s): s is string => typeof s === 'string');
    return names.map(name => ({
        title: `Change to '${name}'`,
        kind: CodeActionKind.QuickFix,
        diagnostics: [diagnostic],
        isPreferred: names.length === 1,
        edit: { changes: { [document.textDocument.uri]: [{ range: diagnostic.range, newText: name }] } },
    }));
}
