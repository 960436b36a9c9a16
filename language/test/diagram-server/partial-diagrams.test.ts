/**
 * A model with linking or validation errors (the state every editing gesture passes through) is still drawn:
 * everything that parsed, laid out by ELK, with the problems as issue markers on the nodes they concern. Only a
 * syntax error keeps the last picture, marked stale.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { SModelElement } from 'sprotty-protocol';
import type { PlanSource } from '../../src/diagram-server/plan-view.js';
import { all, diagram, diagramServices, load, repo } from './diagram-helpers.js';

const MODEL = `platform P { cores 2 }
image F 8 x 8 of u8
box S { out o: F source period 10 ms }
box G { in i: F out o: F kernel gain(2) split rows depends pointwise cost 1 ms }
box K { in i: F kernel sink }
chain C on P {
    s: S
    g: G
    k: K
    s.o -> g.i   g.o -> k.i
    memory reuse
}
`;

// the box chain view never plans; a planner call here would be a bug
const noPlans: PlanSource = {
    plan: () => Promise.reject(new Error('the chain view does not plan')),
};
const path = join(repo, 'samples', 'partial-diagram.chain');

type Marker = SModelElement & { issues: Array<{ message: string; severity: string }> };
function markersOf(element: SModelElement): Marker[] {
    return (element.children ?? []).filter(c => c.type === 'marker') as Marker[];
}
function boxes(graph: SModelElement): Array<SModelElement & { name?: string }> {
    return all(graph).filter(e => e.type === 'node:box');
}

describe('partial diagrams', () => {
    test('an added box with an unconnected input is drawn at once, with an error marker', async () => {
        const services = diagramServices(noPlans);
        const text = MODEL.replace('    k: K\n', '    k: K\n    gain1: G\n');
        const graph = await diagram(services, await load(services, path, text), { view: 'chain' });
        expect(graph.stale).toBeFalsy();
        expect(boxes(graph).map(b => b.name)).toEqual(['s', 'g', 'k', 'gain1']);
        const added = boxes(graph).find(b => b.name === 'gain1')!;
        const issues = [added, ...(added.children ?? [])].flatMap(markersOf).flatMap(m => m.issues);
        expect(
            issues.some(i => i.severity === 'error' && /gain1\.i/.test(i.message)),
            JSON.stringify(issues),
        ).toBe(true);
        expect(graph.palette).toEqual(['S', 'G', 'K']);
        expect(all(graph).filter(e => e.type === 'edge')).toHaveLength(2);
    });

    test('an unresolved box and an unresolved connection end: the rest is drawn, the instance marked', async () => {
        const services = diagramServices(noPlans);
        const text = MODEL.replace('    k: K\n', '    k: K\n    extra: NoSuchBox\n    extra.o -> k.i\n');
        const graph = await diagram(services, await load(services, path, text), { view: 'chain' });
        expect(graph.stale).toBeFalsy();
        const extra = boxes(graph).find(b => b.name === 'extra')!;
        expect(
            markersOf(extra)
                .flatMap(m => m.issues.map(i => i.message))
                .join(),
        ).toMatch(/NoSuchBox/);
        // no edge to a port that does not exist (ELK would throw), the two good ones stay
        expect(all(graph).filter(e => e.type === 'edge')).toHaveLength(2);
        expect(graph.palette).toEqual(['S', 'G', 'K']);
    });

    test('a syntax error keeps the last picture, marked stale', async () => {
        const services = diagramServices(noPlans);
        const good = await diagram(services, await load(services, path, MODEL), { view: 'chain' });
        const broken = await diagram(services, await load(services, path, MODEL.replace('g: G', 'g: G {{')), {
            view: 'chain',
        });
        expect(broken.stale).toBe(true);
        expect(broken.staleReason).toMatch(/syntax error/);
        expect(boxes(broken).map(b => b.name)).toEqual(boxes(good).map(b => b.name));
    });
});
