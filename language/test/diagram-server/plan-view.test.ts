/**
 * The plan and the thread lanes read a sub-box's cost as the source wrote its box's cost: a slice of `cost 0.6 ms`
 * is 0.15 ms (not 150 µs), a slice of `cost 400 us` stays in µs, through the one time formatter.
 */
import { describe, expect, test } from 'vitest';
import { isChain } from '../../src/generated/ast.js';
import { writtenCostUnits } from '../../src/diagram-server/plan-view.js';
import { all, diagram, load, repo, servicesWithBackend } from './diagram-helpers.js';

const MODEL = `platform P { cores 2 }
image F 64 x 64 of u8
box S { out o: F source period 10 ms }
box G { in i: F out o: F kernel gain(2) split rows depends pointwise cost 0.6 ms }
box H { in i: F out o: F kernel gain(3) split rows depends pointwise cost 400 us }
box K { in i: F kernel sink }
chain C on P {
    s: S
    g: G
    h: H
    k: K
    s.o -> g.i   g.o -> h.i   h.o -> k.i
}
`;

const { services } = servicesWithBackend();

const path = `${repo}/test-results/plan-view-units.chain`;
const texts = (graph: unknown, suffix: string) =>
    all(graph as never)
        .filter(e => e.id.endsWith(suffix))
        .map(e => (e as { text?: string }).text ?? '');

describe('costs in the unit the source wrote', () => {
    test('each instance maps to the unit of its box cost (none for a source without one)', async () => {
        const document = await load(services, path, MODEL);
        const chain = document.parseResult.value.elements.find(isChain)!;
        expect(Object.fromEntries(writtenCostUnits(chain))).toEqual({ s: undefined, g: 'ms', h: 'us', k: undefined });
    });

    test('plan sub-boxes: slices of `cost 0.6 ms` in ms, slices of `cost 400 us` in µs', async () => {
        const document = await load(services, path, MODEL);
        const graph = await diagram(services, document, { view: 'plan', element: 'C' }, false);
        const g = all(graph).filter(e => e.type === 'node:subbox' && /\bg\.\d+$/.test(e.id));
        const h = all(graph).filter(e => e.type === 'node:subbox' && /\bh\.\d+$/.test(e.id));
        expect(g.length).toBeGreaterThan(0);
        expect(h.length).toBeGreaterThan(0);
        for (const n of g) expect(texts(n, '.cost')[0]).toMatch(/^0\.\d+ ms · rows /);
        for (const n of h) expect(texts(n, '.cost')[0]).toMatch(/^\d+ µs · rows /);
    });

    test('the xray plan and its lanes: no cost the source wrote in ms reads in µs', async () => {
        const document = await load(services, `${repo}/samples/xray.chain`);
        const plan = await diagram(services, document, { view: 'plan', element: 'XRay' }, false);
        const costs = texts(plan, '.cost');
        expect(costs.length).toBeGreaterThan(20);
        expect(costs.filter(t => !/^\d+(\.\d+)? ms · rows /.test(t))).toEqual([]);
        expect(costs).toContain('0.15 ms · rows 0..256'); // dark: cost 0.6 ms in 4 slices
        const lanes = await diagram(services, document, { view: 'lanes', element: 'XRay' }, false);
        const bars = all(lanes).filter(e => e.type === 'node:step') as Array<{ tooltip?: string }>;
        expect(bars.length).toBeGreaterThan(20);
        for (const bar of bars) expect(bar.tooltip).toMatch(/\(\d+(\.\d+)? ms, cost from /);
    });
});
