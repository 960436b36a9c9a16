/**
 * View 2b, the thread lanes as a Gantt chart (thesis Figures 3.3 and 3.4 on a time axis): one lane per pinned
 * thread, each sub-box execution a bar from its predicted start to its predicted end (the plan's list schedule
 * with model costs: estimated_start_ns, estimated_cost_ns), and an arrow per signal from the end of the
 * signalling sub-box to the start of the waiting one. After a run on a target, each lane also shows the sub-boxes
 * as they ran (median start .. median end of the traced iterations) under the predicted bars, on the same axis.
 * Positions are computed here, so this view skips ELK.
 */
import type { SModelElement } from 'sprotty-protocol';
import type { Chain } from '../generated/ast.js';
import { chainInstances } from '../dsl/model-util.js';
import {
    legend,
    messageGraph,
    placedLabel,
    T,
    textWidth,
    type ArrowNode,
    type AxisNode,
    type ChainlabGraph,
    type ChainlabNode,
    type LaneNode,
} from './diagram-elements.js';
import type { MeasuredTasks } from './measured-tasks.js';
import type { PlanJson } from './plan-view.js';
import { axisTicks, formatTime } from './time-format.js';
import type { ViewContext } from './view-context.js';

export const GANTT = { width: 1040, nameWidth: 190, laneHeight: 44, laneGap: 10, axisHeight: 26, barInset: 8 };

export const GANTT_LEGEND = {
    execute: 'sub-box execution: predicted start .. end in one iteration (list schedule, model costs)',
    measured: 'sub-box execution as measured: median start .. median end',
    'arrow-data': 'signal → wait: the data the waiting sub-box reads is ready',
    'arrow-anti': 'signal → wait: a buffer is free to be written again',
    'arrow-reuse': 'signal → wait: arena memory is free to be reused',
};

/** At most this many anti/reuse arrows; more are summed up in the legend. */
export const MAX_RELEASE_ARROWS = 16;

type Span = { start: number; end: number; thread: number };

/** Where the bars sit in a lane: [top, bottom] of the predicted bar and, after a run, of the measured one. */
function barRows(measured: boolean): { laneHeight: number; predicted: [number, number]; measured: [number, number] } {
    if (!measured)
        return {
            laneHeight: GANTT.laneHeight,
            predicted: [GANTT.barInset, GANTT.laneHeight - GANTT.barInset],
            measured: [0, 0],
        };
    return { laneHeight: 62, predicted: [6, 30], measured: [34, 56] };
}

/**
 * `run`: the latest run's measured sub-boxes. `modelPlan`: set when `plan` is the plan that ran rather than the
 * model's own (the run's target has other cores), so the view says which it shows.
 */
export function lanesView(
    chain: Chain,
    plan: PlanJson,
    ctx: ViewContext,
    run?: MeasuredTasks,
    modelPlan?: PlanJson,
): ChainlabGraph {
    if (!plan.threads.length) return messageGraph('lanes', `the plan of ${plan.chain} has no threads`, chain.name);
    const instances = new Map(chainInstances(chain).map(i => [i.name, i]));
    const subBoxes = new Map(plan.sub_boxes.map(s => [s.name, s]));
    const spans = new Map<string, Span>(
        plan.sub_boxes.map(s => [
            s.name,
            { start: s.estimated_start_ns, end: s.estimated_start_ns + s.estimated_cost_ns, thread: s.thread },
        ]),
    );
    const measured = new Map((run?.tasks ?? []).filter(t => subBoxes.has(t.sub_box)).map(t => [t.sub_box, t]));
    const rows = barRows(measured.size > 0);
    const end = Math.max(1, ...[...spans.values()].map(s => s.end), ...[...measured.values()].map(t => t.end_ns));
    const plotWidth = GANTT.width - GANTT.nameWidth;
    const x = (t: number) => GANTT.nameWidth + (t / end) * plotWidth;
    const row = new Map(plan.threads.map((t, i) => [t.index, i]));
    const laneTop = (i: number) => GANTT.axisHeight + i * (rows.laneHeight + GANTT.laneGap);
    const lanes: SModelElement[] = [];
    const arrows: SModelElement[] = [];
    const marks = new Set<keyof typeof GANTT_LEGEND>(['execute']);

    plan.threads.forEach((t, i) => {
        const laneId = ctx.id(`lane.${t.name}`);
        const executed = t.steps.filter(s => s.op === 'execute').map(s => s.sub_box!);
        const busy = executed.reduce((sum, name) => sum + (subBoxes.get(name)?.estimated_cost_ns ?? 0), 0);
        const lane: LaneNode = {
            type: T.lane,
            id: laneId,
            position: { x: 0, y: laneTop(i) },
            size: { width: GANTT.width, height: rows.laneHeight },
            cssClasses: [`thread-${t.index % 8}`],
            title: `${t.name}${t.core !== null ? ` · core ${t.core}` : ''}`,
            subtitle: `${executed.length} sub-box${executed.length === 1 ? '' : 'es'} · busy ${formatTime(busy)}`,
            labelWidth: GANTT.nameWidth,
            children: [],
        };
        for (const name of executed) {
            const sub = subBoxes.get(name);
            if (!sub) continue;
            const left = x(sub.estimated_start_ns);
            const width = Math.max(2, x(sub.estimated_start_ns + sub.estimated_cost_ns) - left);
            const bar: ChainlabNode = {
                type: T.step,
                id: `${laneId}.${name}`,
                cssClasses: ['step-execute'],
                position: { x: left, y: rows.predicted[0] },
                size: { width, height: rows.predicted[1] - rows.predicted[0] },
                tooltip:
                    `${name}: ${sub.box} (${sub.kernel}), slice ${sub.slice + 1} of ${sub.slices}, rows ${sub.rows[0]}..${sub.rows[1]}\n` +
                    `predicted ${formatTime(sub.estimated_start_ns)} .. ${formatTime(sub.estimated_start_ns + sub.estimated_cost_ns)}` +
                    ` (${formatTime(sub.estimated_cost_ns)}, cost from ${sub.cost_source})`,
                // the name only where it fits: a cut-off name reads as another sub-box
                children:
                    textWidth(name) + 4 <= width ? [placedLabel(`${laneId}.${name}.text`, T.text, name, 3, 4)] : [],
            };
            ctx.trace(bar, instances.get(sub.instance));
            lane.children!.push(bar);
            const ran = measured.get(name);
            if (ran) lane.children!.push(measuredBar(`${laneId}.${name}.measured`, name, ran, x, rows.measured));
        }
        lanes.push(lane);
    });

    const lanesBottom = laneTop(plan.threads.length) - GANTT.laneGap;
    if (measured.size) marks.add('measured');
    const { ticks, unit } = axisTicks(0, end, GANTT.nameWidth, plotWidth);
    const axis: AxisNode = {
        type: T.axis,
        id: 'axis',
        position: { x: 0, y: 0 },
        size: { width: GANTT.width, height: GANTT.axisHeight },
        ticks,
        unit,
        gridHeight: lanesBottom - GANTT.axisHeight,
        caption: `time (${unit})`,
    };

    let earlier = 0;
    // buffer-release signals outnumber data signals and would bury them: drawn only while they are few
    const releases = plan.signals.filter(s => s.kind !== 'data').length;
    const drawReleases = releases <= MAX_RELEASE_ARROWS;
    for (const s of plan.signals) {
        if (s.kind !== 'data' && !drawReleases) continue;
        const [from, to] = [spans.get(s.from.sub_box), spans.get(s.to.sub_box)];
        const [fromRow, toRow] = [row.get(s.from.thread), row.get(s.to.thread)];
        if (!from || !to || fromRow === undefined || toRow === undefined) continue;
        // a wait that starts before its signal is sent reads the previous iteration's signal (an initial token)
        if (to.start < from.end - 1) {
            earlier++;
            continue;
        }
        const down = toRow >= fromRow;
        // from and to the predicted bars: the arrows explain the predicted schedule
        const a = { x: x(from.end), y: laneTop(fromRow) + (down ? rows.predicted[1] : rows.predicted[0]) };
        const b = { x: x(to.start), y: laneTop(toRow) + (down ? rows.predicted[0] : rows.predicted[1]) };
        const origin = { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y) };
        const arrow: ArrowNode = {
            type: T.arrow,
            id: `signal.${s.name}`,
            cssClasses: [`arrow-${s.kind}`],
            position: origin,
            size: { width: Math.max(1, Math.abs(a.x - b.x)), height: Math.max(1, Math.abs(a.y - b.y)) },
            from: { x: a.x - origin.x, y: a.y - origin.y },
            to: { x: b.x - origin.x, y: b.y - origin.y },
            kind: s.kind,
            signal: s.name,
            tooltip: `${s.name} (${s.kind}): ${s.from.sub_box} signals, ${s.to.sub_box} waits (${s.buffers.join(', ')})`,
        };
        marks.add(`arrow-${s.kind}`);
        arrows.push(arrow);
    }
    const entries: Array<{ mark: string; text: string }> = [...marks].map(mark => ({
        mark,
        text:
            mark === 'measured' && run
                ? `${GANTT_LEGEND.measured} of ${run.iterations} iterations (${run.scenario} on ${run.target})`
                : GANTT_LEGEND[mark],
    }));
    if (run && modelPlan)
        entries.push({
            mark: 'note',
            text: `the plan as it ran on ${run.target} (${plan.threads.length} thread(s) on its cores); the model's own plan has ${modelPlan.threads.length}`,
        });
    if (!drawReleases)
        entries.push({
            mark: 'note',
            text: `${releases} signal(s) that free a buffer for reuse (anti, reuse) are not drawn`,
        });
    if (earlier)
        entries.push({
            mark: 'note',
            text: `${earlier} signal(s) serve the next iteration (initial tokens) and are not drawn`,
        });
    // drawn in this order: the grid and the arrows under the lanes' (transparent) bodies, so that bars and the
    // label column, which stays at the left edge while the view scrolls, cover them
    const children: SModelElement[] = [
        axis,
        ...arrows,
        ...lanes,
        // from the lanes' left edge, under the label column too: its long lines fit a half-width panel
        legend('legend', entries, 0, lanesBottom + 12),
    ];
    return {
        type: T.graph,
        id: 'root',
        view: 'lanes',
        element: `${plan.chain}${run && modelPlan ? ` as run on ${run.target}` : ''} (${plan.heuristic}, one iteration ${formatTime(end)})`,
        children,
    };
}

/** A sub-box as it ran: median start .. median end of the traced iterations, its times in the tooltip. */
function measuredBar(
    id: string,
    name: string,
    ran: MeasuredTasks['tasks'][number],
    x: (t: number) => number,
    [top, bottom]: [number, number],
): ChainlabNode {
    const left = x(ran.start_ns);
    const width = Math.max(2, x(ran.end_ns) - left);
    return {
        type: T.step,
        id,
        cssClasses: ['step-measured'],
        position: { x: left, y: top },
        size: { width, height: bottom - top },
        tooltip:
            `${name} as measured (${ran.samples} iterations): median ${formatTime(ran.start_ns)} .. ${formatTime(ran.end_ns)}\n` +
            `execution time median ${formatTime(ran.duration_p50_ns)}, p99 ${formatTime(ran.duration_p99_ns)}`,
        children: textWidth(name) + 4 <= width ? [placedLabel(`${id}.text`, T.text, name, 3, 3)] : [],
    };
}
