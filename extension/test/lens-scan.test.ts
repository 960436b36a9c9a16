/**
 * Provisional CodeLens: a scan of the text finds the declarations the language server puts lenses above, and gives
 * them the server's titles, commands and arguments (the contract's table), on the declaration's line.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { scanLenses } from '../src/lens-scan';

const URI = 'file:///w/a.chain';
const lines = (...text: string[]) => text.join('\n');
const summary = (text: string) => scanLenses(text, URI).map(l => `${l.line}:${l.start}-${l.end} ${l.command.title}`);

describe('the scan', () => {
    test("a chain's, a ptts's and a target's lenses, with the server's commands and arguments", () => {
        const lenses = scanLenses(lines('chain C on P {', '}', '  ptts T { }', 'target lab1 { local }'), URI);
        expect(lenses.map(l => [l.line, l.command.title, l.command.command, l.command.arguments])).toEqual([
            [0, 'Diagram', 'chainlab.openDiagram', [URI, 'chain', 'C']],
            [0, 'Show plan', 'chainlab.openDiagram', [URI, 'plan', 'C']],
            [0, 'Thread lanes', 'chainlab.openDiagram', [URI, 'lanes', 'C']],
            [0, 'Generate C project', 'chainlab.generate', [URI, 'C']],
            [0, 'Run on target', 'chainlab.run', [URI, 'C']],
            [0, 'Calibrate and run', 'chainlab.calibrateAndRun', [URI, 'C']],
            [2, 'Diagram', 'chainlab.openDiagram', [URI, 'ptts', 'T']],
            [2, 'Trigger timeline', 'chainlab.openDiagram', [URI, 'timeline', 'T']],
            [2, 'Analyze latency', 'chainlab.analyze', [URI, 'T']],
            [2, 'Explore offsets', 'chainlab.explore', [URI, 'T']],
            [2, 'Nearby periods', 'chainlab.nearbyPeriods', [URI, 'T']],
            [3, 'Run on lab1', 'chainlab.run', [URI, undefined, 'lab1']],
        ]);
        expect(lenses[6]).toMatchObject({ line: 2, start: 2, end: 8 }); // `ptts T`
    });

    test('no lens for a reference inside a block, a comment or a string', () => {
        const text = lines(
            '// chain Commented { }',
            '/* ptts Hidden {',
            '   } */',
            'ptts P { component A period 10 ms etp chain C }',
            'target t { ssh "chain X" workload \'ptts Y {\' }',
        );
        expect(summary(text).map(s => s.split(' ')[0])).toEqual([
            ...Array(5).fill('3:0-6'),
            '4:0-8', // the target, after the strings
        ]);
    });

    test('an unterminated comment or string hides the rest; braces in them do not count', () => {
        expect(summary(lines('chain A { s: "}" }', 'chain B { }'))).toHaveLength(12);
        expect(summary(lines('/* chain A {', 'chain B { }'))).toEqual([]);
    });

    test('the sample has the 13 lenses the server gives it: 6 per chain, 5 per ptts, 1 per target', () => {
        const text = readFileSync(join(__dirname, '..', '..', 'samples', 'xray.chain'), 'utf-8');
        const lenses = scanLenses(text, URI);
        expect(lenses).toHaveLength(13);
        expect([...new Set(lenses.map(l => `${l.line + 1} ${String(l.command.arguments.at(-1))}`))]).toEqual([
            '267 XRay',
            '356 System',
            '393 here',
            '403 lab1',
        ]);
    });
});
