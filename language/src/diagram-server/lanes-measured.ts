/**
 * The measured overlay of the thread lanes: the chain's latest run drawn over the model's plan, only when the user
 * picks it (the toolbar's `measured`), so that a run never replaces the plan the model describes. Its bars sit under
 * the predicted ones when the run's plan is the model's; when the run had another plan (a target with fewer cores),
 * the run's threads get lanes of their own under the model's, said in the view. An overloaded run measured a
 * backlog: the axis stays the plan's, its bars are cut at the axis end and a badge says why.
 */
import type { MeasuredRunFields, MeasuredTask, PlanThread } from '@chainlab/contract';
import { LINE_HEIGHT, placedLabel, T, textWidth, type ChainlabNode, type LaneNode } from './diagram-elements.js';
import { GANTT, RAN_LANE_ROWS, type BarRow, type TimeScale } from './lanes-layout.js';
import type { MeasuredTasks } from './measured-tasks.js';
import type { PlanJson } from './plan-view.js';
import { formatTime } from './time-format.js';
import type { ViewContext } from './view-context.js';

export const MEASURED_LEGEND = {
    measured: 'sub-box execution as measured: median start .. median end',
};

/** The narrowest a cut bar is drawn, so that a bar wholly past the axis still shows at its edge. */
const CLIP_STUB = 10;

/** The chain's latest run and how the lanes show it. */
export interface LanesRun {
    tasks: MeasuredTasks;
    /** The user picked the overlay; otherwise the view is the model's plan alone, as before any run. */
    shown: boolean;
    /** The plan that ran, where its sub-boxes ran on other threads than the model's. */
    ranPlan?: PlanJson;
}

export interface MeasuredOverlay {
    run: MeasuredTasks;
    /** Measured bars under their predicted ones, by sub-box (the run's plan is the model's). */
    inPlace: Map<string, MeasuredTask>;
    /** Otherwise the run's threads with the sub-boxes each ran. */
    ranThreads: Array<{ thread: PlanThread; tasks: MeasuredTask[] }>;
    ranPlan?: PlanJson;
    /** Where the time axis ends (ns). */
    end: number;
}

/** The overlay when the user picked it, with the axis it needs; undefined when the view shows the plan alone. */
export function measuredOverlay(
    plan: PlanJson,
    run: LanesRun | undefined,
    predictedEnd: number,
): MeasuredOverlay | undefined {
    if (!run?.shown) return undefined;
    const { tasks: measured, ranPlan } = run;
    const planned = new Set(plan.sub_boxes.map(s => s.name));
    const inPlace = new Map(
        ranPlan ? [] : measured.tasks.filter(t => planned.has(t.sub_box)).map(t => [t.sub_box, t] as const),
    );
    const ranThreads = ranPlan ? threadsAsRun(ranPlan, measured.tasks) : [];
    const drawn = ranPlan ? ranThreads.flatMap(r => r.tasks) : [...inPlace.values()];
    // a backlog grows through an overloaded run: scaled to it, the plan would shrink to a sliver
    const end = measured.overloaded ? predictedEnd : Math.max(predictedEnd, ...drawn.map(t => t.end_ns));
    return { run: measured, inPlace, ranThreads, ranPlan, end };
}

/** Each thread of the plan that ran, with the measured sub-boxes it ran in the order they started. */
function threadsAsRun(ranPlan: PlanJson, tasks: MeasuredTask[]): MeasuredOverlay['ranThreads'] {
    const threadOf = new Map(ranPlan.sub_boxes.map(s => [s.name, s.thread]));
    return ranPlan.threads.map(thread => ({
        thread,
        tasks: tasks
            .filter(t => (threadOf.get(t.sub_box) ?? t.thread) === thread.index)
            .sort((a, b) => a.start_ns - b.start_ns),
    }));
}

/** A sub-box as it ran: median start .. median end of the traced iterations, cut at the axis end. */
export function measuredBar(
    id: string,
    name: string,
    ran: MeasuredTask,
    scale: TimeScale,
    [top, bottom]: BarRow,
): ChainlabNode & { clipped: boolean } {
    const clipped = ran.end_ns > scale.end;
    const right = scale.x(Math.min(ran.end_ns, scale.end));
    const left = Math.min(scale.x(Math.min(ran.start_ns, scale.end)), clipped ? right - CLIP_STUB : Infinity);
    const width = Math.max(2, right - left);
    return {
        type: T.step,
        id,
        cssClasses: clipped ? ['step-measured', 'step-clipped'] : ['step-measured'],
        position: { x: left, y: top },
        size: { width, height: bottom - top },
        clipped,
        tooltip:
            `${name} as measured (${ran.samples} iterations): median ${formatTime(ran.start_ns)} .. ${formatTime(ran.end_ns)}` +
            `${clipped ? ` (past the axis end, ${formatTime(scale.end)}: cut there)` : ''}\n` +
            `execution time median ${formatTime(ran.duration_p50_ns)}, p99 ${formatTime(ran.duration_p99_ns)}`,
        children: textWidth(name) + 4 <= width ? [placedLabel(`${id}.text`, T.text, name, 3, 3)] : [],
    };
}

/** The lanes of the run's own threads, from `top` down: measured bars only, named as run so none is the model's. */
export function ranLanes(
    overlay: MeasuredOverlay,
    scale: TimeScale,
    top: number,
    ctx: ViewContext,
): { lanes: LaneNode[]; clipped: number } {
    let clipped = 0;
    const lanes = overlay.ranThreads.map(({ thread, tasks }, i): LaneNode => {
        const id = ctx.id(`ran.${thread.name}`);
        const bars = tasks.map(t =>
            measuredBar(`${id}.${t.sub_box}.measured`, t.sub_box, t, scale, RAN_LANE_ROWS.measured),
        );
        clipped += bars.filter(b => b.clipped).length;
        return {
            type: T.lane,
            id,
            position: { x: 0, y: top + i * (RAN_LANE_ROWS.laneHeight + GANTT.laneGap) },
            size: { width: GANTT.width, height: RAN_LANE_ROWS.laneHeight },
            cssClasses: [`thread-${thread.index % 8}`, 'lane-as-run'],
            title: `${thread.name} as run${thread.core !== null ? ` · core ${thread.core}` : ''}`,
            subtitle: `on ${overlay.run.target || 'the target'} · ${tasks.length} sub-box${tasks.length === 1 ? '' : 'es'}`,
            labelWidth: GANTT.nameWidth,
            children: bars,
        };
    });
    return { lanes, clipped };
}

/** The line above the run's own lanes: which plan ran, and that the lanes above are the model's. */
export function ranPlanHeading(overlay: MeasuredOverlay, modelThreads: number, y: number): ChainlabNode {
    const text = ranPlanText(overlay, modelThreads);
    return {
        type: T.banner,
        id: 'ran-plan-heading',
        cssClasses: ['ran-plan-heading'],
        position: { x: 0, y },
        size: { width: textWidth(text) + 16, height: LINE_HEIGHT + 8 },
        children: [placedLabel('ran-plan-heading.text', T.heading, text, 8, 4)],
    };
}

function ranPlanText(overlay: MeasuredOverlay, modelThreads: number): string {
    const threads = overlay.ranPlan?.threads.length ?? 0;
    return (
        `the run used a ${threads}-thread plan on ${overlay.run.target || 'its target'} (the model's plan has ` +
        `${modelThreads} threads): its measured bars are on its own threads below`
    );
}

/** The badge of an overloaded run, at `y` above the axis: why the measured bars are cut. */
export function overloadedBadge(overlay: MeasuredOverlay, y: number): ChainlabNode {
    const { run, end } = overlay;
    const latest = run.tasks.reduce((most, t) => Math.max(most, t.end_ns), -Infinity); // runs have 10⁵ tasks and more
    const lines = [
        'overloaded',
        `${run.scenario} on ${run.target || 'the target'} fell behind its period: its latency grew through the run (a backlog)`,
        `measured bars reach ${formatTime(latest)}; the axis stays the plan's ${formatTime(end)}, bars past it are cut`,
    ];
    return {
        type: T.banner,
        id: 'overloaded-badge',
        cssClasses: ['overloaded-badge'],
        position: { x: 0, y },
        size: { width: Math.max(...lines.map(textWidth)) + 16, height: lines.length * LINE_HEIGHT + 10 },
        tooltip: 'An overloaded run measured queueing, not the chain: give it a longer period or more cores.',
        children: lines.map((text, i) =>
            placedLabel(`overloaded-badge.${i}`, i ? T.text : T.heading, text, 8, 5 + i * LINE_HEIGHT),
        ),
    };
}

/** The legend's lines of the overlay: what the measured bars are and the cut ones (the heading says which plan ran). */
export function measuredLegend(overlay: MeasuredOverlay, clipped: number): Array<{ mark: string; text: string }> {
    const { run } = overlay;
    const entries = [
        {
            mark: 'measured',
            text: `${MEASURED_LEGEND.measured} of ${run.iterations} iterations (${run.scenario} on ${run.target})`,
        },
    ];
    if (clipped)
        entries.push({
            mark: 'clipped',
            text: `${clipped} measured bar${clipped === 1 ? '' : 's'} past the axis end (${formatTime(overlay.end)}): cut there`,
        });
    return entries;
}

/** What the root says of the latest run: the toolbar names it in its `measured` toggle. */
export function measuredRunFields(run: MeasuredTasks): MeasuredRunFields {
    return {
        run: `${run.scenario} on ${run.target || 'the target'}, ${run.iterations} iterations`,
        overloaded: run.overloaded,
    };
}
