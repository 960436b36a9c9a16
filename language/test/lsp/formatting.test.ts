/** Formatting: one member per line, four-space indent, idempotent, comments kept. */
import { describe, expect, test } from 'vitest';
import { expectFormatting, parseDocument } from 'langium/test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import { services } from '../test-utils.js';
import { SKETCH } from './lsp-fixtures.js';

const formatting = expectFormatting(services.Chain);

async function format(text: string, options = { insertSpaces: true, tabSize: 4 }): Promise<string> {
    const document = await parseDocument(services.Chain, text);
    const edits = await services.Chain.lsp.Formatter!.formatDocument(document, {
        textDocument: { uri: document.uri.toString() },
        options,
    });
    return TextDocument.applyEdits(document.textDocument, edits);
}

const SKETCH_FORMATTED = `platform LabPC {
    cores 4
    cache L3 8 MiB shared
    smt off
}

image Frame 1024 x 1024 of u16

box Detector {
    out img: Frame
    source period 66.6 ms
}

box Gain {
    in i: Frame
    out o: Frame
    kernel gain(1.5)
    split rows
    depends pointwise
    cost 0.4 ms
}

box Spatial {
    in i: Frame
    out o: Frame
    kernel convolution(5)
    split rows
    depends halo 2
    cost 3.1 ms
}

box Display {
    in i: Frame
    kernel sink
    split none
}

chain XRay on LabPC {
    d: Detector
    g: Gain
    s: Spatial
    out: Display
    d.img -> g.i
    g.o -> s.i
    s.o -> out.i
    schedule reduced threads 4 cores 0..3
    memory reuse
    require latency p99 < 20 ms
}

ptts System {
    component Sensor period 66.6 ms offset 0 ms etp uniform 30 ms .. 60 ms
    component Process period 33.3 ms offset 5 ms etp chain XRay      // ETP = the chain's latency distribution
    component GPU period 16.6 ms etp pmf { 11 ms: 0.9, 12 ms: 0.1 }
    component Wall period 16.7 ms etp point 8 ms
    require latency p99 < 160 ms
    require loss < 1e-4
    require latency <= 160 ms with probability >= 99.9 %
}

throttle BestEffort {
    duty-cycle counter llc-misses sample 100 us suspend 900 us threshold 25 %
}

throttle Budget {
    budget period 10 ms misses 15000 per core
}

target here {
    local
    rt-cores 0
    be-cores 1
    throttle BestEffort
    workload hog
}

target lab1 {
    ssh "xray@10.200.0.2"
    port 22
    key "~/.ssh/id_ed25519"
    rt-cores 0..1
    be-cores 2..3
    throttle Budget
}
`;

describe('formatting', () => {
    test('the one-line sketch style becomes one member per line with a four-space indent', async () => {
        await formatting({ before: SKETCH, after: SKETCH_FORMATTED, disposeAfterCheck: true });
    });

    test('formatting is idempotent', async () => {
        await formatting({ before: SKETCH_FORMATTED, after: SKETCH_FORMATTED, disposeAfterCheck: true });
        const messy =
            'box  A{in i :F out o : F kernel gain ( -1.5 , 2 )}\nchain C{a:A b : A a . o->b . i schedule fixed cores 0 .. 1 , 3}';
        const once = await format(messy);
        expect(await format(once)).toBe(once);
    });

    test('tokens inside a member: one space, none around `.`, `(`, `)`, `:`, `,` and core ranges', async () => {
        await formatting({
            before: 'image F 2 x 2 of u8\nbox  A{in i :F out o : F kernel gain ( -1.5 , 2 )}\nchain C{a:A b : A a . o->b . i schedule fixed cores 0 .. 1 , 3 require latency p99 . 9  <  2 ms}',
            after: [
                'image F 2 x 2 of u8',
                '',
                'box A {',
                '    in i: F',
                '    out o: F',
                '    kernel gain(-1.5, 2)',
                '}',
                '',
                'chain C {',
                '    a: A',
                '    b: A',
                '    a.o -> b.i',
                '    schedule fixed cores 0..1, 3',
                '    require latency p99.9 < 2 ms',
                '}',
            ].join('\n'),
            disposeAfterCheck: true,
        });
    });

    test('comments are kept: trailing on their line, own-line comments re-indented and attached to what follows', async () => {
        await formatting({
            before: [
                '// Lab set-up',
                'platform P { cores 2 } // the small one',
                '/* The frame',
                '   of the detector */',
                'image F 2 x 2 of u8',
                'box A { // the only box',
                '        out o: F // its output',
                '  // the kernel:',
                'kernel copy }',
            ].join('\n'),
            after: [
                '// Lab set-up',
                'platform P {',
                '    cores 2',
                '} // the small one',
                '/* The frame',
                '   of the detector */',
                'image F 2 x 2 of u8',
                '',
                'box A { // the only box',
                '    out o: F // its output',
                '    // the kernel:',
                '    kernel copy',
                '}',
            ].join('\n'),
            disposeAfterCheck: true,
        });
    });

    test('a blank line between members is kept, more are collapsed; blank lines before a closing brace go', async () => {
        await formatting({
            before: 'chain C {\n\n\n    a: A\n    b: A\n\n\n\n    a.o -> b.i\n\n}',
            after: 'chain C {\n    a: A\n    b: A\n\n    a.o -> b.i\n}',
            disposeAfterCheck: true,
        });
    });

    test('at most one blank line above a comment', async () => {
        await formatting({
            before: 'box A {\n    out o: F\n\n\n\n    // the kernel\n    kernel copy\n}\n\n\n\n// next\nbox B { }',
            after: 'box A {\n    out o: F\n\n    // the kernel\n    kernel copy\n}\n\n// next\nbox B { }',
            disposeAfterCheck: true,
        });
    });

    test('empty blocks stay on one line', async () => {
        await formatting({
            before: 'box A {\n\n}\nchain C {}',
            after: 'box A { }\n\nchain C { }',
            disposeAfterCheck: true,
        });
    });

    test('a pmf written over several lines gets one entry per line', async () => {
        await formatting({
            before: 'ptts P { component A period 1 ms etp pmf {\n1 ms: 0.25,\n  2 ms : 0.75 } }',
            after: 'ptts P {\n    component A period 1 ms etp pmf {\n        1 ms: 0.25,\n        2 ms: 0.75\n    }\n}',
            disposeAfterCheck: true,
        });
    });

    test('tabs when the editor asks for them', async () => {
        expect(await format('box A { in i: F kernel sink }', { insertSpaces: false, tabSize: 4 })).toBe(
            'box A {\n\tin i: F\n\tkernel sink\n}',
        );
    });

    test('a document with syntax errors is left alone', async () => {
        const broken = 'box A { in i: F kernel gain(\nchain C{a:A}';
        await formatting({ before: broken, after: broken, disposeAfterCheck: true });
    });

    test('range formatting formats the selected element only', async () => {
        await formatting({
            before: 'box A { in i: F }\nbox B { in i: F }',
            after: 'box A { in i: F }\n\nbox B {\n    in i: F\n}',
            range: { start: { line: 1, character: 0 }, end: { line: 1, character: 17 } },
            disposeAfterCheck: true,
        });
    });
});
