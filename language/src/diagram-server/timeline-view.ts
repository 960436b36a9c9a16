/**
 * View 4, the trigger timeline (thesis Figure 5.3): one lane per component over a window of the hyper-period,
 * an arrow per triggering and, per triggering, the interval in which its output container can be produced
 * (trigger + ETP min .. trigger + ETP max), cut by dashed lines where the next component's triggers sample it.
 * Positions are computed here (a time axis is not a graph layout), so this view skips ELK.
 */
import type { SModelElement } from 'sprotty-protocol';
import type { Ptts } from '../generated/ast.js';
import type { IrModel } from '../ir/ir-types.js';
import { pttsComponents } from '../dsl/model-util.js';
import { messageGraph, placedLabel, ms, T, type ChainlabGraph, type ChainlabNode } from './diagram-elements.js';
import { etpPoints } from './etp-points.js';
import type { ViewContext } from './view-context.js';

export const TIMELINE = { width: 960, laneHeight: 56, laneGap: 14, nameWidth: 110, maxTriggersPerLane: 60 };

export interface TimelineNode extends ChainlabNode {
    splits?: number[];
}

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
    if (!(to > from)) return messageGraph('timeline', `the window ${ms(from)} .. ${ms(to)} is empty`, ptts.name);
    const scale = (TIMELINE.width - TIMELINE.nameWidth) / (to - from);
    const x = (t: number) => TIMELINE.nameWidth + (t - from) * scale;
    const asts = new Map(pttsComponents(ptts).map(c => [c.name, c]));
    const children: SModelElement[] = [];

    comps.forEach((c, i) => {
        const laneId = ctx.id(`lane.${c.name}`, asts.get(c.name));
        const lane: ChainlabNode = {
            type: T.lane,
            id: laneId,
            position: { x: 0, y: i * (TIMELINE.laneHeight + TIMELINE.laneGap) },
            size: { width: TIMELINE.width, height: TIMELINE.laneHeight },
            children: [
                placedLabel(`${laneId}.name`, T.heading, c.name, 6, 4),
                placedLabel(`${laneId}.period`, T.text, `T ${ms(c.period_ns)}`, 6, 22),
            ],
        };
        ctx.trace(lane, asts.get(c.name));
        const points = etpPoints(c.etp);
        const next = comps[i + 1];
        for (const t of triggers(c.period_ns, c.offset_ns, from, to)) {
            lane.children!.push({
                type: T.trigger,
                id: `${laneId}.t${t}`,
                position: { x: x(t) - 1, y: 2 },
                size: { width: 2, height: TIMELINE.laneHeight - 4 },
                tooltip: `${c.name} triggered at ${ms(t)}`,
            } as ChainlabNode);
            if (!points) continue;
            const [lo, hi] = [t + points[0][0], t + points[points.length - 1][0]];
            const left = Math.max(x(lo), TIMELINE.nameWidth),
                right = Math.min(x(hi), TIMELINE.width);
            if (right <= left) continue;
            const sampledBy = next
                ? [...triggers(next.period_ns, next.offset_ns, lo, hi + next.period_ns)]
                      .filter(s => s >= lo)
                      .slice(0, 8)
                : [];
            const interval: TimelineNode = {
                type: T.interval,
                id: `${laneId}.p${t}`,
                position: { x: left, y: TIMELINE.laneHeight - 20 },
                size: { width: Math.max(1, right - left), height: 14 },
                splits: sampledBy
                    .filter(s => s < hi)
                    .map(s => x(s) - left)
                    .filter(s => s > 0 && s < right - left),
                tooltip:
                    `triggered at ${ms(t)}: output produced in [${ms(lo)}, ${ms(hi)}]` +
                    (next ? `; read by ${next.name} at ${sampledBy.map(ms).join(', ')}` : ''),
            };
            lane.children!.push(interval);
        }
        if (!points)
            lane.children!.push(
                placedLabel(
                    `${laneId}.unknown`,
                    T.text,
                    'ETP known after the chain is analysed',
                    TIMELINE.nameWidth + 8,
                    TIMELINE.laneHeight - 20,
                ),
            );
        children.push(lane);
    });
    children.push(
        placedLabel(
            'axis',
            T.text,
            `${ms(from)} .. ${ms(to)}`,
            TIMELINE.nameWidth,
            comps.length * (TIMELINE.laneHeight + TIMELINE.laneGap),
        ),
    );
    return { type: T.graph, id: 'root', view: 'timeline', element: ptts.name, children };
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
