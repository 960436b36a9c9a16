/** Go to definition, find references, document highlight and rename. */
import { describe, expect, test } from 'vitest';
import { expectFindReferences, expectGoToDefinition, expectHighlight, parseDocument } from 'langium/test';
import { ResponseError } from 'vscode-languageserver';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { services } from '../test-utils.js';
import { SMALL } from './lsp-fixtures.js';

const definition = expectGoToDefinition(services.Chain);
const references = expectFindReferences(services.Chain);
const highlight = expectHighlight(services.Chain);

describe('go to definition', () => {
    const go = (text: string) => definition({ text, index: 0, rangeIndex: 0, disposeAfterCheck: true });

    test('box of an instance', async () => {
        await go('image F 2 x 2 of u8\nbox <|Src|> { out o: F }\nchain C { s: S<|>rc }');
    });

    test('image type of a port', async () => {
        await go('image <|F|> 2 x 2 of u8\nbox A { out o: <|>F }');
    });

    test('instance and port of `inst.port`', async () => {
        const model = 'image F 2 x 2 of u8\nbox A { out o: F in i: F }\n';
        await go(`${model}chain C { <|a|>: A b: A <|>a.o -> b.i }`);
        await go(`${model.replace('out o', 'out <|o|>')}chain C { a: A b: A a.<|>o -> b.i }`);
        // The port is found in the box of the instance, not in another box with a port of the same name.
        await go(`${model}box B { in i: F out <|o|>: F }\nchain C { a: A b: B b.<|>o -> a.i }`);
    });

    test('chain of `etp chain X`, platform and throttle references', async () => {
        await go('chain <|X|> { }\nptts P { component A period 1 ms etp chain <|>X }');
        await go('platform <|P|> { cores 2 }\nchain C on <|>P { }');
        await go('platform <|P|> { cores 2 }\ntarget t { platform <|>P }');
        await go('throttle <|T|> { budget }\ntarget t { throttle <|>T }');
    });

    test('on a declaration it stays on the declaration', async () => {
        await go('box <|Sr<|>c|> { }');
    });
});

describe('find references', () => {
    const find = (text: string, includeDeclaration = true) =>
        references({ text, includeDeclaration, disposeAfterCheck: true });

    test('a box: declaration and instances, from either', async () => {
        await find(
            'image F 2 x 2 of u8\nbox <|<|>Inc|> { in i: F out o: F }\nbox Other { }\nchain C { a: <|Inc|> b: <|<|>Inc|> c: Other }',
        );
        await find('image F 2 x 2 of u8\nbox <|>Inc { in i: F out o: F }\nchain C { a: <|Inc|> b: <|Inc|> }', false);
    });

    test('an image type', async () => {
        await find('image <|<|>F|> 2 x 2 of u8\nimage G 2 x 2 of u8\nbox A { in i: <|F|> out o: <|F|> out p: G }');
    });

    test('an instance: its declaration and every `inst.port`', async () => {
        await find(
            'image F 2 x 2 of u8\nbox A { in i: F out o: F }\nchain C { <|<|>a|>: A b: A <|a|>.o -> b.i b.o -> <|a|>.i }',
        );
    });

    test('a port: only `inst.port` of instances of its box', async () => {
        await find(
            [
                'image F 2 x 2 of u8',
                'box A { in i: F out <|<|>o|>: F }',
                'box B { in i: F out o: F }',
                'chain C { a: A b: B x: A a.<|o|> -> b.i b.o -> x.i x.<|o|> -> a.i }',
            ].join('\n'),
        );
    });

    test('a chain, a platform and a throttle', async () => {
        await find(
            'chain <|<|>X|> { }\nptts P { component A period 1 ms etp chain <|X|> component B period 1 ms etp chain <|X|> }',
        );
        await find('platform <|<|>P|> { cores 2 }\nchain C on <|P|> { }\ntarget t { platform <|P|> }');
        await find('throttle <|<|>T|> { budget }\ntarget t { throttle <|T|> }\ntarget u { throttle <|T|> }');
    });
});

describe('document highlight', () => {
    test('highlights the declaration and the references of a box', async () => {
        await highlight({ text: 'box <|<|>A|> { }\nchain C { a: <|A|> b: <|A|> }', index: 0, disposeAfterCheck: true });
    });
});

describe('rename', () => {
    async function rename(text: string, newName: string): Promise<string> {
        const offset = text.indexOf('<|>');
        const document = await parseDocument(services.Chain, text.replace('<|>', ''));
        const edit = await services.Chain.lsp.RenameProvider!.rename(document, {
            textDocument: { uri: document.uri.toString() },
            position: document.textDocument.positionAt(offset),
            newName,
        });
        const edits = edit?.changes?.[document.uri.toString()] ?? [];
        return TextDocument.applyEdits(document.textDocument, edits);
    }

    async function prepare(text: string): Promise<string | undefined> {
        const offset = text.indexOf('<|>');
        const document = await parseDocument(services.Chain, text.replace('<|>', ''));
        const range = await services.Chain.lsp.RenameProvider!.prepareRename(document, {
            textDocument: { uri: document.uri.toString() },
            position: document.textDocument.positionAt(offset),
        });
        return range ? document.textDocument.getText(range) : undefined;
    }

    test('renaming a box updates every instance', async () => {
        const renamed = await rename(SMALL.replace('box Inc', 'box <|>Inc'), 'Increment');
        expect(renamed).toBe(
            SMALL.replace('box Inc', 'box Increment').replace('a: Inc b: Inc', 'a: Increment b: Increment'),
        );
    });

    test('renaming an instance keeps the columns of aligned members', async () => {
        const aligned = `platform P { cores 2 }
image F 8 x 8 of u8
box S { out o: F source period 10 ms }
box G { in i: F out o: F kernel gain(2) }
box K { in i: F kernel sink }
chain C on P {
    src:    S
    gain1:  G
    sink:   K

    src.o   -> gain1.i
    gain1.o -> sink.i
}
`;
        const renamed = await rename(aligned.replace('gain1:', '<|>gain1:'), 'blur');
        expect(renamed).toContain('    blur:   G\n');
        expect(renamed).toContain('    src.o   -> blur.i\n');
        expect(renamed).toContain('    blur.o  -> sink.i\n');
        // a longer name than the column allows: one space
        const longer = await rename(aligned.replace('gain1:', '<|>gain1:'), 'gaussian_blur');
        expect(longer).toContain('    gaussian_blur: G\n');
    });

    test('renaming from a reference renames the declaration too', async () => {
        const renamed = await rename(SMALL.replace('b: Inc', 'b: <|>Inc'), 'Step');
        expect(renamed).toBe(SMALL.replace('box Inc', 'box Step').replace('a: Inc b: Inc', 'a: Step b: Step'));
    });

    test('renaming a port updates `inst.port` of the instances of its box only', async () => {
        const renamed = await rename(SMALL.replace('box Inc { in i: F out o', 'box Inc { in i: F out <|>o'), 'out1');
        expect(renamed).toBe(
            SMALL.replace('box Inc { in i: F out o', 'box Inc { in i: F out out1').replace(
                'a.o -> b.i b.o -> k.i',
                'a.out1 -> b.i b.out1 -> k.i',
            ),
        );
        expect(renamed).toContain('s.o -> a.i'); // the port `o` of Src is another port
    });

    test('renaming a port from `a.o`', async () => {
        const renamed = await rename(SMALL.replace('a.o ->', 'a.<|>o ->'), 'result');
        expect(renamed).toContain('box Inc { in i: F out result: F');
        expect(renamed).toContain('s.o -> a.i a.result -> b.i b.result -> k.i');
    });

    test('renaming an instance, a chain, an image and a throttle', async () => {
        expect(await rename(SMALL.replace('a: Inc', '<|>a: Inc'), 'first')).toContain(
            's: Src first: Inc b: Inc k: Snk\n    s.o -> first.i first.o -> b.i',
        );
        expect(await rename(SMALL.replace('chain C', 'chain <|>C'), 'Pipeline')).toContain('etp chain Pipeline');
        const image = await rename(SMALL.replace('image F', 'image <|>F'), 'Frame');
        expect(image.match(/: Frame/g)).toHaveLength(4);
        expect(image).toContain('image Frame 64 x 48 of u8');
        expect(image).not.toMatch(/: F\b/);
        expect(await rename(SMALL.replace('throttle T', 'throttle <|>T'), 'Quota')).toContain('throttle Quota }');
    });

    test('prepare rename gives the name under the cursor, and nothing for kernels and keywords', async () => {
        expect(await prepare(SMALL.replace('a: Inc', 'a: In<|>c'))).toBe('Inc');
        expect(await prepare(SMALL.replace('box Inc', 'box <|>Inc'))).toBe('Inc');
        expect(await prepare(SMALL.replace('offset(1)', 'off<|>set(1)'))).toBeUndefined();
        expect(await prepare(SMALL.replace('chain C', 'ch<|>ain C'))).toBeUndefined();
    });

    test('invalid names and clashes are refused with a message', async () => {
        const text = SMALL.replace('box Inc', 'box <|>Inc');
        await expect(rename(text, 'box')).rejects.toThrow(ResponseError);
        await expect(rename(text, 'box')).rejects.toThrow("'box' is a keyword of the language and cannot be a name.");
        await expect(rename(text, '2x')).rejects.toThrow("'2x' is not a valid name");
        await expect(rename(text, 'my-box')).rejects.toThrow('is not a valid name');
        await expect(rename(text, 'Src')).rejects.toThrow("'Src' is already the name of another box here.");
        await expect(rename(text, 'F')).rejects.toThrow("'F' is already the name of another image here.");
        // Names that are keywords elsewhere but allowed as names stay allowed (an instance called `s`).
        expect(await rename(SMALL.replace('a: Inc', '<|>a: Inc'), 'out')).toContain('out: Inc b: Inc');
        // Ports are per box: another box may have a port of that name.
        expect(await rename(SMALL.replace('box Snk { in i', 'box Snk { in <|>i'), 'o')).toContain('box Snk { in o: F');
        await expect(rename(SMALL.replace('box Inc { in i', 'box Inc { in <|>i'), 'o')).rejects.toThrow(
            "'o' is already the name of another port here.",
        );
    });
});
