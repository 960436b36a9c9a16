/**
 * Misspelt keywords: the syntax error says "did you mean 'kernel'?", its quick fix writes the keyword, and the hover
 * on the word says the same (never the documentation of whatever the parser's recovery put around it).
 */
import type { LangiumDocument } from 'langium';
import { describe, expect, test } from 'vitest';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { keywordTypos } from '../../src/dsl/keyword-typos.js';
import { codeOf, services } from '../test-utils.js';
import { check, issues, PRELUDE } from './helpers.js';

function syntaxErrors(document: LangiumDocument): Diagnostic[] {
    return (document.diagnostics ?? []).filter(d => codeOf(d) === 'parsing-error');
}

async function quickFixes(document: LangiumDocument, diagnostic: Diagnostic): Promise<CodeAction[]> {
    const actions = await services.Chain.lsp.CodeActionProvider!.getCodeActions(document, {
        textDocument: { uri: document.textDocument.uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
    });
    return (actions ?? []) as CodeAction[];
}

function applied(document: LangiumDocument, action: CodeAction): string {
    const [edit] = action.edit!.changes![document.textDocument.uri];
    const text = document.textDocument.getText();
    const offset = (position: typeof edit.range.start) => document.textDocument.offsetAt(position);
    return text.slice(0, offset(edit.range.start)) + edit.newText + text.slice(offset(edit.range.end));
}

async function hoverAt(document: LangiumDocument, needle: string, into = 1): Promise<string | undefined> {
    const position = document.textDocument.positionAt(document.textDocument.getText().indexOf(needle) + into);
    const hover = await services.Chain.lsp.HoverProvider!.getHoverContent(document, {
        textDocument: { uri: document.textDocument.uri },
        position,
    });
    return (hover?.contents as { value?: string } | undefined)?.value;
}

describe('the rule', () => {
    test('one edit for short words, two for longer ones, a case difference counts', () => {
        expect(keywordTypos('kerne', ['in', 'out', 'kernel', 'source'])).toEqual(['kernel']);
        expect(keywordTypos('kernl', ['kernel'])).toEqual(['kernel']);
        expect(keywordTypos('krnl', ['kernel'])).toEqual([]); // two edits in a word of four
        expect(keywordTypos('Kernel', ['kernel'])).toEqual(['kernel']);
        expect(keywordTypos('core', ['cores', 'cache', 'smt'])).toEqual(['cores']);
        expect(keywordTypos('schedulr', ['schedule', 'memory'])).toEqual(['schedule']);
    });

    test('no suggestion for short words, unrelated words, punctuation or the keyword itself', () => {
        expect(keywordTypos('kr', ['kernel'])).toEqual([]);
        expect(keywordTypos('foo', ['in', 'out', 'kernel', '}'])).toEqual([]);
        expect(keywordTypos('kernel', ['kernel'])).toEqual([]);
        expect(keywordTypos('{', ['{'])).toEqual([]);
        expect(keywordTypos('gain', ['kernel', 'source'])).toEqual([]);
    });
});

describe('a misspelt keyword', () => {
    test('in a box: the syntax error says it, its quick fix writes it, and the result is clean', async () => {
        const doc = await check(...PRELUDE, 'box Twice { in i: F  out o: F  kerne gain(2) }');
        const [error] = syntaxErrors(doc);
        expect(error.message).toMatch(/^Unexpected 'kerne' in box 'Twice': .* Did you mean 'kernel'\?$/);
        expect(doc.textDocument.getText(error.range)).toBe('kerne');
        const actions = await quickFixes(doc, error);
        expect(actions.map(a => a.title)).toEqual(["Change to 'kernel'"]);
        expect(actions[0].isPreferred).toBe(true);
        expect(issues(await check(applied(doc, actions[0])))).toEqual([]);
    });

    test('the hover on it says what it may mean, not what the recovery parsed around it', async () => {
        const doc = await check(...PRELUDE, 'box Blur { in i: F  out o: F  kerne convolution(3) }');
        const hover = await hoverAt(doc, 'kerne convolution');
        expect(hover).toMatch(/^\*\*kerne\*\*: did you mean 'kernel'\?\n\n\*\*kernel\*\*: The kernel the box runs/);
        expect(hover).not.toMatch(/convolution/);
    });

    test('where a name could also start the member (a chain), at a setting and at the top level', async () => {
        const chain = await check(...PRELUDE, 'chain C on P { s: Src  k: Sink  s.o -> k.i  schedul reduced }');
        const [error] = syntaxErrors(chain);
        expect(error.message).toMatch(/Did you mean 'schedule'\?$/);
        expect(chain.textDocument.getText(error.range)).toBe('schedul');
        expect((await quickFixes(chain, error)).map(a => a.title)).toEqual(["Change to 'schedule'"]);

        const ptts = await check('ptts P { componet X period 10 ms etp point 1 ms }');
        expect(syntaxErrors(ptts)[0].message).toMatch(/Did you mean 'component'\?$/);

        const top = await check(...PRELUDE, 'chian C on P { s: Src  k: Sink  s.o -> k.i }');
        const [topError] = syntaxErrors(top);
        expect(topError.message).toMatch(/Did you mean 'chain'\?$/);
        expect(await hoverAt(top, 'chian C')).toMatch(/did you mean 'chain'\?/);
    });

    test('a word that is no keyword typo has no fix and keeps its message', async () => {
        const doc = await check(...PRELUDE, 'box Twice { in i: F  out o: F  foo kernel gain(2) }');
        const [error] = syntaxErrors(doc);
        expect(error.message).not.toMatch(/Did you mean/);
        expect(await quickFixes(doc, error)).toEqual([]);
        expect((await hoverAt(doc, 'foo')) ?? '').not.toMatch(/did you mean/);
    });

    test('the fix is not offered once the word under the diagnostic has changed', async () => {
        const doc = await check(...PRELUDE, 'box Twice { in i: F  out o: F  kerne gain(2) }');
        const [error] = syntaxErrors(doc);
        const fixed = await check(...PRELUDE, 'box Twice { in i: F  out o: F  kernl gain(2) }');
        expect(await quickFixes(fixed, { ...error })).toEqual([]);
    });
});
