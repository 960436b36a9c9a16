/**
 * The edit that writes offsets (Explore offsets → Apply best offsets) and periods: replaced in the file's own layout,
 * inserted, left alone where they do not change, refused.
 */
import { EmptyFileSystem, TextDocument } from 'langium';
import { parseHelper } from 'langium/test';
import { describe, expect, test } from 'vitest';
import { METHOD_SCHEMAS } from '@chainlab/contract';
import { createChainServices } from '../../src/dsl/chain-module.js';
import type { Model } from '../../src/generated/ast.js';
import { offsetEdits, periodEdits, pointEdits } from '../../src/server/offset-edits.js';
import { schemaErrors } from '../contract/contract-ajv.js';

const model = [
    'ptts System {',
    '    component Sensor  period 66.6 ms  offset 0 ms  etp uniform 30 ms .. 60 ms',
    '    component Process period 33.3 ms  etp point 25 ms',
    '    component Wall    period 16.7 ms  offset 2 ms  etp point 8 ms',
    '}',
].join('\n');

const { Chain } = createChainServices(EmptyFileSystem);
const parse = parseHelper<Model>(Chain);

describe('offset edits', () => {
    test('an existing offset is replaced, a missing one inserted after the period; the result checks clean', async () => {
        const document = await parse(model, { validation: true });
        expect(document.diagnostics?.filter(d => d.severity === 1)).toEqual([]);
        const edits = offsetEdits(document, 'System', { Sensor: 5_000_000, Process: 1_500_000 });
        const text = TextDocument.applyEdits(document.textDocument, edits);
        expect(text.split('\n').slice(1, 3)).toEqual([
            '    component Sensor  period 66.6 ms  offset 5 ms  etp uniform 30 ms .. 60 ms',
            '    component Process period 33.3 ms  offset 1.5 ms  etp point 25 ms',
        ]);
        const written = await parse(text, { validation: true });
        expect(written.diagnostics?.filter(d => d.severity === 1)).toEqual([]);
        const result = { components: edits.length, edit: { changes: { [document.textDocument.uri]: edits } } };
        expect(schemaErrors(METHOD_SCHEMAS.languageServer['chainlab/offsetsEdit'].result, result)).toEqual([]);
    });

    test('an unknown ptts or component is refused with its name', async () => {
        const document = await parse(model);
        expect(() => offsetEdits(document, 'Nope', { Sensor: 0 })).toThrow('no ptts named Nope');
        expect(() => offsetEdits(document, 'System', { GPU: 0 })).toThrow('ptts System has no component GPU');
    });

    test('an offset that does not change is not written; no offset at all is offset 0', async () => {
        const document = await parse(model);
        expect(offsetEdits(document, 'System', { Sensor: 0, Wall: 2_000_000, Process: 0 })).toEqual([]);
        expect(pointEdits(document, 'System', { Wall: 2_000_000 }, { Wall: 16_700_000 })).toEqual([]);
    });

    // thesis Figure 5.2 as the sample writes it: numbers right-aligned in columns
    const fig52 = [
        'ptts Fig52 {',
        '    component C0  period 200 ms  offset  0 ms  etp uniform 50 ms .. 149 ms',
        '    component C1  period  58 ms  offset 30 ms  etp uniform 25 ms .. 54 ms',
        '    component C2  period  56 ms  offset  8 ms  etp point 5 ms',
        '}',
    ].join('\n');

    test('in a line laid out in columns the value keeps its end column: the settings after it stay aligned', async () => {
        const document = await parse(fig52, { validation: true });
        const edits = offsetEdits(document, 'Fig52', { C1: 5_000_000, C2: 42_000_000 });
        const lines = TextDocument.applyEdits(document.textDocument, edits).split('\n');
        expect(lines.slice(1, 4)).toEqual([
            '    component C0  period 200 ms  offset  0 ms  etp uniform 50 ms .. 149 ms',
            '    component C1  period  58 ms  offset  5 ms  etp uniform 25 ms .. 54 ms',
            '    component C2  period  56 ms  offset 42 ms  etp point 5 ms',
        ]);
        const wider = offsetEdits(document, 'Fig52', { C2: 42_500_000 });
        expect(TextDocument.applyEdits(document.textDocument, wider).split('\n')[3]).toBe(
            '    component C2  period  56 ms  offset 42.5 ms  etp point 5 ms', // one space always stays
        );
        const periods = periodEdits(document, 'Fig52', { C0: 58_000_000, C1: 100_000_000 });
        expect(TextDocument.applyEdits(document.textDocument, periods).split('\n').slice(1, 3)).toEqual([
            '    component C0  period  58 ms  offset  0 ms  etp uniform 50 ms .. 149 ms',
            '    component C1  period 100 ms  offset 30 ms  etp uniform 25 ms .. 54 ms',
        ]);
    });

    test("a line written with single spaces keeps them; the value stays in the file's unit and spelling", async () => {
        const text = [
            'ptts Plain {',
            '    component A period 20 ms offset 3 ms etp point 1 ms',
            '    component B period 20000us offset 8000 us etp point 1 ms',
            '}',
        ].join('\n');
        const document = await parse(text, { validation: true });
        const edits = offsetEdits(document, 'Plain', { A: 12_000_000, B: 1_500_000 });
        expect(TextDocument.applyEdits(document.textDocument, edits).split('\n').slice(1, 3)).toEqual([
            '    component A period 20 ms offset 12 ms etp point 1 ms',
            '    component B period 20000us offset 1500 us etp point 1 ms',
        ]);
        const periods = periodEdits(document, 'Plain', { B: 16_650_000 });
        expect(TextDocument.applyEdits(document.textDocument, periods).split('\n')[2]).toBe(
            '    component B period 16650us offset 8000 us etp point 1 ms',
        );
        // a value the unit writes with more than 3 decimals goes to the unit that reads best
        const fine = offsetEdits(document, 'Plain', { A: 1_500 });
        expect(fine.map(e => e.newText)).toEqual(['1.5 us']);
    });
});
