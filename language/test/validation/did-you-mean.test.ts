/**
 * Did you mean: close names for unresolved references (and unknown kernels and pixel types), named in the
 * diagnostic and offered as quick fixes that replace exactly the misspelt text.
 */
import type { LangiumDocument } from 'langium';
import { describe, expect, test } from 'vitest';
import type { CodeAction, Diagnostic } from 'vscode-languageserver';
import { closeNames, editDistance, quotedAlternatives } from '../../src/dsl/close-names.js';
import { codeOf, services } from '../test-utils.js';
import { check, issues, messages, PRELUDE, rangeOf } from './helpers.js';

async function codeActions(document: LangiumDocument, diagnostic: Diagnostic): Promise<CodeAction[]> {
    const actions = await services.Chain.lsp.CodeActionProvider!.getCodeActions(document, {
        textDocument: { uri: document.textDocument.uri },
        range: diagnostic.range,
        context: { diagnostics: [diagnostic] },
    });
    return (actions ?? []) as CodeAction[];
}

function only(document: LangiumDocument, code: string): Diagnostic {
    const found = (document.diagnostics ?? []).filter(d => codeOf(d) === code);
    expect(found).toHaveLength(1);
    return found[0];
}

/** Each fix as `title @ l:c..l:c -> newText` (1-based range of its one edit). */
async function fixes(document: LangiumDocument, diagnostic: Diagnostic): Promise<string[]> {
    return (await codeActions(document, diagnostic)).map(action => {
        const edits = action.edit?.changes?.[document.textDocument.uri] ?? [];
        expect(edits).toHaveLength(1);
        return `${action.title} @ ${rangeOf({ range: edits[0].range } as Diagnostic)} -> ${edits[0].newText}`;
    });
}

/** The text after applying the (single-edit) action. */
function applied(document: LangiumDocument, action: CodeAction): string {
    const [edit] = action.edit!.changes![document.textDocument.uri];
    const text = document.textDocument.getText();
    return (
        text.slice(0, document.textDocument.offsetAt(edit.range.start)) +
        edit.newText +
        text.slice(document.textDocument.offsetAt(edit.range.end))
    );
}

describe('close names', () => {
    test('a transposition, a case difference and a missing letter are one edit or less', () => {
        expect(editDistance('gian', 'gain')).toBe(1);
        expect(editDistance('gain', 'gain')).toBe(0);
        expect(editDistance('detectr', 'detector')).toBe(1);
        expect(editDistance('', 'abc')).toBe(3);
        expect(closeNames('gain', ['Gain'])).toEqual(['Gain']);
    });

    test('one typo per three characters; single letters only by case', () => {
        expect(closeNames('Gian', ['Src', 'Gain', 'Sink'])).toEqual(['Gain']);
        expect(closeNames('h', ['s', 'g', 'k'])).toEqual([]);
        expect(closeNames('H', ['s', 'h'])).toEqual(['h']);
        expect(closeNames('Detectr', ['Detector', 'Display'])).toEqual(['Detector']);
        expect(closeNames('blur', ['gain', 'copy', 'sink'])).toEqual([]);
    });

    test('prefixes both ways, after every typo', () => {
        expect(closeNames('Det', ['Display', 'Detector', 'DarkReference'])).toEqual(['Detector']);
        expect(closeNames('in', ['o', 'i'])).toEqual(['i']);
        expect(closeNames('Gauss', ['G'])).toEqual([]); // a much shorter name is no suggestion
        expect(closeNames('Ga', ['Gain', 'Gap', 'Ga1'])).toEqual(['Gap', 'Ga1', 'Gain']); // shortest completion first
    });

    test('the best three, closest first, declaration order between equals', () => {
        expect(closeNames('box', ['bax', 'bob', 'boxes', 'fox', 'bix'])).toEqual(['bax', 'bob', 'fox']);
        expect(closeNames('U16', ['u8', 'u16', 'i16'])).toEqual(['u16']); // a case-only difference leaves no doubt
        expect(closeNames('x', [])).toEqual([]);
        expect(quotedAlternatives(['a'])).toBe("'a'");
        expect(quotedAlternatives(['a', 'b'])).toBe("'a' or 'b'");
        expect(quotedAlternatives(['a', 'b', 'c'])).toBe("'a', 'b' or 'c'");
    });
});

describe('linking errors name the close names', () => {
    test('unknown box of an instance: the message and one preferred fix at the name', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Gian  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
        );
        const diagnostic = only(doc, 'linking-error');
        expect(diagnostic.message).toBe("Unknown box 'Gian'; did you mean 'Gain'?");
        expect(await fixes(doc, diagnostic)).toEqual(["Change to 'Gain' @ 7:16..7:20 -> Gain"]);
        const [action] = await codeActions(doc, diagnostic);
        expect(action.isPreferred).toBe(true);
        expect(action.diagnostics).toEqual([diagnostic]);
        expect(issues(await check(applied(doc, action)))).toEqual([]);
    });

    test('several close names: one fix each, in order, none preferred', async () => {
        const doc = await check(
            ...PRELUDE,
            'box Gains { in i: F  out o: F  kernel gain(3) }',
            'box Grain { in i: F  out o: F  kernel gain(4) }',
            'chain C on P {',
            '    s: Src  g: Grains  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
        );
        const diagnostic = only(doc, 'linking-error');
        expect(diagnostic.message).toBe("Unknown box 'Grains'; did you mean 'Gains', 'Grain' or 'Gain'?");
        expect(await fixes(doc, diagnostic)).toEqual([
            "Change to 'Gains' @ 9:16..9:22 -> Gains",
            "Change to 'Grain' @ 9:16..9:22 -> Grain",
            "Change to 'Gain' @ 9:16..9:22 -> Gain",
        ]);
        expect((await codeActions(doc, diagnostic)).map(a => a.isPreferred)).toEqual([false, false, false]);
    });

    test('unknown instance of a connection', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    src: Src  gain: Gain  k: Sink',
            '    scr.o -> gain.i  gain.o -> k.i',
            '}',
        );
        const diagnostic = only(doc, 'linking-error');
        expect(diagnostic.message).toBe("Unknown instance 'scr'; did you mean 'src'?");
        expect(await fixes(doc, diagnostic)).toEqual(["Change to 'src' @ 8:5..8:8 -> src"]);
    });

    test('unknown port: inputs on the right of ->, outputs on the left', async () => {
        const doc = await check(
            ...PRELUDE,
            'box Two { in a1: F  in a2: F  out a3: F  kernel add }',
            'chain C on P {',
            '    s: Src  t: Two  k: Sink',
            '    s.o -> t.a  s.o -> t.a2  t.a -> k.i',
            '}',
        );
        expect(messages(doc, 'linking-error')).toEqual([
            "Box 'Two' (instance 't') has no port 'a'; did you mean 'a1' or 'a2'?",
            "Box 'Two' (instance 't') has no port 'a'; did you mean 'a3'?",
        ]);
        const [right, left] = (doc.diagnostics ?? []).filter(d => codeOf(d) === 'linking-error');
        expect(await fixes(doc, right)).toEqual([
            "Change to 'a1' @ 9:14..9:15 -> a1",
            "Change to 'a2' @ 9:14..9:15 -> a2",
        ]);
        expect(await fixes(doc, left)).toEqual(["Change to 'a3' @ 9:32..9:33 -> a3"]);
    });

    test("a port with nothing close lists the box's ports, and has no fix", async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Gain  k: Sink',
            '    s.o -> g.x  g.o -> k.i',
            '}',
        );
        const diagnostic = only(doc, 'linking-error');
        expect(diagnostic.message).toBe("Box 'Gain' (instance 'g') has no port 'x'; its ports: in i, out o.");
        expect(await codeActions(doc, diagnostic)).toEqual([]);
    });

    test('unknown image type, platform, chain and throttle', async () => {
        const doc = await check(
            ...PRELUDE,
            'box G2 { in i: f  out o: F  kernel copy }',
            'chain Ch on p { s: Src  k: Sink  s.o -> k.i }',
            'ptts T { component A period 10 ms etp chain ch }',
            'throttle Budget { budget period 10 ms misses 10 }',
            'target t { local platform P1 rt-cores 0 be-cores 1 throttle budgets }',
        );
        expect(messages(doc, 'linking-error')).toEqual([
            "Unknown image type 'f'; did you mean 'F'?",
            "Unknown platform 'p'; did you mean 'P'?",
            "Unknown chain 'ch'; did you mean 'Ch'?",
            "Unknown platform 'P1'; did you mean 'P'?",
            "Unknown throttle 'budgets'; did you mean 'Budget'?",
        ]);
        const all = (doc.diagnostics ?? []).filter(d => codeOf(d) === 'linking-error');
        const texts: string[] = [];
        for (const diagnostic of all) texts.push(...(await fixes(doc, diagnostic)));
        expect(texts).toEqual([
            "Change to 'F' @ 6:16..6:17 -> F",
            "Change to 'P' @ 7:13..7:14 -> P",
            "Change to 'Ch' @ 8:45..8:47 -> Ch",
            "Change to 'P' @ 10:27..10:29 -> P",
            "Change to 'Budget' @ 10:61..10:68 -> Budget",
        ]);
    });

    test('nothing close: the known names (few) or nothing to choose from', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Blur  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
            'ptts T { component A period 10 ms etp chain Nope }',
        );
        expect(messages(doc, 'linking-error')).toEqual([
            "Unknown box 'Blur'; known boxes: Src, Gain, Sink.",
            "Unknown chain 'Nope'; known chains: C.",
        ]);
        for (const diagnostic of doc.diagnostics!) expect(await codeActions(doc, diagnostic)).toEqual([]);
    });

    test('a diagnostic whose text changed since offers nothing', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Gian  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
        );
        const diagnostic = only(doc, 'linking-error');
        const stale = {
            ...diagnostic,
            range: {
                start: diagnostic.range.start,
                end: { ...diagnostic.range.end, character: diagnostic.range.end.character - 1 },
            },
        };
        expect(await codeActions(doc, stale)).toEqual([]);
    });
});

describe('unknown kernels and pixel types get the same fixes', () => {
    test('kernel', async () => {
        const doc = await check(...PRELUDE, 'box A { in i: F  out o: F  kernel gian(2) }');
        const diagnostic = only(doc, 'unknown-kernel');
        expect(await fixes(doc, diagnostic)).toEqual(["Change to 'gain' @ 6:35..6:39 -> gain"]);
        const [action] = await codeActions(doc, diagnostic);
        expect(issues(await check(applied(doc, action)))).toEqual([]);
    });

    test('pixel type', async () => {
        const doc = await check('image F 64 x 64 of U16');
        const diagnostic = only(doc, 'unknown-pixel-type');
        expect(diagnostic.message).toMatch(/^Unknown pixel type 'U16'; did you mean 'u16'\?/);
        expect(await fixes(doc, diagnostic)).toEqual(["Change to 'u16' @ 1:20..1:23 -> u16"]);
    });
});
