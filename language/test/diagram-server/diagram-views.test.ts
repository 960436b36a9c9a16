/**
 * Every view of every sample is generated and laid out with ELK in Node: ids are unique, every edge ends at
 * an element that exists (ports for the box chain), no two nodes overlap, and nodes are traced to the text.
 */
import { describe, expect, test } from 'vitest';
import type { Heuristic } from '@chainlab/contract';
import { isChain, isPtts } from '../../src/generated/ast.js';
import type { ChainlabGraph } from '../../src/diagram-server/diagram-elements.js';
import { all, diagram, load, overlaps, sampleFiles, servicesWithBackend, topNodeBounds } from './diagram-helpers.js';

const { services } = servicesWithBackend();

function checkGraph(graph: ChainlabGraph): void {
    const elements = all(graph);
    const ids = elements.map(e => e.id);
    expect(new Set(ids).size, 'ids are unique').toBe(ids.length);
    const byId = new Map(elements.map(e => [e.id, e]));
    for (const e of elements.filter(e => e.type.startsWith('edge'))) {
        const { sourceId, targetId } = e as unknown as { sourceId: string; targetId: string };
        expect(byId.has(sourceId), `${e.id} source ${sourceId}`).toBe(true);
        expect(byId.has(targetId), `${e.id} target ${targetId}`).toBe(true);
    }
    const nodes = topNodeBounds(graph);
    for (const n of nodes) expect(Number.isFinite(n.x + n.y + n.width + n.height), `${n.id} is laid out`).toBe(true);
    for (let i = 0; i < nodes.length; i++) {
        for (let j = i + 1; j < nodes.length; j++)
            expect(overlaps(nodes[i], nodes[j]), `${nodes[i].id} overlaps ${nodes[j].id}`).toBe(false);
    }
}

describe.each(sampleFiles())('%s', file => {
    test('box chain, PTTS and timeline views lay out cleanly', async () => {
        const document = await load(services, file);
        const model = document.parseResult.value;
        for (const chain of model.elements.filter(isChain)) {
            const graph = await diagram(services, document, { view: 'chain', element: chain.name });
            expect(graph.stale).toBeFalsy();
            checkGraph(graph);
            const boxes = all(graph).filter(e => e.type === 'node:box');
            expect(boxes.length).toBeGreaterThan(0);
            // every box node is traced to its instance in the text, and edges go port to port
            for (const b of boxes) expect((b as { trace?: string }).trace).toMatch(/\?\d+%3A\d+-\d+%3A\d+#/);
            // a port reveals the chain's text (its connection or instance), not the box type's declaration
            const { start, end } = chain.$cstNode!.range;
            for (const p of all(graph).filter(e => e.type.startsWith('port:'))) {
                const line = Number(/\?(\d+)%3A/.exec((p as { trace?: string }).trace ?? '')?.[1]);
                expect(line, `${p.id} is traced into chain ${chain.name}`).toBeGreaterThanOrEqual(start.line);
                expect(line, `${p.id} is traced into chain ${chain.name}`).toBeLessThanOrEqual(end.line);
            }
            for (const e of all(graph).filter(e => e.type === 'edge')) {
                const { sourceId, targetId } = e as unknown as { sourceId: string; targetId: string };
                expect(all(graph).find(x => x.id === sourceId)!.type).toBe('port:out');
                expect(all(graph).find(x => x.id === targetId)!.type).toBe('port:in');
            }
        }
        for (const ptts of model.elements.filter(isPtts)) {
            const graph = await diagram(services, document, { view: 'ptts', element: ptts.name });
            checkGraph(graph);
            expect(all(graph).filter(e => e.type === 'node:component')).toHaveLength(
                ptts.members.filter(m => m.$type === 'Component').length,
            );
            const timeline = await diagram(services, document, { view: 'timeline', element: ptts.name });
            checkGraph(timeline);
            expect(all(timeline).filter(e => e.type === 'node:trigger').length).toBeGreaterThan(0);
        }
    });
});

describe('display options (the webview toolbar)', () => {
    const xray = sampleFiles().find(f => f.endsWith('xray.chain'))!;

    test('ports and costs can be hidden; the ports stay for the edges', async () => {
        const document = await load(services, xray);
        const shown = all(await diagram(services, document, { view: 'chain', element: 'XRay' }, false));
        const hidden = all(
            await diagram(
                services,
                document,
                { view: 'chain', element: 'XRay', showPorts: false, showCosts: false },
                false,
            ),
        );
        const count = (elements: typeof shown, match: (e: (typeof shown)[number]) => boolean) =>
            elements.filter(match).length;
        const portLabel = (e: (typeof shown)[number]) => e.type === 'label:port';
        const costLabel = (e: (typeof shown)[number]) => e.id.endsWith('.cost');
        const port = (e: (typeof shown)[number]) => e.type.startsWith('port:');
        expect(count(shown, portLabel)).toBe(count(shown, port));
        expect(count(shown, costLabel)).toBe(count(shown, e => e.type === 'node:box'));
        expect(count(hidden, portLabel)).toBe(0);
        expect(count(hidden, costLabel)).toBe(0);
        expect(count(hidden, port)).toBe(count(shown, port));
        expect(count(hidden, e => e.type === 'edge')).toBe(count(shown, e => e.type === 'edge'));
    });

    test("a box's cost reads in the unit the source wrote it in (cost 0.6 ms is 0.6 ms, not 600 µs)", async () => {
        const document = await load(services, xray);
        const costs = all(await diagram(services, document, { view: 'chain', element: 'XRay' }, false))
            .filter(e => e.id.endsWith('.cost'))
            .map(e => (e as { text?: string }).text ?? '');
        expect(costs.some(t => t.startsWith('0.6 ms ·'))).toBe(true);
        expect(costs.filter(t => /µs/.test(t))).toEqual([]);
    });

    test('the plan view shows the plan of the heuristic chosen in the toolbar', async () => {
        const document = await load(services, xray);
        const threadsOf = async (heuristic?: Heuristic) => {
            const graph = await diagram(
                services,
                document,
                { view: 'plan', element: 'XRay', ...(heuristic ? { heuristic } : {}) },
                false,
            );
            return Object.fromEntries(
                all(graph)
                    .filter(e => e.type === 'node:subbox')
                    .map(e => [e.id, (e as { cssClasses?: string[] }).cssClasses?.join(' ')]),
            );
        };
        const own = await threadsOf();
        const reduced = await threadsOf('reduced'); // the chain's own heuristic (the default)
        const simple = await threadsOf('simple');
        expect(reduced).toEqual(own);
        expect(simple).not.toEqual(own);
    });
});
