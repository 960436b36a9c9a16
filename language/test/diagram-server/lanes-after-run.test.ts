/**
 * The thread lanes after a run on a target, as a modeling engineer reads them: the view stays the model's own plan
 * until the user picks the measured overlay (the toolbar's `measured`, named after the run); picked, the measured
 * bars sit under the predicted ones on one axis, or, when the run had another plan (a target with fewer cores), on
 * the run's own threads in lanes of their own under the model's, said in the view; an overloaded run (its latency
 * grew through the run) never rescales the axis: its bars are cut at the plan's axis end and a badge says why.
 */
import { beforeAll, describe, expect, test } from 'vitest';
import type { SModelElement } from 'sprotty-protocol';
import type { AxisFields, LaneFields, LegendFields, MeasuredTask, PlanResult } from '@chainlab/contract';
import { exportIr } from '../../src/ir/ir-export.js';
import { documentExportContext } from '../../src/ir/document-export-context.js';
import { GANTT, GANTT_LEGEND } from '../../src/diagram-server/lanes-view.js';
import { MeasuredTaskStore, rememberTasks } from '../../src/diagram-server/measured-tasks.js';
import type { ChainlabGraph } from '../../src/diagram-server/diagram-elements.js';
import { formatTime } from '../../src/diagram-server/time-format.js';
import { all, diagram, load, sampleFiles, servicesWithBackend } from './diagram-helpers.js';

const { services, plans } = servicesWithBackend();
let document: Awaited<ReturnType<typeof load>>;
let plan: PlanResult;
/** The lanes before any run: what the view shows by default after one too. */
let planOnly: ChainlabGraph;

beforeAll(async () => {
    document = await load(
        services,
        sampleFiles().find(f => f.endsWith('xray.chain'))!,
    );
    plan = (await plans.plan(
        exportIr(document.parseResult.value, documentExportContext(document.uri)),
        'XRay',
    )) as PlanResult;
    planOnly = await lanes();
}, 60_000);

type Placed = SModelElement & {
    position: { x: number; y: number };
    size: { width: number; height: number };
    cssClasses?: string[];
};
type Bar = Placed & { clipped?: boolean; tooltip?: string };

const lanes = (showMeasured?: boolean) =>
    diagram(services, document, { view: 'lanes', element: 'XRay', ...(showMeasured ? { showMeasured } : {}) });
const predictedEnd = () => Math.max(...plan.sub_boxes.map(s => s.estimated_start_ns + s.estimated_cost_ns));
const steps = (graph: SModelElement) => all(graph).filter(e => e.type === 'node:step') as Bar[];
const measuredBars = (graph: SModelElement) => steps(graph).filter(s => s.cssClasses?.includes('step-measured'));
const laneNodes = (graph: SModelElement) =>
    all(graph).filter(e => e.type === 'node:lane') as unknown as Array<Placed & LaneFields>;
const legendOf = (graph: SModelElement) =>
    (all(graph).find(e => e.type === 'node:legend') as unknown as LegendFields).entries;
const axisOf = (graph: SModelElement) => all(graph).find(e => e.type === 'node:axis') as unknown as Placed & AxisFields;
const texts = (node: SModelElement) => all(node).map(e => (e as { text?: string }).text ?? '');

/** The tasks of a traced run: each sub-box `slower` times its predicted start and end, `backlog` ns late. */
function tasks(slower: number, backlog = 0, thread?: number): MeasuredTask[] {
    return plan.sub_boxes.map(s => ({
        sub_box: s.name,
        thread: thread ?? s.thread,
        start_ns: Math.round(s.estimated_start_ns * slower + backlog),
        end_ns: Math.round((s.estimated_start_ns + s.estimated_cost_ns) * slower + backlog),
        duration_p50_ns: Math.round(s.estimated_cost_ns * slower),
        duration_p99_ns: Math.round(s.estimated_cost_ns * slower * 1.2),
        samples: 300,
    }));
}

/** Relays a `chainlab/deploy` reply (the backend's deploy/run result) as the language server does. */
function ran(reply: object): void {
    const uri = document.uri.toString();
    expect(rememberTasks(services.Chain.diagram.MeasuredTasks, 'chainlab/deploy', uri, { chain: 'XRay' }, reply)).toBe(
        true,
    );
}

/** What must not change with the overlay: every predicted bar's x and width (the axis is the same). */
const predictedPlaces = (graph: SModelElement) =>
    steps(graph)
        .filter(s => s.cssClasses?.includes('step-execute'))
        .map(s => ({ id: s.id, x: s.position.x, width: s.size.width }));

describe('thread lanes after a run', () => {
    test("by default the view is the model's own plan, as before the run; the root names the run", async () => {
        ran({
            target: 'lab1',
            scenarios: [
                { scenario: 'congested', completed: 300, tasks: tasks(2) },
                { scenario: 'baseline', completed: 300, tasks: tasks(1.5) },
            ],
        });
        const graph = await lanes();
        expect(graph.children).toEqual(planOnly.children);
        expect(measuredBars(graph)).toEqual([]);
        // what the toolbar's `measured` toggle says it would draw
        expect(graph.measuredRun).toEqual({ run: 'baseline on lab1, 300 iterations', overloaded: false });
        expect(planOnly.measuredRun).toBeUndefined();
    });

    test('the overlay, when picked: a measured bar per sub-box under its predicted one, on one axis', async () => {
        ran({
            target: 'lab1',
            scenarios: [
                { scenario: 'congested', completed: 300, tasks: tasks(2) },
                { scenario: 'baseline', completed: 300, tasks: tasks(1.5) },
            ],
        });
        const graph = await lanes(true);
        // a sound run: the axis reaches the measured bars' end
        const end = 1.5 * predictedEnd();
        const x = (t: number) => GANTT.nameWidth + (t / end) * (GANTT.width - GANTT.nameWidth);
        const measured = measuredBars(graph);
        expect(measured).toHaveLength(plan.sub_boxes.length);
        for (const s of plan.sub_boxes) {
            const bar = measured.find(b => b.id.endsWith(`.${s.name}.measured`))!;
            const predicted = steps(graph).find(b => b.id.endsWith(`.${s.name}`))!;
            expect(bar.position.x).toBeCloseTo(x(Math.round(s.estimated_start_ns * 1.5)), 0); // the baseline's
            expect(bar.position.y).toBeGreaterThanOrEqual(predicted.position.y + predicted.size.height); // below it
            expect(bar.clipped).toBe(false);
        }
        expect(laneNodes(graph).map(l => l.title)).toEqual(laneNodes(planOnly).map(l => l.title));
        expect(legendOf(graph).find(e => e.mark === 'measured')!.text).toBe(
            `${GANTT_LEGEND.measured} of 300 iterations (baseline on lab1)`,
        );
        expect(legendOf(graph).some(e => e.mark === 'clipped' || e.text.includes('plan on'))).toBe(false);
        expect(all(graph).some(e => e.id === 'overloaded-badge')).toBe(false);
        // picked off again: the plan alone
        expect((await lanes(false)).children).toEqual(planOnly.children);
    });

    test("an overloaded run keeps the plan's axis: its bars are cut at the axis end, a badge says why", async () => {
        const end = predictedEnd();
        // a backlog: the iterations start later and later, the median ones 60 % of an iteration late
        ran({
            target: 'here',
            scenarios: [{ scenario: 'baseline', completed: 300, overloaded: true, tasks: tasks(1.2, 0.6 * end) }],
        });
        expect((await lanes()).children).toEqual(planOnly.children);
        const graph = await lanes(true);
        expect(graph.measuredRun).toEqual({ run: 'baseline on here, 300 iterations', overloaded: true });
        const axis = axisOf(graph);
        expect(axis.ticks).toEqual(axisOf(planOnly).ticks);
        expect(axis.ticks.at(-1)!.ns).toBeLessThanOrEqual(end);
        expect(predictedPlaces(graph)).toEqual(predictedPlaces(planOnly));
        const measured = measuredBars(graph);
        expect(measured).toHaveLength(plan.sub_boxes.length);
        const cut = measured.filter(b => b.clipped);
        expect(cut.length).toBeGreaterThan(0);
        expect(cut.length).toBeLessThan(measured.length); // the first sub-boxes still end inside
        for (const bar of measured) {
            expect(bar.position.x + bar.size.width).toBeLessThanOrEqual(GANTT.width + 1e-6);
            expect(bar.size.width).toBeGreaterThanOrEqual(2);
        }
        for (const bar of cut) {
            expect(bar.cssClasses).toContain('step-clipped');
            expect(bar.position.x + bar.size.width).toBeCloseTo(GANTT.width, 6);
            expect(bar.tooltip).toMatch(/past the axis end, [\d.]+ ms: cut there/);
        }
        const badge = all(graph).find(e => e.id === 'overloaded-badge') as Placed;
        expect(badge.cssClasses).toContain('overloaded-badge');
        expect(texts(badge)[1]).toBe('overloaded');
        expect(texts(badge).join(' ')).toMatch(/baseline on here fell behind its period/);
        expect(badge.position.y + badge.size.height).toBeLessThanOrEqual(axis.position.y); // above the axis
        const legend = legendOf(graph);
        expect(legend.find(e => e.mark === 'clipped')!.text).toBe(
            `${cut.length} measured bars past the axis end (${formatTime(end)}): cut there`,
        );
    });

    test("a run with another plan (fewer cores): the model's lanes stay, the run's threads get lanes of their own", async () => {
        expect(plan.threads.length).toBeGreaterThan(1);
        const oneThread = {
            ...plan,
            threads: [{ ...plan.threads[0], index: 0, name: 'T0', core: 0 }],
            sub_boxes: plan.sub_boxes.map(s => ({ ...s, thread: 0 })),
        };
        ran({
            target: 'lab1',
            plan: oneThread,
            scenarios: [{ scenario: 'baseline', completed: 300, tasks: tasks(2, 0, 0) }],
        });
        expect((await lanes()).children).toEqual(planOnly.children);
        const graph = await lanes(true);
        const [model, asRun] = [
            laneNodes(graph).filter(l => !l.cssClasses?.includes('lane-as-run')),
            laneNodes(graph).filter(l => l.cssClasses?.includes('lane-as-run')),
        ];
        expect(model.map(l => l.title)).toEqual(laneNodes(planOnly).map(l => l.title));
        expect(model.flatMap(measuredBars)).toEqual([]);
        expect(asRun.map(l => l.title)).toEqual(['T0 as run · core 0']);
        expect(measuredBars(asRun[0])).toHaveLength(plan.sub_boxes.length);
        expect(Math.min(...asRun.map(l => l.position.y))).toBeGreaterThan(Math.max(...model.map(l => l.position.y)));
        // said right above the run's lanes, in the picture
        const heading = all(graph).find(e => e.id === 'ran-plan-heading') as Placed;
        expect(texts(heading).join('')).toBe(
            `the run used a 1-thread plan on lab1 (the model's plan has ${plan.threads.length} threads): ` +
                'its measured bars are on its own threads below',
        );
        expect(heading.position.y).toBeGreaterThan(Math.max(...model.map(l => l.position.y + l.size.height)));
        expect(heading.position.y + heading.size.height).toBeLessThanOrEqual(asRun[0].position.y);
        // the grid reaches the run's lanes too: one axis for both
        const axis = axisOf(graph);
        const last = asRun.at(-1)!;
        expect(axis.position.y + axis.size.height + axis.gridHeight).toBeCloseTo(last.position.y + last.size.height, 0);
    });

    test('a reply without a trace keeps nothing; the overloaded flag is read per scenario', () => {
        const store = new MeasuredTaskStore();
        const untraced = { target: 'here', scenarios: [{ scenario: 'baseline', completed: 10 }] };
        expect(rememberTasks(store, 'chainlab/deploy', 'file:///m.chain', { chain: 'C' }, untraced)).toBe(false);
        expect(rememberTasks(store, 'chainlab/analyze', 'file:///m.chain', { chain: 'C' }, untraced)).toBe(false);
        expect(store.get('file:///m.chain', 'C')).toBeUndefined();
        const traced = (overloaded?: boolean) => ({
            target: 'here',
            scenarios: [{ scenario: 'baseline', completed: 10, overloaded, tasks: tasks(1).slice(0, 1) }],
        });
        rememberTasks(store, 'chainlab/deploy', 'file:///m.chain', { chain: 'C' }, traced(true));
        expect(store.get('file:///m.chain', 'C')!.overloaded).toBe(true);
        rememberTasks(store, 'chainlab/deploy', 'file:///m.chain', { chain: 'C' }, traced());
        expect(store.get('file:///m.chain', 'C')!.overloaded).toBe(false);
    });
});
