/**
 * View 2b, the thread lanes as a Gantt chart (thesis Figures 3.3 and 3.4 on a time axis): one lane per pinned
 * thread of the model's plan, each sub-box execution a bar from its predicted start to its predicted end (the
 * plan's list schedule with model costs: estimated_start_ns, estimated_cost_ns), and an arrow per signal from the
 * end of the signalling sub-box to the start of the waiting one. After a run on a target the view still shows
 * the model's plan; the run's measured bars are an overlay the user picks (lanes-measured.ts).
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
import { GANTT, laneRows, timeScale, type LaneRows, type TimeScale } from './lanes-layout.js';
import {
    MEASURED_LEGEND,
    measuredBar,
    measuredLegend,
    measuredOverlay,
    measuredRunFields,
    overloadedBadge,
    ranLanes,
    ranPlanHeading,
    type LanesRun,
    type MeasuredOverlay,
} from './lanes-measured.js';
import { writtenCostUnits, type PlanJson } from './plan-view.js';
import { axisTicks, formatAsWritten, formatTime } from './time-format.js';
import type { ViewContext } from './view-context.js';

export { GANTT } from './lanes-layout.js';
export type { LanesRun } from './lanes-measured.js';

export const GANTT_LEGEND = {
    execute: 'sub-box execution: predicted start .. end in one iteration (list schedule, model costs)',
    critical: 'critical path: the sub-boxes that set the latency (no slack)',
    measured: MEASURED_LEGEND.measured,
    'arrow-data': 'signal → wait: the data the waiting sub-box reads is ready',
    'arrow-anti': 'signal → wait: a buffer is free to be written again',
    'arrow-reuse': 'signal → wait: arena memory is free to be reused',
};

/** At most this many anti/reuse arrows; more are summed up in the legend. */
export const MAX_RELEASE_ARROWS = 16;

type Span = { start: number; end: number; thread: number };
type Entry = { mark: string; text: string };

/** Where the lanes of the model's threads are: their rows, the top of lane i, and the time axis. */
interface LanePlacement {
    rows: LaneRows;
    laneTop(i: number): number;
    scale: TimeScale;
}

/** `run`: the chain's latest run, drawn over the model's plan only where the user picked the overlay. */
export function lanesView(chain: Chain, plan: PlanJson, ctx: ViewContext, run?: LanesRun): ChainlabGraph {
    if (!plan.threads.length) return messageGraph('lanes', `the plan of ${plan.chain} has no threads`, chain.name);
    const spans = new Map<string, Span>(
        plan.sub_boxes.map(s => [
            s.name,
            { start: s.estimated_start_ns, end: s.estimated_start_ns + s.estimated_cost_ns, thread: s.thread },
        ]),
    );
    const predictedEnd = Math.max(1, ...[...spans.values()].map(s => s.end));
    const overlay = measuredOverlay(plan, run, predictedEnd);
    // above the axis, so that it is in view wherever the panel is scrolled to first
    const badge = overlay?.run.overloaded ? overloadedBadge(overlay, 0) : undefined;
    const top = badge ? badge.size!.height + 10 : 0;
    const rows = laneRows((overlay?.inPlace.size ?? 0) > 0);
    const at: LanePlacement = {
        rows,
        laneTop: i => top + GANTT.axisHeight + i * (rows.laneHeight + GANTT.laneGap),
        scale: timeScale(overlay?.end ?? predictedEnd),
    };
    const modelLanes = plan.threads.map(t => threadLane(chain, plan, t, at, ctx, overlay));
    let lanesBottom = at.laneTop(plan.threads.length) - GANTT.laneGap;
    const extra: SModelElement[] = [];
    let clipped = modelLanes.reduce((n, l) => n + l.clipped, 0);
    if (overlay?.ranPlan) {
        const heading = ranPlanHeading(overlay, plan.threads.length, lanesBottom + 2 * GANTT.laneGap);
        const ran = ranLanes(overlay, at.scale, heading.position!.y + heading.size!.height + 4, ctx);
        extra.push(heading, ...ran.lanes);
        clipped += ran.clipped;
        if (ran.lanes.length) lanesBottom = Math.max(...ran.lanes.map(l => l.position!.y + l.size!.height));
    }
    const axis = timeAxis(at.scale, top, lanesBottom);
    const signals = signalArrows(plan, spans, at);
    const critical = modelLanes.some(lane => lane.lane.children?.some(bar => bar.cssClasses?.includes('critical')));
    const entries = legendEntries(signals, overlay, clipped, critical);
    // drawn in this order: the grid and the arrows under the lanes' (transparent) bodies, so that bars and the
    // label column, which stays at the left edge while the view scrolls, cover them
    const children: SModelElement[] = [
        ...(badge ? [badge] : []),
        axis,
        ...signals.arrows,
        ...modelLanes.map(l => l.lane),
        ...extra,
        // from the lanes' left edge, under the label column too: its long lines fit a half-width panel
        legend('legend', entries, 0, lanesBottom + 12),
    ];
    return {
        type: T.graph,
        id: 'root',
        view: 'lanes',
        element: `${plan.chain} (${plan.heuristic}, one iteration ${formatTime(predictedEnd)})`,
        children,
        ...(run ? { measuredRun: measuredRunFields(run.tasks) } : {}),
    };
}

/** The time axis at `top`, its grid down to `bottom` (the last lane's). */
function timeAxis(scale: TimeScale, top: number, bottom: number): AxisNode {
    const { ticks, unit } = axisTicks(0, scale.end, GANTT.nameWidth, GANTT.width - GANTT.nameWidth);
    return {
        type: T.axis,
        id: 'axis',
        position: { x: 0, y: top },
        size: { width: GANTT.width, height: GANTT.axisHeight },
        ticks,
        unit,
        gridHeight: bottom - top - GANTT.axisHeight,
        caption: `time (${unit})`,
    };
}

/** The lane of one thread of the model's plan: its predicted bars and, with the overlay, the measured ones. */
function threadLane(
    chain: Chain,
    plan: PlanJson,
    t: PlanJson['threads'][number],
    at: LanePlacement,
    ctx: ViewContext,
    overlay: MeasuredOverlay | undefined,
): { lane: LaneNode; clipped: number } {
    const instances = new Map(chainInstances(chain).map(i => [i.name, i]));
    const costUnits = writtenCostUnits(chain);
    const subBoxes = new Map(plan.sub_boxes.map(s => [s.name, s]));
    const { rows, scale } = at;
    const laneId = ctx.id(`lane.${t.name}`);
    const executed = t.steps.filter(s => s.op === 'execute').map(s => s.sub_box!);
    const busy = executed.reduce((sum, name) => sum + (subBoxes.get(name)?.estimated_cost_ns ?? 0), 0);
    const children: SModelElement[] = [];
    let clipped = 0;
    for (const name of executed) {
        const sub = subBoxes.get(name);
        if (!sub) continue;
        const left = scale.x(sub.estimated_start_ns);
        const width = Math.max(2, scale.x(sub.estimated_start_ns + sub.estimated_cost_ns) - left);
        const bar: ChainlabNode = {
            type: T.step,
            id: `${laneId}.${name}`,
            cssClasses: [
                'step-execute',
                ...(sub.critical === true && (ctx.options.showCritical ?? true) ? ['critical'] : []),
            ],
            position: { x: left, y: rows.predicted[0] },
            size: { width, height: rows.predicted[1] - rows.predicted[0] },
            tooltip:
                `${name}: ${sub.box} (${sub.kernel}), slice ${sub.slice + 1} of ${sub.slices}, rows ${sub.rows[0]}..${sub.rows[1]}\n` +
                `predicted ${formatTime(sub.estimated_start_ns)} .. ${formatTime(sub.estimated_start_ns + sub.estimated_cost_ns)}` +
                ` (${formatAsWritten(sub.estimated_cost_ns, costUnits.get(sub.instance))}, cost from ${sub.cost_source})`,
            // the name only where it fits: a cut-off name reads as another sub-box
            children: textWidth(name) + 4 <= width ? [placedLabel(`${laneId}.${name}.text`, T.text, name, 3, 4)] : [],
        };
        ctx.trace(bar, instances.get(sub.instance));
        children.push(bar);
        const ran = overlay?.inPlace.get(name);
        if (!ran) continue;
        const measured = measuredBar(`${laneId}.${name}.measured`, name, ran, scale, rows.measured);
        clipped += measured.clipped ? 1 : 0;
        children.push(measured);
    }
    const lane: LaneNode = {
        type: T.lane,
        id: laneId,
        position: { x: 0, y: at.laneTop(plan.threads.indexOf(t)) },
        size: { width: GANTT.width, height: rows.laneHeight },
        cssClasses: [`thread-${t.index % 8}`],
        title: `${t.name}${t.core !== null ? ` · core ${t.core}` : ''}`,
        subtitle: `${executed.length} sub-box${executed.length === 1 ? '' : 'es'} · busy ${formatTime(busy)}`,
        labelWidth: GANTT.nameWidth,
        children,
    };
    return { lane, clipped };
}

interface SignalArrows {
    arrows: ArrowNode[];
    kinds: Set<ArrowNode['kind']>;
    /** Anti and reuse signals left out because there are too many to read; 0 when drawn. */
    releasesLeftOut: number;
    /** Signals that serve the next iteration (initial tokens). */
    earlier: number;
}

/** The signal → wait arrows between the predicted bars: they explain the predicted schedule. */
function signalArrows(plan: PlanJson, spans: Map<string, Span>, at: LanePlacement): SignalArrows {
    const { rows, scale } = at;
    const row = new Map(plan.threads.map((t, i) => [t.index, i]));
    // buffer-release signals outnumber data signals and would bury them: drawn only while they are few
    const releases = plan.signals.filter(s => s.kind !== 'data').length;
    const drawReleases = releases <= MAX_RELEASE_ARROWS;
    const result: SignalArrows = {
        arrows: [],
        kinds: new Set(),
        releasesLeftOut: drawReleases ? 0 : releases,
        earlier: 0,
    };
    for (const s of plan.signals) {
        if (s.kind !== 'data' && !drawReleases) continue;
        const [from, to] = [spans.get(s.from.sub_box), spans.get(s.to.sub_box)];
        const [fromRow, toRow] = [row.get(s.from.thread), row.get(s.to.thread)];
        if (!from || !to || fromRow === undefined || toRow === undefined) continue;
        // a wait that starts before its signal is sent reads the previous iteration's signal (an initial token)
        if (to.start < from.end - 1) {
            result.earlier++;
            continue;
        }
        const down = toRow >= fromRow;
        const a = { x: scale.x(from.end), y: at.laneTop(fromRow) + (down ? rows.predicted[1] : rows.predicted[0]) };
        const b = { x: scale.x(to.start), y: at.laneTop(toRow) + (down ? rows.predicted[0] : rows.predicted[1]) };
        const origin = { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y) };
        result.arrows.push({
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
        });
        result.kinds.add(s.kind);
    }
    return result;
}

/** One line per mark drawn, then the notes: what is not drawn. */
function legendEntries(
    signals: SignalArrows,
    overlay: MeasuredOverlay | undefined,
    clipped: number,
    critical: boolean,
): Entry[] {
    const entries: Entry[] = [{ mark: 'execute', text: GANTT_LEGEND.execute }];
    if (critical) entries.push({ mark: 'critical', text: GANTT_LEGEND.critical });
    if (overlay) entries.push(...measuredLegend(overlay, clipped));
    for (const kind of signals.kinds) entries.push({ mark: `arrow-${kind}`, text: GANTT_LEGEND[`arrow-${kind}`] });
    if (signals.releasesLeftOut)
        entries.push({
            mark: 'note',
            text: `${signals.releasesLeftOut} signal(s) that free a buffer for reuse (anti, reuse) are not drawn`,
        });
    if (signals.earlier)
        entries.push({
            mark: 'note',
            text: `${signals.earlier} signal(s) serve the next iteration (initial tokens) and are not drawn`,
        });
    return entries;
}
