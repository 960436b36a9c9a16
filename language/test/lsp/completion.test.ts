/** Completion: keywords, cross-references, kernels with signatures, units, `inst.port`. */
import { describe, expect, test } from 'vitest';
import { expectCompletion } from 'langium/test';
import { CompletionItemKind, InsertTextFormat, type CompletionList } from 'vscode-languageserver';
import { services } from '../test-utils.js';
import { KERNELS } from '../../src/dsl/kernels.js';

const complete = expectCompletion(services.Chain);
const BOXES =
    'image F 4 x 4 of u8\nimage G 2 x 2 of u16\nbox A { out o: F out p: F in i: F kernel dup }\nbox B { in i: F kernel sink }\n';

/** Labels in the order the client would show them (by sortText, stable). */
function labels(list: CompletionList): string[] {
    return [...list.items].sort((a, b) => (a.sortText ?? '').localeCompare(b.sortText ?? '')).map(i => i.label);
}

describe('keywords', () => {
    test('an empty file offers the elements', async () => {
        await complete({
            text: '<|>',
            index: 0,
            expectedItems: ['platform', 'image', 'box', 'chain', 'ptts', 'throttle', 'target'],
            disposeAfterCheck: true,
        });
    });

    test('a box body offers its members', async () => {
        await complete({
            text: 'box A { <|> }',
            index: 0,
            expectedItems: ['in', 'out', 'kernel', 'source', 'split', 'depends', 'cost', 'etp'],
            disposeAfterCheck: true,
        });
    });

    test('keywords that are only names are not proposed', async () => {
        await complete({
            text: `${BOXES}chain C { a: A b: B <|> }`,
            index: 0,
            disposeAfterCheck: true,
            assert: list => {
                // Instances (a connection may start here) and the chain's settings; never `s`, `ms`, `in`, `x` …
                expect(labels(list)).toEqual(['a', 'b', 'schedule', 'memory', 'iterations', 'require']);
            },
        });
    });

    test('a typed prefix filters keywords', async () => {
        await complete({
            text: 'ptts P { component X period 10 ms o<|> }',
            index: 0,
            expectedItems: ['offset', 'order'],
            disposeAfterCheck: true,
        });
    });
});

describe('documentation', () => {
    test('a keyword carries what it means, as its hover says it', async () => {
        await complete({
            text: 'box A { <|> }',
            index: 0,
            disposeAfterCheck: true,
            assert: list => {
                const doc = (label: string) =>
                    (list.items.find(i => i.label === label)?.documentation as { value?: string } | undefined)?.value;
                expect(doc('kernel')).toMatch(/^\*\*kernel\*\*: The kernel the box runs/);
                expect(doc('source')).toMatch(/periodic source/);
                expect(doc('in')).toMatch(/input port/);
            },
        });
    });

    test('a keyword with a meaning per rule: the one where it is offered', async () => {
        for (const [text, meaning] of [
            ['ptts P { component X <|> }', "The component's period."],
            ['throttle T { budget <|> }', 'The period of the budget.'],
        ] as const) {
            await complete({
                text,
                index: 0,
                disposeAfterCheck: true,
                assert: list => {
                    const period = list.items.find(i => i.label === 'period');
                    expect((period?.documentation as { value?: string }).value).toBe(`**period**: ${meaning}`);
                },
            });
        }
    });
});

describe('cross-references', () => {
    test('a port type offers the image types, with their size', async () => {
        await complete({
            text: 'image F 1024 x 1024 of u16\nimage G 2 x 2 of u8\nbox A { in i: <|> }',
            index: 0,
            disposeAfterCheck: true,
            assert: list => {
                expect(labels(list)).toEqual(['F', 'G']);
                const f = list.items.find(i => i.label === 'F')!;
                expect(f.kind).toBe(CompletionItemKind.Struct);
                expect(f.detail).toBe('image 1024 × 1024 of u16, 2 MiB (2097152 B)');
                expect(f.documentation).toMatchObject({
                    kind: 'markdown',
                    value: expect.stringContaining('**image F**'),
                });
            },
        });
    });

    test('an instance offers the boxes only', async () => {
        await complete({
            text: `${BOXES}chain C { a: <|> }`,
            index: 0,
            disposeAfterCheck: true,
            assert: list => {
                expect(labels(list)).toEqual(['A', 'B']);
                expect(list.items[0].detail).toBe('box, kernel dup; out o, out p, in i');
                expect(list.items[0].kind).toBe(CompletionItemKind.Class);
            },
        });
    });

    test('a connection offers the instances, then the ports of the chosen instance', async () => {
        await complete({
            text: `${BOXES}chain C { a: A b: B <|>a.o -> b.i }`,
            index: 0,
            expectedItems: ['a', 'b', 'schedule', 'memory', 'iterations', 'require'],
            disposeAfterCheck: true,
        });
        await complete({
            text: `${BOXES}chain C { a: A b: B a.o -> <|> }`,
            index: 0,
            expectedItems: ['a', 'b'],
            disposeAfterCheck: true,
        });
    });

    test('after `inst.` the left side offers output ports, the right side input ports', async () => {
        await complete({
            text: `${BOXES}chain C { a: A b: B a.<|> }`,
            index: 0,
            expectedItems: ['o', 'p'],
            disposeAfterCheck: true,
        });
        await complete({
            text: `${BOXES}chain C { a: A b: B a.o -> a.<|> }`,
            index: 0,
            expectedItems: ['i'],
            disposeAfterCheck: true,
        });
        await complete({
            text: `${BOXES}chain C { a: A b: B a.o -> b.<|>\n a.p -> b.i }`,
            index: 0,
            expectedItems: ['i'],
            disposeAfterCheck: true,
        });
        await complete({
            text: `${BOXES}chain C { a: A b: B a.<|> }`,
            index: 0,
            disposeAfterCheck: true,
            assert: list => expect(list.items.map(i => i.detail)).toEqual(['out port: F', 'out port: F']),
        });
    });

    test('a connection from an instance whose box has only inputs still offers them', async () => {
        await complete({
            text: `${BOXES}chain C { b: B b.<|> }`,
            index: 0,
            expectedItems: ['i'],
            disposeAfterCheck: true,
        });
    });

    test('an unknown instance offers no ports', async () => {
        await complete({
            text: `${BOXES}chain C { a: A q.<|> }`,
            index: 0,
            expectedItems: [],
            disposeAfterCheck: true,
        });
    });

    test('platforms, chains and throttles where they are referenced', async () => {
        const model = 'platform L { cores 4 }\nthrottle T { budget }\nchain X { }\n';
        await complete({ text: `${model}chain C on <|> { }`, index: 0, expectedItems: ['L'], disposeAfterCheck: true });
        await complete({
            text: `${model}target t { platform <|> }`,
            index: 0,
            expectedItems: ['L'],
            disposeAfterCheck: true,
        });
        await complete({
            text: `${model}target t { throttle <|> }`,
            index: 0,
            expectedItems: ['T'],
            disposeAfterCheck: true,
        });
        await complete({
            text: `${model}ptts P { component A period 1 ms etp chain <|> }`,
            index: 0,
            expectedItems: ['X'],
            disposeAfterCheck: true,
        });
    });
});

describe('kernels', () => {
    test('every kernel is offered with its signature and documentation', async () => {
        await complete({
            text: 'box A { kernel <|> }',
            index: 0,
            disposeAfterCheck: true,
            assert: list => {
                expect(labels(list)).toEqual([...KERNELS.keys()]);
                const gain = list.items.find(i => i.label === 'gain')!;
                expect(gain.detail).toBe('kernel gain(factor)');
                expect(gain.labelDetails).toEqual({ detail: '(factor)', description: 'kernel' });
                expect(gain.kind).toBe(CompletionItemKind.Function);
                expect(gain.insertTextFormat).toBe(InsertTextFormat.Snippet);
                expect(gain.textEdit?.newText).toBe('gain(${1:factor})');
                expect(gain.documentation).toMatchObject({
                    value: expect.stringContaining('Multiplies every pixel by a factor.'),
                });
                expect(list.items.find(i => i.label === 'mul')!.detail).toBe('kernel mul(scale?)');
                expect(list.items.find(i => i.label === 'sink')!.textEdit?.newText).toBe('sink');
            },
        });
    });

    test('a typed prefix filters the kernels', async () => {
        await complete({
            text: 'box A { kernel con<|> }',
            index: 0,
            expectedItems: ['convolution'],
            disposeAfterCheck: true,
        });
    });

    test('arguments already written are not written again', async () => {
        await complete({
            text: 'box A { kernel ga<|>(1.5) }',
            index: 0,
            disposeAfterCheck: true,
            assert: list => {
                expect(labels(list)).toEqual(['gain']);
                expect(list.items[0].textEdit?.newText).toBe('gain');
            },
        });
    });
});

describe('units', () => {
    test('after a duration value: time units', async () => {
        await complete({
            text: 'box A { cost 3 <|> }',
            index: 0,
            expectedItems: ['s', 'ms', 'us', 'ns'],
            disposeAfterCheck: true,
        });
        await complete({
            text: 'ptts P { component X period 66.6 <|> }',
            index: 0,
            expectedItems: ['s', 'ms', 'us', 'ns'],
            disposeAfterCheck: true,
        });
        await complete({
            text: 'box A { cost 3 <|> }',
            index: 0,
            disposeAfterCheck: true,
            assert: list =>
                expect(list.items.map(i => [i.label, i.kind, i.detail])).toContainEqual([
                    'ms',
                    CompletionItemKind.Unit,
                    'milliseconds (10⁶ ns)',
                ]),
        });
    });

    test('right after the digits the unit comes with a space', async () => {
        await complete({
            text: 'box A { cost 3<|> }',
            index: 0,
            disposeAfterCheck: true,
            assert: list => expect(list.items.find(i => i.label === 'ms')?.textEdit?.newText).toBe(' ms'),
        });
    });

    test('after a size value: size units', async () => {
        await complete({
            text: 'platform L { cache L3 8 <|> }',
            index: 0,
            expectedItems: ['B', 'KiB', 'MiB', 'GiB'],
            disposeAfterCheck: true,
        });
    });

    test('after a threshold: percent and bandwidths', async () => {
        await complete({
            text: 'throttle T { duty-cycle threshold 25 <|> }',
            index: 0,
            expectedItems: ['%', 'MB/s', 'GB/s', 'MiB/s', 'GiB/s'],
            disposeAfterCheck: true,
        });
    });
});
