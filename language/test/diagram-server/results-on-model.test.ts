/**
 * Results drawn on the model by the server: the plan marks the sub-boxes of its critical path and the
 * dependencies between them (and the thread lanes their bars) unless the `showCritical` option is off, which
 * changes no text; every dependency has its own ports, so ELK routes no shared buses; the PTTS end-to-end node
 * carries the analysed CDF with the p99 marked, inside the node.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { SModelElement } from 'sprotty-protocol';
import type { Sparkline } from '../../src/diagram-server/diagram-elements.js';
import { sparklineX } from '../../src/diagram-server/etp-points.js';
import { all, diagram, load, sampleFiles, servicesWithBackend } from './diagram-helpers.js';

const { services } = servicesWithBackend();
let xray: Awaited<ReturnType<typeof load>>;

beforeAll(async () => {
    xray = await load(
        services,
        sampleFiles().find(f => f.endsWith('xray.chain'))!,
    );
}, 60_000);

type El = SModelElement & {
    cssClasses?: string[];
    sourceId?: string;
    targetId?: string;
    text?: string;
    position?: { x: number; y: number };
    size?: { width: number; height: number };
};
const elements = (root: SModelElement) => all(root) as El[];
const critical = (root: SModelElement) => elements(root).filter(e => e.cssClasses?.includes('critical'));

describe('the critical path', () => {
    test('plan: critical sub-boxes and the dependencies between two of them are marked', async () => {
        const plan = await diagram(services, xray, { view: 'plan', element: 'XRay' });
        const subBoxes = critical(plan).filter(e => e.type === 'node:subbox');
        const edges = critical(plan).filter(e => e.type === 'edge:dependency');
        expect(subBoxes.length).toBeGreaterThan(0);
        expect(edges.length).toBeGreaterThan(0);
        const ids = new Set(subBoxes.map(s => s.id));
        for (const e of edges) {
            expect(ids.has(e.sourceId!.replace(/\.out(\.\d+)?$/, '')), e.id).toBe(true);
            expect(ids.has(e.targetId!.replace(/\.in(\.\d+)?$/, '')), e.id).toBe(true);
        }
    });

    test('showCritical off: nothing marked, the same text', async () => {
        const on = await diagram(services, xray, { view: 'plan', element: 'XRay' });
        const off = await diagram(services, xray, { view: 'plan', element: 'XRay', showCritical: false });
        expect(critical(off)).toEqual([]);
        const texts = (root: SModelElement) => elements(root).map(e => e.text ?? '');
        expect(texts(off)).toEqual(texts(on));
        const lanesOff = await diagram(services, xray, { view: 'lanes', element: 'XRay', showCritical: false });
        expect(critical(lanesOff)).toEqual([]);
    });

    test('lanes: the bars of critical sub-boxes are marked', async () => {
        const lanes = await diagram(services, xray, { view: 'lanes', element: 'XRay' });
        const bars = critical(lanes);
        expect(bars.length).toBeGreaterThan(0);
        expect(bars.every(b => b.type === 'node:step' && b.cssClasses!.includes('step-execute'))).toBe(true);
        const marks = (root: SModelElement) =>
            (
                elements(root).find(e => e.type === 'node:legend') as El & { entries: Array<{ mark: string }> }
            ).entries.map(e => e.mark);
        expect(marks(lanes)).toContain('critical');
        const off = await diagram(services, xray, { view: 'lanes', element: 'XRay', showCritical: false });
        expect(marks(off)).not.toContain('critical');
    });
});

describe('plan edges can be traced', () => {
    test('every dependency ends at a port of its own, on both sides', async () => {
        const plan = await diagram(services, xray, { view: 'plan', element: 'XRay' });
        const deps = elements(plan).filter(e => e.type === 'edge:dependency');
        expect(deps.length).toBeGreaterThan(0);
        expect(new Set(deps.map(d => d.targetId)).size).toBe(deps.length);
        expect(new Set(deps.map(d => d.sourceId)).size).toBe(deps.length);
        const ports = new Set(
            elements(plan)
                .filter(e => e.type.startsWith('port'))
                .map(p => p.id),
        );
        for (const d of deps) expect(ports.has(d.sourceId!) && ports.has(d.targetId!), d.id).toBe(true);
    });
});

describe('the PTTS end-to-end node', () => {
    test('carries the analysed CDF with the p99 marked, inside the node', async () => {
        const document = await load(
            services,
            sampleFiles().find(f => f.endsWith('thesis-fig5-2.chain'))!,
        );
        const before = await diagram(services, document, { view: 'ptts', element: 'Fig52' });
        expect(elements(before).find(e => e.id === 'analysis.cdf')).toBeUndefined();
        const distribution: Array<[number, number]> = [
            [40, 0.2],
            [20, 0.5],
            [60, 0.3],
        ];
        services.Chain.diagram.AnalysisResults.set(document.uri.toString(), 'Fig52', {
            distribution,
            mean_ms: 36,
            percentiles: { '50': 20, '90': 60, '99': 60, '99.9': 60 },
            loss_probability: 0,
            requirements: [],
        });
        const after = await diagram(services, document, { view: 'ptts', element: 'Fig52' });
        const node = elements(after).find(e => e.id === 'analysis')!;
        const spark = elements(after).find(e => e.id === 'analysis.cdf') as unknown as Sparkline;
        expect(spark.points.at(-1)).toEqual([1, 1]);
        expect(spark.marks).toEqual([
            sparklineX(
                [...distribution].sort((a, b) => a[0] - b[0]),
                60,
            ),
        ]);
        expect(spark.marks![0]).toBeCloseTo(0.9);
        expect(spark.position.x + spark.size.width).toBeLessThanOrEqual(node.size!.width);
        expect(spark.position.y + spark.size.height).toBeLessThanOrEqual(node.size!.height);
        // below the numbers, not over them
        const p99 = elements(after).find(e => e.id === 'analysis.p99')!;
        expect(spark.position.y).toBeGreaterThanOrEqual((p99.position?.y ?? 0) + (p99.size?.height ?? 0));
    });
});
