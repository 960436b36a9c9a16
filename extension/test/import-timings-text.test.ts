/**
 * Import measured times, the parts that need no editor: the chain/ptts and cost/etp choices, and what the output
 * channel and the notification say about the edit.
 */
import { describe, expect, test } from 'vitest';
import { asItems, targetItems, timingsLog, timingsMessage } from '../src/import-timings-text';

const range = { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } };

describe('import measured times', () => {
    test('chains and ptts are offered, cost first for a chain and etp first for a ptts', () => {
        const items = targetItems({
            chain: [{ name: 'Fig35', range }],
            ptts: [{ name: 'Fig52', range }],
        });
        expect(items.map(i => i.label)).toEqual(['chain Fig35', 'ptts Fig52']);
        expect(items.map(i => i.target)).toEqual([{ chain: 'Fig35' }, { ptts: 'Fig52' }]);
        expect(asItems({ chain: 'Fig35' }).map(i => [i.label, i.as])).toEqual([
            ['cost', 'cost'],
            ['etp pmf', 'etp'],
        ]);
        expect(asItems({ ptts: 'Fig52' }).map(i => [i.label, i.as])).toEqual([
            ['etp pmf', 'etp'],
            ['etp point', 'cost'],
        ]);
    });

    test('the log lists every setting and the names left alone', () => {
        const result = {
            edit: { changes: {} },
            rows: 4,
            settings: [{ element: 'box Conv', text: 'cost 3.15 ms', detail: 'median of 3 samples' }],
            untouched: ['Source', 'Dup'],
        };
        expect(timingsLog('/m/t.csv', result)).toEqual([
            '  /m/t.csv: 4 row(s)',
            '  box Conv: cost 3.15 ms (median of 3 samples)',
            '  not in the CSV (left as they are): Source, Dup',
        ]);
        expect(timingsMessage(result)).toBe(
            'chainlab: measured times set in 1 element (undo reverts them; details in the output)',
        );
    });
});
