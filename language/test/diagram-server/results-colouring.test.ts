/**
 * Results on the model: the chain and plan views coloured by a result the user picks (`colourBy`), with a key on
 * the root and the value in each node's popup; off by default, and switching it on changes colours only, never a
 * label or a position.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { SModelElement } from 'sprotty-protocol';
import type { ColourBy, MeasuredTask, PlanResult } from '@chainlab/contract';
import { exportIr } from '../../src/ir/ir-export.js';
import { documentExportContext } from '../../src/ir/document-export-context.js';
import { rememberTasks } from '../../src/diagram-server/measured-tasks.js';
import { binsOf, resultValues, withResults, type ColouredNode } from '../../src/diagram-server/results-colouring.js';
import type { ChainlabGraph } from '../../src/diagram-server/diagram-elements.js';
import { popupModel } from '../../src/diagram-server/diagram-popups.js';
import { all, diagram, load, sampleFiles, servicesWithBackend } from './diagram-helpers.js';

const { services, plans } = servicesWithBackend();
let document: Awaited<ReturnType<typeof load>>;
let plan: PlanResult;

beforeAll(async () => {
    document = await load(
        services,
        sampleFiles().find(f => f.endsWith('xray.chain'))!,
    );
    const ir = exportIr(document.parseResult.value, documentExportContext(document.uri));
    plan = (await plans.plan(ir, 'XRay')) as PlanResult;
}, 60_000);

type Placed = ColouredNode & { position?: { x: number; y: number } };
const view = (v: 'chain' | 'plan', colourBy?: ColourBy) =>
    diagram(services, document, { view: v, element: 'XRay', ...(colourBy ? { colourBy } : {}) });
const nodesOf = (graph: SModelElement, type: string) => all(graph).filter(e => e.type === type) as Placed[];
const heat = (n: ColouredNode) => n.cssClasses?.find(c => /^heat-\d$/.test(c));
const texts = (graph: SModelElement) => all(graph).map(e => `${e.id}:${(e as { text?: string }).text ?? ''}`);
const places = (graph: SModelElement) =>
    (all(graph) as Placed[]).filter(e => e.position).map(e => `${e.id}@${e.position!.x},${e.position!.y}`);

describe('colouring by results', () => {
    test('off by default: no key, no heat classes', async () => {
        for (const v of ['chain', 'plan'] as const) {
            const graph = await view(v);
            expect(graph.colouring).toBeUndefined();
            expect(all(graph).some(e => heat(e as ColouredNode))).toBe(false);
        }
    });

    test.each(['share', 'slack', 'memory'] as const)(
        'by %s: every box and sub-box gets one heat class and a popup value; no text or place moves',
        async by => {
            for (const [v, type] of [
                ['chain', 'node:box'],
                ['plan', 'node:subbox'],
            ] as const) {
                const [plain, coloured] = [await view(v), await view(v, by)];
                expect(texts(coloured)).toEqual(texts(plain));
                expect(places(coloured)).toEqual(places(plain));
                const key = coloured.colouring!;
                expect(key.by).toBe(by);
                expect(key.note).toBeUndefined();
                expect(key.bins.length).toBeGreaterThan(0);
                const nodes = nodesOf(coloured, type);
                expect(nodes.length).toBeGreaterThan(0);
                for (const n of nodes) {
                    expect(key.bins.map(b => b.cls)).toContain(heat(n));
                    expect(n.result).toMatch(new RegExp(`^${key.title}: `));
                }
            }
        },
        120_000,
    );

    test('share: the critical sub-boxes carry the latency, the others none', () => {
        const values = resultValues('share', plan);
        for (const s of plan.sub_boxes) expect(values.subBoxes.get(s.name)! > 0).toBe(s.critical);
        const total = [...values.instances.values()].reduce((a, b) => a + b, 0);
        expect(total).toBeGreaterThan(0);
        expect(total).toBeLessThanOrEqual(1.0001); // parallel slices on the path are not counted twice
    });

    test('slack: no slack is the strongest colour, as on the critical path', async () => {
        const graph = await view('plan', 'slack');
        const byName = new Map(plan.sub_boxes.map(s => [s.name, s]));
        for (const n of nodesOf(graph, 'node:subbox')) {
            const name = (n.children!.find(c => c.type === 'label:heading') as { text: string }).text;
            expect(heat(n) === 'heat-4').toBe(byName.get(name)!.slack_ns === 0);
        }
        expect(graph.colouring!.bins[0]).toMatchObject({ cls: 'heat-4', from: 0, to: 0 });
    });

    test('slack: the key reads in one unit, as an axis does', () => {
        const bins = binsOf('slack', [0, 150_000, 1_500_000]);
        expect(bins.map(b => b.text)).toEqual([
            'none (critical)',
            '≤ 0.375 ms',
            '0.375 ms – 0.75 ms',
            '0.75 ms – 1.13 ms',
            '1.13 ms – 1.5 ms',
        ]);
    });

    test('slack: the key and the popups read in the unit the costs are written in', async () => {
        // xray's costs are written in ms and its slack is below 1 ms: the best unit alone would be µs
        const graph = await view('plan', 'slack');
        const ranges = graph.colouring!.bins.slice(1).map(b => b.text);
        expect(ranges.length).toBeGreaterThan(0);
        for (const text of ranges) expect(text).toMatch(/^(≤ )?[\d.]+ ms( – [\d.]+ ms)?$/);
        const slack = nodesOf(graph, 'node:subbox')
            .map(n => n.result!)
            .filter(r => !r.includes('none'));
        expect(slack.length).toBeGreaterThan(0);
        for (const line of slack) expect(line).toMatch(/: [\d.]+ ms$/);
        expect(binsOf('slack', [0, 700_000], 'us')[1].text).toBe('≤ 175 µs');
        expect(binsOf('slack', [0, 700_000], 'ms')[1].text).toBe('≤ 0.175 ms');
        expect(binsOf('slack', [0, 7e10], 'ms')[4].text).toBe('52.5 s – 70 s');
    });

    test('memory: a box is coloured by the bytes of the buffers it writes', () => {
        const values = resultValues('memory', plan);
        for (const b of plan.buffers) expect(values.instances.get(b.producer.instance)).toBeGreaterThanOrEqual(b.bytes);
        const bins = binsOf('memory', [...values.instances.values()]);
        expect(bins.map(b => b.cls)).toEqual(['heat-0', 'heat-1', 'heat-2', 'heat-3', 'heat-4']);
        expect(bins[4].to).toBe(Math.max(...values.instances.values()));
    });

    test('measured: before a run the key says so; after one, measured ÷ calibrated time', async () => {
        const before = await view('plan', 'measured');
        expect(before.colouring!.note).toMatch(/no run yet/);
        expect(before.colouring!.bins).toEqual([]);
        const twiceAsSlow = (s: PlanResult['sub_boxes'][number]): MeasuredTask => ({
            sub_box: s.name,
            thread: s.thread,
            start_ns: s.estimated_start_ns * 2,
            end_ns: (s.estimated_start_ns + s.estimated_cost_ns) * 2,
            duration_p50_ns: s.estimated_cost_ns * (s.instance === 'snr' ? 2 : 1),
            duration_p99_ns: s.estimated_cost_ns * 3,
            samples: 100,
        });
        const uri = document.uri.toString();
        const reply = {
            target: 'lab1',
            scenarios: [{ scenario: 'baseline', completed: 100, tasks: plan.sub_boxes.map(twiceAsSlow) }],
        };
        expect(
            rememberTasks(services.Chain.diagram.MeasuredTasks, 'chainlab/deploy', uri, { chain: 'XRay' }, reply),
        ).toBe(true);
        const graph = await view('chain', 'measured');
        const boxes = nodesOf(graph, 'node:box');
        const snr = boxes.find(b => b.name === 'snr')!;
        expect(heat(snr)).toBe('heat-3'); // 2× the calibrated time: the 1.5–2× bin
        expect(snr.result).toMatch(/2× the calibrated time/);
        for (const b of boxes.filter(b => b.name !== 'snr')) expect(heat(b)).toBe('heat-1'); // as calibrated
    });

    test("a box's popup shows its value (the chain view's popups skip the tooltip)", async () => {
        const graph = await view('chain', 'share');
        const box = nodesOf(graph, 'node:box')[0];
        const popup = popupModel(box, undefined, { markdownOf: () => undefined });
        expect(JSON.stringify(popup)).toContain('share of the end-to-end latency: ');
    });

    test('without a plan the key says why, and nothing is coloured', async () => {
        const box: ColouredNode = { type: 'node:box', id: 'a', name: 'a', children: [] };
        const graph: ChainlabGraph = { type: 'graph', id: 'root', view: 'chain', children: [box] };
        const failing = () => Promise.reject(new Error('the model does not export'));
        await withResults(graph, { by: 'share', plan: failing, run: undefined });
        expect(graph.colouring).toMatchObject({ by: 'share', bins: [], note: 'no plan: the model does not export' });
        expect(heat(box)).toBeUndefined();
        const lanes: ChainlabGraph = { type: 'graph', id: 'root', view: 'lanes', children: [] };
        await withResults(lanes, { by: 'share', plan: failing, run: undefined });
        expect(lanes.colouring).toBeUndefined(); // the lanes are not coloured by results
    });
});
