/** The edit that writes offsets (Explore offsets → Apply best offsets): replaced, inserted, refused. */
import { EmptyFileSystem, TextDocument } from 'langium';
import { parseHelper } from 'langium/test';
import { describe, expect, test } from 'vitest';
import { METHOD_SCHEMAS } from '@chainlab/contract';
import { createChainServices } from '../../src/dsl/chain-module.js';
import type { Model } from '../../src/generated/ast.js';
import { offsetEdits } from '../../src/server/offset-edits.js';
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
});
