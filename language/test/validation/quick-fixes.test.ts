/**
 * The quick fix of chain-code-actions.ts for validation diagnostics: normalising
 * a pmf (pmf-sum). Each fix is applied to the text and the result validated again.
 * Nearby periods (slow-analysis) come from the backend: test/server/nearby-periods.test.ts.
 */
import type { LangiumDocument } from 'langium';
import { describe, expect, test } from 'vitest';
import type { CodeAction, Diagnostic, TextEdit } from 'vscode-languageserver';
import { sumDecimals } from '../../src/dsl/units.js';
import { codeOf, services } from '../test-utils.js';
import { check, issues } from './helpers.js';

async function codeActions(document: LangiumDocument, diagnostic: Diagnostic): Promise<CodeAction[]> {
    const provider = services.Chain.lsp.CodeActionProvider!;
    const actions = await provider.getCodeActions(document, {
        textDocument: { uri: document.textDocument.uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
    });
    return (actions ?? []) as CodeAction[];
}

/** The text after the action's edits (applied from the end so offsets stay valid). */
function applied(document: LangiumDocument, action: CodeAction): string {
    const edits: TextEdit[] = action.edit?.changes?.[document.textDocument.uri] ?? [];
    expect(edits.length).toBeGreaterThan(0);
    let text = document.textDocument.getText();
    const sorted = [...edits].sort(
        (a, b) => document.textDocument.offsetAt(b.range.start) - document.textDocument.offsetAt(a.range.start),
    );
    for (const edit of sorted) {
        text =
            text.slice(0, document.textDocument.offsetAt(edit.range.start)) +
            edit.newText +
            text.slice(document.textDocument.offsetAt(edit.range.end));
    }
    return text;
}

function only(document: LangiumDocument, code: string): Diagnostic {
    const found = (document.diagnostics ?? []).filter(d => codeOf(d) === code);
    expect(found).toHaveLength(1);
    return found[0];
}

/** The probabilities of the first pmf in a text. */
function probabilities(text: string): string[] {
    const body = /pmf\s*\{([^}]*)\}/.exec(text)![1];
    return [...body.matchAll(/:\s*([0-9.eE+-]+)/g)].map(m => m[1]);
}

describe('quick fix for pmf-sum: normalise', () => {
    test.each([
        ['0.5 + 0.4', '1 ms: 0.5, 2 ms: 0.4'],
        ['1 + 2 (weights)', '1 ms: 1, 2 ms: 2'],
        ['1 + 1 + 1 (thirds)', '1 ms: 1, 2 ms: 1, 3 ms: 1'],
        ['seven sevenths', '1 ms: 1, 2 ms: 1, 3 ms: 1, 4 ms: 1, 5 ms: 1, 6 ms: 1, 7 ms: 1'],
        ['off by 2e-9', '11 ms: 0.9, 12 ms: 0.099999998'],
        ['tiny values', '1 ms: 1e-7, 2 ms: 3e-7'],
        ['over several lines', '\n        1 ms: 0.6,\n        2 ms: 0.6,\n    '],
    ])('%s: the new probabilities sum to 1 within 1e-9 and the pmf validates', async (_what, entries) => {
        const doc = await check('ptts T {', `    component A period 20 ms etp pmf { ${entries} }`, '}');
        const diagnostic = only(doc, 'pmf-sum');
        const actions = await codeActions(doc, diagnostic);
        expect(actions.map(a => a.title)).toEqual(['Normalise the probabilities to sum to 1']);
        expect(actions[0].diagnostics).toEqual([diagnostic]);
        const text = applied(doc, actions[0]);
        const sum = sumDecimals(probabilities(text))!;
        const one = 10n ** BigInt(sum.scale);
        const off = sum.numerator > one ? sum.numerator - one : one - sum.numerator;
        expect(off * 1_000_000_000n <= one).toBe(true);
        const again = await check(text);
        expect(issues(again)).toEqual([]);
    });

    test('the fix keeps the times and their order', async () => {
        const doc = await check('ptts T { component A period 20 ms etp pmf { 3 ms: 2, 1500 us: 6 } }');
        const [action] = await codeActions(doc, only(doc, 'pmf-sum'));
        expect(applied(doc, action)).toBe('ptts T { component A period 20 ms etp pmf { 3 ms: 0.25, 1500 us: 0.75 } }');
    });

    test('no fix for a pmf without entries', async () => {
        const doc = await check('ptts T { component A period 20 ms etp pmf { } }');
        expect(await codeActions(doc, only(doc, 'pmf-sum'))).toEqual([]);
    });
});
