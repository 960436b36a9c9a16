/**
 * The time-scaled views as a modeling engineer reads them: the trigger timeline and the thread lanes (a Gantt
 * chart of the plan's predicted schedule) have a time axis with 1/2/5×10^k ticks in one unit, point-mass
 * output windows are visible ticks, every mark is explained by a legend, executions sit at their predicted
 * start and end, and signal arrows go from the end of the signalling sub-box to the start of the waiting one.
 */
import { describe, expect, test } from 'vitest';
import type { SModelElement } from 'sprotty-protocol';
import type { AxisFields, LaneFields, LegendFields, PlanResult } from '@chainlab/contract';
import { axisTicks, formatAsWritten, formatTime, niceStep } from '../../src/diagram-server/time-format.js';
import { GANTT } from '../../src/diagram-server/lanes-view.js';
import { TIMELINE, TIMELINE_LEGEND } from '../../src/diagram-server/timeline-view.js';
import { all, diagram, load, sampleFiles, servicesWithBackend } from './diagram-helpers.js';

const { services, plans } = servicesWithBackend();

const xray = () => sampleFiles().find(f => f.endsWith('xray.chain'))!;
type Placed = SModelElement & { position: { x: number; y: number }; size: { width: number; height: number } };
const mantissa = (step: number) => +(step / 10 ** Math.floor(Math.log10(step))).toFixed(6);

describe('time formatting and axis ticks (one formatter for every view)', () => {
    test('a value reads in the largest unit it reaches, with 3 significant digits', () => {
        expect(formatTime(0)).toBe('0 ns');
        expect(formatTime(110_200_000)).toBe('110 ms');
        expect(formatTime(923_142_600_000)).toBe('923 s');
        expect(formatTime(999)).toBe('999 ns');
        expect(formatTime(1_500)).toBe('1.5 µs');
        expect(formatTime(280_000)).toBe('280 µs');
        expect(formatTime(1_000_000)).toBe('1 ms');
        expect(formatTime(66_600_000)).toBe('66.6 ms');
        expect(formatTime(2_500_000_000)).toBe('2.5 s');
    });

    test('a time the source wrote reads in its unit (cost 0.6 ms is not 600 µs); from 10 s on in s', () => {
        expect(formatAsWritten(600_000, 'ms')).toBe('0.6 ms');
        expect(formatAsWritten(100_000, 'us')).toBe('100 µs');
        expect(formatAsWritten(923_000_000_000, 'ms')).toBe('923 s');
        expect(formatAsWritten(600_000, undefined)).toBe('600 µs');
    });

    test('ticks keep every digit they need (3 significant digits would write 10.05 s as 10.1 s)', () => {
        const { ticks, unit } = axisTicks(10_000e6, 10_100e6, 0, 800, 2);
        expect(unit).toBe('s');
        expect(ticks.map(t => t.text)).toEqual(['10 s', '10.05 s', '10.1 s']);
    });

    test('tick steps are 1, 2 or 5 × 10^k and give at most the ticks asked for', () => {
        for (const span of [7, 630e6, 1.58e6, 33.3e6, 2e9, 123456]) {
            const step = niceStep(span, 8);
            expect([1, 2, 5]).toContain(mantissa(step));
            expect(span / step).toBeLessThanOrEqual(8);
            expect(span / step).toBeGreaterThan(8 / 5 / 2); // not coarser than needed
        }
        // the window users saw as the single label `0 ms .. 630 ms`
        const { ticks, unit } = axisTicks(0, 630e6, 100, 800);
        expect(unit).toBe('ms');
        expect(ticks.map(t => t.text)).toEqual(['0 ms', '100 ms', '200 ms', '300 ms', '400 ms', '500 ms', '600 ms']);
        expect(ticks[0].x).toBe(100);
        expect(ticks[6].x).toBeCloseTo(100 + (600 / 630) * 800);
    });

    test('an axis labels every tick in one unit', () => {
        const { ticks, unit } = axisTicks(0, 1.58e6, 0, 800);
        expect(unit).toBe('ms');
        expect(ticks.every(t => t.text.endsWith(' ms'))).toBe(true);
        expect(ticks.map(t => t.text)).toContain('0.2 ms');
    });
});

describe('trigger timeline', () => {
    test('axis with nice ticks and grid, visible point windows, a legend of every mark', async () => {
        const document = await load(services, xray());
        const graph = await diagram(services, document, { view: 'timeline', element: 'System' });
        const axis = all(graph).find(e => e.type === 'node:axis') as unknown as Placed & AxisFields;
        expect(axis.ticks.length).toBeGreaterThanOrEqual(4);
        const steps = axis.ticks.slice(1).map((t, i) => t.ns - axis.ticks[i].ns);
        expect(new Set(steps).size).toBe(1);
        expect([1, 2, 5]).toContain(mantissa(steps[0]));
        for (const t of axis.ticks) {
            expect(t.x).toBeGreaterThanOrEqual(TIMELINE.nameWidth);
            expect(t.x).toBeLessThanOrEqual(TIMELINE.width + 0.001);
            expect(t.text.endsWith(` ${axis.unit}`)).toBe(true);
        }
        const lanes = all(graph).filter(e => e.type === 'node:lane') as unknown as Array<Placed & LaneFields>;
        expect(lanes.map(l => l.title)).toEqual(['Sensor', 'Process', 'GPU', 'Wall']);
        // the grid reaches the bottom of the last lane
        const last = lanes.at(-1)!;
        expect(axis.position.y + axis.size.height + axis.gridHeight).toBeCloseTo(last.position.y + last.size.height, 0);
        // Wall's ETP is a point (8 ms): its windows are ticks of at least 2 px, not 0 px boxes
        const wall = all(lanes.at(-1)!).filter(e => e.type === 'node:interval') as unknown as Array<
            Placed & { point?: boolean }
        >;
        expect(wall.length).toBeGreaterThan(0);
        for (const w of wall) {
            expect(w.point).toBe(true);
            expect(w.size.width).toBeGreaterThanOrEqual(2);
        }
        const legend = all(graph).find(e => e.type === 'node:legend') as unknown as LegendFields;
        expect(legend.entries.map(e => e.mark).sort()).toEqual(['interval', 'point', 'split', 'trigger']);
        expect(legend.entries.find(e => e.mark === 'point')!.text).toBe(TIMELINE_LEGEND.point);
    });
});

describe('thread lanes: a Gantt chart of the predicted schedule', () => {
    test('bars at predicted start..end, signal arrows from signal to wait, labels in a fixed column', async () => {
        const document = await load(services, xray());
        const graph = await diagram(services, document, { view: 'lanes', element: 'XRay' });
        const plan = (await plans.plan(
            (await import('../../src/ir/ir-export.js')).exportIr(
                document.parseResult.value,
                (await import('../../src/ir/document-export-context.js')).documentExportContext(document.uri),
            ),
            'XRay',
        )) as PlanResult;
        const end = Math.max(...plan.sub_boxes.map(s => s.estimated_start_ns + s.estimated_cost_ns));
        const x = (t: number) => GANTT.nameWidth + (t / end) * (GANTT.width - GANTT.nameWidth);
        const lanes = all(graph).filter(e => e.type === 'node:lane') as unknown as Array<Placed & LaneFields>;
        expect(lanes).toHaveLength(plan.threads.length);
        for (const lane of lanes) expect(lane.labelWidth).toBe(GANTT.nameWidth);
        const bars = new Map<string, Placed & { laneY: number }>();
        for (const lane of lanes)
            for (const b of all(lane).filter(e => e.type === 'node:step') as Placed[])
                bars.set(b.id.slice(lane.id.length + 1), { ...b, laneY: lane.position.y });
        expect(bars.size).toBe(plan.sub_boxes.length);
        for (const s of plan.sub_boxes) {
            const bar = bars.get(s.name)!;
            expect(bar.position.x).toBeCloseTo(x(s.estimated_start_ns), 3);
            expect(bar.size.width).toBeCloseTo(
                Math.max(2, x(s.estimated_start_ns + s.estimated_cost_ns) - x(s.estimated_start_ns)),
                3,
            );
            expect(lanes[plan.threads.findIndex(t => t.index === s.thread)].position.y).toBe(bar.laneY);
        }
        const arrows = all(graph).filter(e => e.type === 'node:arrow') as unknown as Array<
            Placed & { from: { x: number; y: number }; to: { x: number; y: number }; signal: string }
        >;
        expect(arrows.length).toBeGreaterThan(0);
        const subBox = new Map(plan.sub_boxes.map(s => [s.name, s]));
        for (const a of arrows) {
            const signal = plan.signals.find(s => s.name === a.signal)!;
            const [from, to] = [subBox.get(signal.from.sub_box)!, subBox.get(signal.to.sub_box)!];
            expect(a.position.x + a.from.x).toBeCloseTo(x(from.estimated_start_ns + from.estimated_cost_ns), 3);
            expect(a.position.x + a.to.x).toBeCloseTo(x(to.estimated_start_ns), 3);
            expect(to.estimated_start_ns).toBeGreaterThanOrEqual(from.estimated_start_ns + from.estimated_cost_ns - 1);
        }
        const axis = all(graph).find(e => e.type === 'node:axis') as unknown as AxisFields;
        expect(axis.ticks[0].ns).toBe(0);
        expect(axis.ticks[0].x).toBe(GANTT.nameWidth);
        const legend = all(graph).find(e => e.type === 'node:legend') as unknown as LegendFields;
        expect(legend.entries.map(e => e.mark)).toContain('execute');
        expect(legend.entries.map(e => e.mark)).toContain('arrow-data');
        const skipped = plan.signals.length - arrows.length;
        if (skipped) expect(legend.entries.at(-1)!.text).toContain(`${skipped} signal(s)`);
    });
});

describe('box chain and PTTS view details', () => {
    test('edges label only buffer sizes that differ from the usual one (it is in the popups)', async () => {
        const document = await load(services, xray());
        const graph = await diagram(services, document, { view: 'chain', element: 'XRay' }, false);
        const edges = all(graph).filter(e => e.type === 'edge');
        expect(edges.length).toBeGreaterThan(5);
        const labels = all(graph).filter(e => e.type === 'label:edge') as unknown as Array<{ text: string }>;
        expect(labels.filter(l => l.text === '2 MiB')).toEqual([]);
        expect(labels.length).toBeLessThan(edges.length);
    });

    test('a point-mass ETP draws a visible step in the middle of its sparkline; times read in one formatter', async () => {
        const document = await load(services, xray());
        const graph = await diagram(services, document, { view: 'ptts', element: 'System' }, false);
        const spark = all(graph).find(e => e.id.endsWith('Wall.etp-cdf')) as unknown as {
            points: Array<[number, number]>;
        };
        expect(spark.points).toContainEqual([0.5, 0]);
        expect(spark.points).toContainEqual([0.5, 1]);
        const texts = all(graph)
            .filter(e => e.type.startsWith('label'))
            .map(e => (e as unknown as { text: string }).text);
        expect(texts).toContain('period 16.7 ms · offset 0 ms');
        expect(texts).toContain('etp point 8 ms');
    });
});
