/**
 * Import model, the parts that need no editor: the .chain lands beside the source without clobbering the model of
 * the same pipeline in another format, and the output channel lists every note.
 */
import { describe, expect, test } from 'vitest';
import { chainFileBeside, importable, importLog, importMessage } from '../src/import-model-text';

describe('import model', () => {
    test('the .chain goes beside the source; only the last extension is replaced', () => {
        expect(chainFileBeside('/m/xray-pipeline.sdf3.xml')).toBe('/m/xray-pipeline.sdf3.chain');
        expect(chainFileBeside('/m/xray-pipeline.pi')).toBe('/m/xray-pipeline.chain');
        expect(chainFileBeside('/m/xray-system.amxmi')).toBe('/m/xray-system.chain');
        expect(chainFileBeside('/m/model')).toBe('/m/model.chain');
        expect(chainFileBeside('/m/.xml')).toBe('/m/.xml.chain');
    });

    test('an SDF3, PREESM or Amalthea file open in the editor is the one imported; others are not', () => {
        expect(['/m/a.sdf3.xml', '/m/a.PI', '/m/a.amxmi'].map(importable)).toEqual([true, true, true]);
        expect(['/m/a.chain', '/m/a.scenario', '/m/xml'].map(importable)).toEqual([false, false, false]);
    });

    test('the log names source, format and target, then each note', () => {
        const result = { text: '', format: 'sdf3' as const, notes: ['a delay of 1 token', 'times read as ns'] };
        expect(importLog('/m/p.xml', '/m/p.chain', result)).toEqual([
            '  /m/p.xml (sdf3) -> /m/p.chain',
            '  note: a delay of 1 token',
            '  note: times read as ns',
        ]);
        expect(importMessage('/m/p.chain', result)).toBe(
            'chainlab: imported as p.chain (2 notes: what was expanded or left out)',
        );
        expect(importMessage('/m/p.chain', { ...result, notes: [] })).toBe('chainlab: imported as p.chain');
    });
});
