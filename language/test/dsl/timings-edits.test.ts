/** Measured times as edits: replaced or inserted as the neighbours are laid out, refusals in words, exact text. */
import { EmptyFileSystem, TextDocument } from 'langium';
import { parseHelper } from 'langium/test';
import { describe, expect, test } from 'vitest';
import type { NameTimings } from '@chainlab/contract';
import { createChainServices } from '../../src/dsl/chain-module.js';
import type { Model } from '../../src/generated/ast.js';
import { applyTextEdits, defaultTimingsTarget, timingsEdits, TimingsEditError } from '../../src/dsl/timings-edits.js';

const { Chain } = createChainServices(EmptyFileSystem);
const parse = parseHelper<Model>(Chain);

const model = [
    'image Img 64 x 64 of u8',
    'box Src {',
    '    out o: Img',
    '    source period 10 ms',
    '}',
    'box Gain {',
    '    in i: Img',
    '    out o: Img',
    '    kernel gain(2)',
    '}',
    'chain C {',
    '    s: Src',
    '    g: Gain',
    '    s.o -> g.i',
    '}',
    'ptts P {',
    '    component A  period 10 ms  offset 0 ms  etp point 1 ms',
    '    component B  period 10 ms  etp uniform 1 ms .. 2 ms',
    '}',
].join('\n');

function timings(name: string, over: Partial<NameTimings> = {}): NameTimings {
    const ns = 1_500_000;
    return {
        name,
        samples: 4,
        first_row: 2,
        unit: 'ms',
        stats: {
            mean_ns: ns,
            median_ns: ns,
            p90_ns: 2_000_000,
            p99_ns: 2_000_000,
            min_ns: 1_000_000,
            max_ns: 2_000_000,
        },
        bins: [
            ['1', 1],
            ['1.5', 2],
            ['2', 1],
        ],
        bin_ns: null,
        ...over,
    };
}

describe('timings edits', () => {
    test('a box without a cost gets one on its own line, indented as its settings; the result is valid', async () => {
        const document = await parse(model, { validation: true });
        const edited = timingsEdits(document, { kind: 'chain', name: 'C' }, { timings: [timings('g')] }, 'cost', 'p90');
        const text = TextDocument.applyEdits(document.textDocument, edited.edits);
        expect(text).toContain('    kernel gain(2)\n    cost 2 ms\n}');
        expect(edited.settings).toEqual([{ element: 'box Gain', text: 'cost 2 ms', detail: 'p90 of 4 samples' }]);
        expect(edited.untouched).toEqual(['Src']);
        expect(applyTextEdits(model, edited.edits)).toBe(text);
        const after = await parse(text, { validation: true });
        expect(after.diagnostics?.filter(d => d.severity === 1)).toEqual([]);
    });

    test('a component etp is replaced, a missing one inserted after the last setting with the same spacing', async () => {
        const document = await parse(model.replace('  etp uniform 1 ms .. 2 ms', ''), { validation: true });
        const result = { timings: [timings('A'), timings('B', { unit: 'us', bins: [['1500', 3]] })] };
        const edited = timingsEdits(document, { kind: 'ptts', name: 'P' }, result, 'etp', 'median');
        const text = TextDocument.applyEdits(document.textDocument, edited.edits);
        expect(text).toContain(
            'component A  period 10 ms  offset 0 ms  etp pmf { 1 ms: 0.25, 1.5 ms: 0.5, 2 ms: 0.25 }\n',
        );
        expect(text).toContain('component B  period 10 ms  etp pmf { 1500 us: 1 }\n');
    });

    test('refusals: two names for one box, a 0 ns cost, no default target', async () => {
        const document = await parse(model, { validation: true });
        const chain = { kind: 'chain', name: 'C' } as const;
        expect(() =>
            timingsEdits(document, chain, { timings: [timings('g'), timings('Gain')] }, 'cost', 'mean'),
        ).toThrow('box Gain has times under two names, g and Gain');
        const zero = timings('s', { stats: { ...timings('s').stats, min_ns: 0, median_ns: 0 } });
        expect(() => timingsEdits(document, chain, { timings: [zero] }, 'cost', 'median')).toThrow(TimingsEditError);
        expect(() => defaultTimingsTarget(document.parseResult.value)).toThrow('the model has chain C and ptts P');
    });
});
