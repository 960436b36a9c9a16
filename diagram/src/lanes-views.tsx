/** @jsx svg */
/**
 * Views of the time-scaled diagrams (thread lanes as a Gantt chart, the PTTS trigger timeline): lanes with a
 * label column that stays at the left edge while the diagram scrolls, a time axis with ticks and grid, signal
 * arrows, point-mass output windows drawn as ticks, and a legend. Colours come from CSS classes (lanes.css).
 */
import { injectable } from 'inversify';
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import { RenderingContext, SNodeImpl, ShapeView } from 'sprotty';
import type { ArrowFields, AxisFields, AxisTick, IntervalFields, LaneFields, LegendEntry } from '@chainlab/contract';
import { clipMark } from './views.js';

type Tooltip = { tooltip?: string };

export class LaneImpl extends SNodeImpl implements Partial<LaneFields> {
    title?: string;
    subtitle?: string;
    labelWidth?: number;
    tooltip?: string;
}
export class AxisImpl extends SNodeImpl implements Partial<AxisFields> {
    ticks: AxisTick[] = [];
    unit: AxisFields['unit'] = 'ms';
    gridHeight = 0;
    caption?: string;
}
export class ArrowImpl extends SNodeImpl implements Partial<ArrowFields> {
    from = { x: 0, y: 0 };
    to = { x: 0, y: 0 };
    tooltip?: string;
}
export class IntervalImpl extends SNodeImpl implements IntervalFields {
    splits?: number[];
    point?: boolean;
    tooltip?: string;
}
export class LegendImpl extends SNodeImpl {
    entries: LegendEntry[] = [];
}

function title(text: string | undefined): VNode | string {
    return text ? <title>{text}</title> : '';
}

/** How far the model is scrolled right of `x`: the label column moves by that much to stay in view. */
function stickyShift(node: Readonly<SNodeImpl>): number {
    const scroll = (node.root as unknown as { scroll?: { x: number } }).scroll;
    return Math.max(0, (scroll?.x ?? 0) - node.position.x);
}

@injectable()
export class LaneView extends ShapeView {
    render(lane: Readonly<LaneImpl>, context: RenderingContext): VNode | undefined {
        if (!this.isVisible(lane, context)) return undefined;
        const { width, height } = lane.size;
        const labelWidth = lane.labelWidth ?? 0;
        return (
            <g class-sprotty-node={true} class-lane={true} class-selected={lane.selected}>
                <rect class-lane-body={true} x={0} y={0} width={width} height={height} />
                {title(lane.tooltip)}
                {context.renderChildren(lane)}
                <g class-lane-label={true} transform={`translate(${stickyShift(lane)}, 0)`}>
                    <rect class-lane-label-body={true} x={0} y={0} width={labelWidth} height={height} />
                    <text class-lane-title={true} x={8} y={18}>
                        {lane.title ?? ''}
                    </text>
                    <text class-lane-subtitle={true} x={8} y={34}>
                        {lane.subtitle ?? ''}
                    </text>
                </g>
            </g>
        );
    }
}

@injectable()
export class AxisView extends ShapeView {
    render(axis: Readonly<AxisImpl>, context: RenderingContext): VNode | undefined {
        if (!this.isVisible(axis, context)) return undefined;
        const base = axis.size.height - 2;
        const [first, last] = [axis.ticks[0]?.x ?? 0, axis.ticks.at(-1)?.x ?? axis.size.width];
        return (
            <g class-time-axis={true}>
                <text class-axis-caption={true} x={8} y={base - 8}>
                    {axis.caption ?? axis.unit}
                </text>
                <line class-axis-line={true} x1={first} y1={base} x2={Math.max(last, axis.size.width)} y2={base} />
                {...axis.ticks.map(t => (
                    <g class-axis-tick={true}>
                        <line class-axis-grid={true} x1={t.x} y1={base} x2={t.x} y2={base + axis.gridHeight} />
                        <line class-axis-mark={true} x1={t.x} y1={base - 5} x2={t.x} y2={base} />
                        <text class-axis-label={true} x={t.x} y={base - 8} text-anchor="middle">
                            {t.text}
                        </text>
                    </g>
                ))}
            </g>
        );
    }
}

@injectable()
export class ArrowView extends ShapeView {
    render(arrow: Readonly<ArrowImpl & Tooltip>, context: RenderingContext): VNode | undefined {
        if (!this.isVisible(arrow, context)) return undefined;
        const { from, to } = arrow;
        const angle = Math.atan2(to.y - from.y, to.x - from.x);
        const head = [angle - 0.45, angle + 0.45]
            .map(a => `${(to.x - 8 * Math.cos(a)).toFixed(1)},${(to.y - 8 * Math.sin(a)).toFixed(1)}`)
            .join(' ');
        return (
            <g class-signal-arrow={true}>
                <line class-arrow-line={true} x1={from.x} y1={from.y} x2={to.x} y2={to.y} />
                <polygon class-arrow-head={true} points={`${to.x},${to.y} ${head}`} />
                {title(arrow.tooltip)}
            </g>
        );
    }
}

/** A production interval; a point-mass window (point) is a tick mark, never a 0 px box. */
@injectable()
export class IntervalView extends ShapeView {
    render(node: Readonly<IntervalImpl>, context: RenderingContext): VNode | undefined {
        if (!this.isVisible(node, context)) return undefined;
        const { width, height } = node.size;
        return (
            <g class-sprotty-node={true} class-interval={true} class-selected={node.selected}>
                <rect
                    class-interval-body={true}
                    x={0}
                    y={node.point ? -4 : 0}
                    width={width}
                    height={height + (node.point ? 8 : 0)}
                />
                {...(node.splits ?? []).map(x => <line class-split={true} x1={x} y1={-2} x2={x} y2={height + 2} />)}
                {title(node.tooltip)}
            </g>
        );
    }
}

/** One sample of a mark (the same classes the view draws with), 24 px wide. */
function sample(mark: string): VNode | string {
    switch (mark) {
        case 'trigger':
            return <rect class-trigger-mark={true} x={11} y={-6} width={2} height={14} />;
        case 'interval':
            return <rect class-interval-body={true} x={0} y={-4} width={24} height={10} />;
        case 'point':
            return <rect class-interval-body={true} class-interval-point={true} x={10} y={-6} width={3} height={14} />;
        case 'split':
            return <line class-split={true} x1={12} y1={-6} x2={12} y2={8} />;
        case 'execute':
            return <rect class-gantt-bar={true} x={0} y={-4} width={24} height={10} />;
        case 'measured':
            return <rect class-gantt-bar={true} class-measured={true} x={0} y={-4} width={24} height={10} />;
        case 'critical':
            return <rect class-gantt-bar={true} class-legend-critical={true} x={1} y={-3} width={22} height={8} />;
        case 'clipped':
            return (
                <g>
                    <rect class-gantt-bar={true} class-measured={true} x={0} y={-4} width={16} height={10} />
                    <g transform="translate(0, -4)">{clipMark(16, 10)}</g>
                </g>
            );
        default:
            if (mark.startsWith('arrow-')) {
                const arrow: VNode = (
                    <g class-signal-arrow={true}>
                        <line class-arrow-line={true} x1={0} y1={1} x2={20} y2={1} />
                        <polygon class-arrow-head={true} points="24,1 17,-3 17,5" />
                    </g>
                );
                (arrow.data!.class ??= {})[mark] = true; // arrow-data, arrow-anti: the classes the arrows carry
                return arrow;
            }
            return '';
    }
}

@injectable()
export class LegendView extends ShapeView {
    render(legend: Readonly<LegendImpl>, context: RenderingContext): VNode | undefined {
        if (!this.isVisible(legend, context)) return undefined;
        return (
            <g class-legend={true}>
                {...legend.entries.map((e, i) => (
                    <g class-legend-entry={true} transform={`translate(0, ${10 + i * 16})`}>
                        {sample(e.mark)}
                        <text class-legend-text={true} x={32} y={4}>
                            {e.text}
                        </text>
                    </g>
                ))}
            </g>
        );
    }
}
