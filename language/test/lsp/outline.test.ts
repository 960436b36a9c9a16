/** Outline (document symbols) and folding ranges. */
import { describe, expect, test } from 'vitest';
import { expectFoldings, expectSymbols } from 'langium/test';
import { FoldingRangeKind, SymbolKind, type DocumentSymbol, type FoldingRange } from 'vscode-languageserver';
import { services } from '../test-utils.js';
import { SKETCH } from './lsp-fixtures.js';

const symbols = expectSymbols(services.Chain);
const foldings = expectFoldings(services.Chain);

const KIND_NAMES = new Map<number, string>(Object.entries(SymbolKind).map(([name, value]) => [value as number, name]));

/** `name (kind) detail` lines, children indented. */
function outline(list: DocumentSymbol[], depth = 0): string[] {
    return list.flatMap(s => [
        `${'  '.repeat(depth)}${s.name} (${KIND_NAMES.get(s.kind) ?? s.kind}) ${s.detail}`,
        ...outline(s.children ?? [], depth + 1),
    ]);
}

describe('outline', () => {
    test('elements, with ports of boxes, instances of chains and components of ptts as children', async () => {
        await symbols({
            text: SKETCH,
            disposeAfterCheck: true,
            assert: list =>
                expect(outline(list)).toEqual([
                    'LabPC (Package) platform, 4 cores',
                    'Frame (Struct) image 1024 x 1024 of u16',
                    'Detector (Class) box, kernel source',
                    '  img (Field) out Frame',
                    'Gain (Class) box, kernel gain',
                    '  i (Field) in Frame',
                    '  o (Field) out Frame',
                    'Spatial (Class) box, kernel convolution',
                    '  i (Field) in Frame',
                    '  o (Field) out Frame',
                    'Display (Class) box, kernel sink',
                    '  i (Field) in Frame',
                    'XRay (Module) chain on LabPC',
                    '  d (Object) Detector',
                    '  g (Object) Gain',
                    '  s (Object) Spatial',
                    '  out (Object) Display',
                    'System (Namespace) ptts',
                    '  Sensor (Event) period 66.6 ms',
                    '  Process (Event) period 33.3 ms',
                    '  GPU (Event) period 16.6 ms',
                    '  Wall (Event) period 16.7 ms',
                    'BestEffort (Function) throttle, duty-cycle',
                    'Budget (Function) throttle, budget',
                    'here (Interface) target',
                    'lab1 (Interface) target',
                ]),
        });
    });

    test('ranges: the whole element, with the name selected', async () => {
        await symbols({
            text: 'image F 2 x 2 of u8\nbox A {\n    out o: F\n}\n',
            disposeAfterCheck: true,
            assert: list => {
                const box = list[1];
                expect(box.range).toEqual({ start: { line: 1, character: 0 }, end: { line: 3, character: 1 } });
                expect(box.selectionRange).toEqual({
                    start: { line: 1, character: 4 },
                    end: { line: 1, character: 5 },
                });
                expect(box.children![0].range).toEqual({
                    start: { line: 2, character: 4 },
                    end: { line: 2, character: 12 },
                });
                expect(box.children![0].selectionRange).toEqual({
                    start: { line: 2, character: 8 },
                    end: { line: 2, character: 9 },
                });
            },
        });
    });

    test('kernel names are not symbols, and an incomplete model still has an outline', async () => {
        await symbols({
            text: 'box A { kernel gain(2) }\nchain C { a: A b: }\nbox',
            expectedSymbols: ['A', 'C'],
            disposeAfterCheck: true,
        });
        await symbols({
            text: 'box A { kernel gain(2) }',
            disposeAfterCheck: true,
            assert: list => expect(list[0].children).toEqual([]),
        });
        await symbols({ text: '', expectedSymbols: [], disposeAfterCheck: true });
    });
});

describe('folding', () => {
    const lines = (list: FoldingRange[]) => list.map(f => `${f.startLine}-${f.endLine}${f.kind ? ` ${f.kind}` : ''}`);

    test('blocks fold up to the line before their closing brace', async () => {
        await foldings({
            text: [
                'box A {', // 0
                '    in i: F', // 1
                '    out o: F', // 2
                '}', // 3
                'box B { in i: F }', // 4: one line, nothing to fold
                'chain C {', // 5
                '    a: A', // 6: folds 5-6
                '}', // 7
                'ptts P {', // 8
                '    component X period 1 ms etp pmf {', // 9
                '        1 ms: 0.5,', // 10
                '        2 ms: 0.5', // 11
                '    }', // 12
                '}', // 13
            ].join('\n'),
            disposeAfterCheck: true,
            assert: list => expect(lines(list)).toEqual(['0-2', '5-6', '8-12', '9-11']),
        });
    });

    test('multi-line comments and runs of line comments fold', async () => {
        await foldings({
            text: [
                '/*', // 0
                ' * The lab set-up.', // 1
                ' */', // 2
                '// one', // 3
                '// two', // 4
                '// three', // 5
                'platform P { cores 2 }', // 6
                '// just', // 7
                '// two', // 8
                'target t {', // 9
                '    local // a trailing', // 10
                '    // comment', // 11
                '    rt-cores 0', // 12
                '}', // 13
            ].join('\n'),
            disposeAfterCheck: true,
            assert: list => expect(lines(list)).toEqual(['0-1 comment', '3-5 comment', '9-12']),
        });
    });

    test('every block of the formatted sketch folds', async () => {
        const formatted = SKETCH.replace(/ \{ /g, ' {\n').replace(/ \}\n/g, '\n}\n');
        await foldings({
            text: formatted,
            disposeAfterCheck: true,
            assert: list => expect(list.filter(f => f.kind !== FoldingRangeKind.Comment)).toHaveLength(12),
        });
    });
});
