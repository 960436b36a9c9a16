/**
 * One split rule (resolvedSchedule): with `cores 0..1` on a 4-core platform the hover, the IR, the box-chain
 * diagram and the plan diagram all show the two slices the backend's plan makes (the hover used to show the
 * platform's four).
 */
import { describe, expect, test } from 'vitest';
import { join } from 'node:path';
import type { Hover } from 'vscode-languageserver';
import { documentExportContext } from '../../src/ir/document-export-context.js';
import { exportIr } from '../../src/ir/ir-export.js';
import { all, diagram, load, repo, servicesWithBackend } from './diagram-helpers.js';

const { services, plans } = servicesWithBackend();

const model = [
    'platform P { cores 4 }',
    'image F 64 x 64 of u8',
    'box Src { out o: F  source period 10 ms }',
    'box Conv { in i: F  out o: F  kernel convolution(5)  split rows  depends halo 2  cost 1 ms }',
    'box Sink { in i: F  kernel sink }',
    'chain C on P {',
    '    s: Src  c: Conv  k: Sink',
    '    s.o -> c.i  c.o -> k.i',
    '    schedule reduced cores 0..1',
    '}',
].join('\n');

describe('cores 0..1 on a 4-core platform', () => {
    test("hover, IR, box-chain diagram and the backend's plan agree: 2 slices of 32 rows", async () => {
        const document = await load(services, join(repo, 'split-agreement.chain'), model);
        expect(document.diagnostics).toEqual([]);

        const offset = model.indexOf('c: Conv');
        const hover = (await services.Chain.lsp.HoverProvider!.getHoverContent(document, {
            textDocument: { uri: document.uri.toString() },
            position: document.textDocument.positionAt(offset),
        })) as Hover;
        const text = (hover.contents as { value: string }).value;
        expect(text).toContain('split into 2 sub-boxes of up to 32 of 64 rows');
        expect(text).toContain('each reads up to 34 input rows (halo 2)');

        const ir = exportIr(document.parseResult.value, documentExportContext(document.uri));
        expect(ir.chains[0].schedule).toEqual({ heuristic: 'reduced', threads: 2, cores: [0, 1] });

        const chainDiagram = all(await diagram(services, document, { view: 'chain', element: 'C' }, false));
        const labels = chainDiagram.filter(e => e.id.endsWith('.cost')).map(e => (e as { text?: string }).text);
        expect(labels).toContain('1 ms · rows ×2, halo 2');

        const plan = await plans.plan(ir, 'C');
        const slices = plan.sub_boxes.filter(s => s.instance === 'c');
        expect(slices.map(s => s.rows)).toEqual([
            [0, 32],
            [32, 64],
        ]);
        const planDiagram = all(await diagram(services, document, { view: 'plan', element: 'C' }, false));
        expect(planDiagram.filter(e => e.type === 'node:subbox' && e.id.startsWith('c.'))).toHaveLength(2);
    }, 60_000);
});
