/**
 * View 4, the trigger timeline (thesis Figure 5.3): one lane per component over a window of the hyper-period,
 * a mark per triggering and, per triggering, the interval in which its output container can be produced
 * (trigger + ETP min .. trigger + ETP max), cut by dashed lines where the next component's triggers sample it.
 * Positions are computed here (a time axis is not a graph layout), so this view skips ELK. A time axis with
 * 1/2/5×10^k ticks and grid sits on top, a legend below says what each mark means.
 */
import type { SModelElement } from 'sprotty-protocol';
import type { Ptts } from '../generated/ast.js';
import type { IrModel } from '../ir/ir-types.js';
import { pttsComponents } from '../dsl/model-util.js';
import {
    legend,
    messageGraph,
    placedLabel,
    T,
    type AxisNode,
    type ChainlabGraph,
    type ChainlabNode,
    type IntervalNode,
    type LaneNode,
} from './diagram-elements.js';
import { etpPoints } from './etp-points.js';
import { axisTicks, formatTime } from './time-format.js';
import type { ViewContext } from './view-context.js';

export const TIMELINE = {
    width: 1040,
    laneHeight: 56,
    laneGap: 10,
    nameWidth: 170,
    axisHeight: 26,
    maxTriggersPerLane: 60,
    /** A point-mass window is a tick this wide (px), not a 0 px box. */
    pointWidth: 3,
};

export const TIMELINE_LEGEND = {
    trigger: 'trigger: the component starts at this instant (offset + k × period)',
    interval: 'output window: trigger + ETP min .. trigger + ETP max',
    point: 'output at a fixed delay (point ETP): trigger + ETP',
    split: 'sampled: the next component triggers here and reads the output',
};

export function timelineView(ir: IrModel, ptts: Ptts, ctx: ViewContext): ChainlabGraph {
    const irPtts = ir.ptts.find(p => p.name === ptts.name);
    if (!irPtts || irPtts.components.length === 0)
        return messageGraph('timeline', `ptts ${ptts.name} has no components`, ptts.name);
    const comps = irPtts.components;
    const [from, to] =
        ctx.options.window ??
        defaultWindow(
            comps.map(c => c.period_ns),
            comps.map(c => c.offset_ns),
        );
    if (!(to > from))
        return messageGraph('timeline', `the window ${formatTime(from)} .. ${formatTime(to)} is empty`, ptts.name);
    const plotWidth = TIMELINE.width - TIMELINE.nameWidth;
    const scale = plotWidth / (to - from);
    const x = (t: number) => TIMELINE.nameWidth + (t - from) * scale;
    const asts = new Map(pttsComponents(ptts).map(c => [c.name, c]));
    const children: SModelElement[] = [];
    const marks = new Set<keyof typeof TIMELINE_LEGEND>(['trigger']);
    const laneTop = (i: number) => TIMELINE.axisHeight + i * (TIMELINE.laneHeight + TIMELINE.laneGap);

    comps.forEach((c, i) => {
        const laneId = ctx.id(`lane.${c.name}`, asts.get(c.name));
        const lane: LaneNode = {
            type: T.lane,
            id: laneId,
            position: { x: 0, y: laneTop(i) },
            size: { width: TIMELINE.width, height: TIMELINE.laneHeight },
            title: c.name,
            subtitle: `every ${formatTime(c.period_ns)}${c.offset_ns ? `, offset ${formatTime(c.offset_ns)}` : ''}`,
            labelWidth: TIMELINE.nameWidth,
            children: [],
        };
        ctx.trace(lane, asts.get(c.name));
        const points = etpPoints(c.etp);
        const next = comps[i + 1];
        for (const t of triggers(c.period_ns, c.offset_ns, from, to)) {
            lane.children!.push({
                type: T.trigger,
                id: `${laneId}.t${t}`,
                cssClasses: ['trigger'],
                position: { x: x(t) - 1, y: 2 },
                size: { width: 2, height: TIMELINE.laneHeight - 4 },
                tooltip: `${c.name} triggered at ${formatTime(t)}`,
            } as ChainlabNode);
            if (!points) continue;
            const interval = outputWindow(laneId, c.name, t, points, next, x);
            if (!interval) continue;
            marks.add(interval.point ? 'point' : 'interval');
            if (interval.splits?.length) marks.add('split');
            lane.children!.push(interval);
        }
        if (!points)
            lane.children!.push(
                placedLabel(
                    `${laneId}.unknown`,
                    T.text,
                    'output window known after the chain is analysed (etp chain)',
                    TIMELINE.nameWidth + 8,
                    TIMELINE.laneHeight - 22,
                ),
            );
        children.push(lane);
    });
    const lanesBottom = laneTop(comps.length) - TIMELINE.laneGap;
    const { ticks, unit } = axisTicks(from, to, TIMELINE.nameWidth, plotWidth);
    const axis: AxisNode = {
        type: T.axis,
        id: 'axis',
        position: { x: 0, y: 0 },
        size: { width: TIMELINE.width, height: TIMELINE.axisHeight },
        ticks,
        unit,
        gridHeight: lanesBottom - TIMELINE.axisHeight,
        caption: `time (${unit})`,
    };
    children.unshift(axis); // under the lanes' transparent bodies: the label column covers its grid
    children.push(
        legend(
            'legend',
            [...marks].map(mark => ({ mark, text: TIMELINE_LEGEND[mark] })),
            0, // from the lanes' left edge, as in the thread lanes
            lanesBottom + 12,
        ),
    );
    return { type: T.graph, id: 'root', view: 'timeline', element: ptts.name, children };
}

/** The window in which the output of the triggering at `t` is produced, clipped to the plot; a tick for a point. */
function outputWindow(
    laneId: string,
    name: string,
    t: number,
    points: Array<[number, number]>,
    next: { name: string; period_ns: number; offset_ns: number } | undefined,
    x: (t: number) => number,
): IntervalNode | undefined {
    const [lo, hi] = [t + points[0][0], t + points[points.length - 1][0]];
    const point = x(hi) - x(lo) < TIMELINE.pointWidth;
    const [left, right] = point
        ? [x(lo) - TIMELINE.pointWidth / 2, x(lo) + TIMELINE.pointWidth / 2]
        : [Math.max(x(lo), TIMELINE.nameWidth), Math.min(x(hi), TIMELINE.width)];
    if (right <= TIMELINE.nameWidth || left >= TIMELINE.width || right <= left) return undefined;
    const sampledBy = next
        ? [...triggers(next.period_ns, next.offset_ns, lo, hi + next.period_ns)].filter(s => s >= lo).slice(0, 8)
        : [];
    return {
        type: T.interval,
        id: `${laneId}.p${t}`,
        cssClasses: point ? ['interval-point'] : [],
        position: { x: left, y: TIMELINE.laneHeight - 22 },
        size: { width: right - left, height: 16 },
        point,
        splits: point
            ? []
            : sampledBy
                  .filter(s => s < hi)
                  .map(s => x(s) - left)
                  .filter(s => s > 0 && s < right - left),
        tooltip:
            (point
                ? `${name} triggered at ${formatTime(t)}: output at ${formatTime(lo)}`
                : `${name} triggered at ${formatTime(t)}: output produced in [${formatTime(lo)}, ${formatTime(hi)}]`) +
            (next ? `; read by ${next.name} at ${sampledBy.map(formatTime).join(', ')}` : ''),
    };
}

/** Trigger instants offset + k·period inside [from, to], at most maxTriggersPerLane of them. */
export function* triggers(period: number, offset: number, from: number, to: number): Generator<number> {
    if (period <= 0) return;
    let k = Math.max(0, Math.ceil((from - offset) / period));
    for (let n = 0; n < TIMELINE.maxTriggersPerLane; n++, k++) {
        const t = offset + k * period;
        if (t > to) return;
        yield t;
    }
}

/** Three periods of the slowest component after the last offset: enough to see the pattern. */
export function defaultWindow(periods: number[], offsets: number[]): [number, number] {
    return [0, Math.max(...offsets) + 3 * Math.max(...periods)];
}
