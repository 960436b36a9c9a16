/** @jsx svg */
/**
 * How each element type of chainlab's diagrams is drawn (SVG via snabbdom). Node groups carry the
 * `sprotty-node` class (tests and the e2e harness count them) and a <title> for the tooltip the server
 * computed (buffer offsets, exact values).
 */
import { inject, injectable } from 'inversify';
import { h, type VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import {
    IViewArgs,
    RenderingContext,
    SGraphImpl,
    SGraphView,
    SLabelImpl,
    SLabelView,
    SNodeImpl,
    SShapeElementImpl,
    ShapeView,
    SPortImpl,
    TYPES,
    type ViewerOptions,
} from 'sprotty';
import { DIAGRAM_ELEMENT_TYPES as T, type DiagramView, type GraphFields } from '@chainlab/contract';
import { READABLE_ZOOM } from './zoom/viewport-math.js';
import { planSummaries, summary } from './zoom/summary-label.js';
import { minimap } from './zoom/minimap.js';
import { panelKey } from './panel-key.js';
import { cornerBox } from './zoom/overlay-room.js';
import { visibleCanvas } from './zoom/canvas.js';
import { tracedSubBox } from './edge-views.js';

type Tooltip = { tooltip?: string };

export class SparklineImpl extends SShapeElementImpl {
    points: Array<[number, number]> = [];
    /** x (0..1) of dashed markers such as an analysed distribution's p99. */
    marks?: number[];
}

export class TimelineNodeImpl extends SNodeImpl {
    tooltip?: string;
    splits?: number[];
    /** A measured bar that runs past the end of the time axis, cut there (an overloaded run). */
    clipped?: boolean;
}

/** The root with the contract's graph fields (contract/schemas/diagram.schema.json). */
export class ChainlabGraphImpl extends SGraphImpl implements Partial<GraphFields> {
    view?: DiagramView;
    element?: string;
    stale?: boolean;
    staleReason?: string;
    palette?: string[];
}

function title(text: string | undefined): VNode | string {
    return text ? <title>{text}</title> : '';
}

@injectable()
export class ChainlabGraphView extends SGraphView {
    @inject(TYPES.ViewerOptions) protected viewerOptions!: ViewerOptions;

    override render(model: Readonly<ChainlabGraphImpl>, context: RenderingContext): VNode {
        if (model.zoom < READABLE_ZOOM) planSummaries(model, model.zoom);
        const graph = super.render(model, context);
        const classes = (graph.data!.class ??= {});
        // smart zoom: below readable zoom the details collapse and names grow (see ChainlabLabelView)
        classes['zoom-summary'] = model.zoom < READABLE_ZOOM;
        // a hovered or selected plan sub-box: its edges are traced, the others dimmed (edge-views.tsx)
        classes['tracing'] = tracedSubBox(model);
        // only in the panel: the hidden rendering, which an SVG export copies, has no overview
        if (context.targetKind === 'main') {
            const key = panelKey(model, this.viewerOptions.baseDiv);
            const canvas = visibleCanvas(this.viewerOptions.baseDiv, model);
            const keyBoxes = key ? [cornerBox(key.overlay.corner, key.overlay, canvas)] : [];
            const overview = minimap(model, this.viewerOptions.baseDiv, keyBoxes);
            if (overview) graph.children!.push(overview);
            if (key) graph.children!.push(key.vnode);
        }
        if (model.stale) {
            classes['stale'] = true;
            graph.children!.push(staleBanner(model.staleReason ?? 'the text has errors'));
        }
        return graph;
    }
}

/**
 * The text has errors: this is the last good diagram, said above it in HTML (a foreignObject outside the
 * zoomed group) in a strip the stylesheet reserves above the drawing (`.stale`), so it covers no node. It is
 * one line there; a click unfolds the whole reason, wrapped inside the panel, and folds it again.
 */
/** The height of the strip above a stale drawing (diagram.css reserves the same). */
const STALE_STRIP = 30;

function staleBanner(reason: string): VNode {
    const toggle = (event: Event) => {
        event.stopPropagation();
        (event.currentTarget as HTMLElement).classList.toggle('unfolded');
    };
    return (
        <foreignObject class-stale-banner-host={true} x={0} y={-STALE_STRIP} width="100%" height="100%">
            {h(
                'div.stale-banner',
                {
                    attrs: { role: 'button', tabindex: '0', title: reason },
                    on: { click: toggle, mousedown: (e: Event) => e.stopPropagation() },
                },
                [h('strong', 'stale'), h('span.reason', ` — ${reason}`)],
            )}
        </foreignObject>
    );
}
@injectable()
export class BoxNodeView extends ShapeView {
    render(node: Readonly<SNodeImpl & Tooltip>, context: RenderingContext): VNode | undefined {
        if (!this.isVisible(node, context)) return undefined;
        return (
            <g class-sprotty-node={true} class-selected={node.selected} class-mouseover={node.hoverFeedback}>
                <rect
                    class-node-body={true}
                    x={0}
                    y={0}
                    rx={5}
                    ry={5}
                    width={Math.max(node.size.width, 0)}
                    height={Math.max(node.size.height, 0)}
                />
                {title(node.tooltip)}
                {context.renderChildren(node)}
            </g>
        );
    }
}

@injectable()
export class PortView extends ShapeView {
    render(port: Readonly<SPortImpl>, context: RenderingContext): VNode | undefined {
        if (!this.isVisible(port, context)) return undefined;
        return (
            <g class-sprotty-port={true} class-selected={port.selected}>
                <rect x={0} y={0} width={port.size.width} height={port.size.height} />
                {context.renderChildren(port)}
            </g>
        );
    }
}

/**
 * Labels sit below their ELK position's top edge (SVG text is placed on its baseline). Zoomed out past
 * readable text, a node's heading becomes its summary (zoom/summary-label.tsx); zooming back in restores it.
 */
@injectable()
export class ChainlabLabelView extends SLabelView {
    override render(label: Readonly<SLabelImpl>, context: RenderingContext): VNode | undefined {
        const vnode = super.render(label, context);
        if (!vnode?.data) return vnode;
        (vnode.data.class ??= {})[label.type === T.heading ? 'heading' : 'detail'] = true;
        vnode.data.attrs = { ...(vnode.data.attrs ?? {}), dy: '1em' };
        const zoom = (label.root as unknown as { zoom?: number }).zoom ?? 1;
        const parent = label.parent as SNodeImpl;
        if (zoom >= READABLE_ZOOM || label.type !== T.heading || !(parent.size?.width > 0)) return vnode;
        return summary(vnode, label, parent, zoom);
    }
}

@injectable()
export class SparklineView extends ShapeView {
    render(spark: Readonly<SparklineImpl>, context: RenderingContext): VNode | undefined {
        if (!this.isVisible(spark, context)) return undefined;
        const { width, height } = spark.size;
        const path = spark.points
            .map(([x, y], i) => `${i ? 'L' : 'M'}${(x * width).toFixed(1)},${((1 - y) * height).toFixed(1)}`)
            .join(' ');
        return (
            <g class-sparkline={true}>
                <rect class-sparkline-frame={true} x={0} y={0} width={width} height={height} />
                <path d={path} />
                {...(spark.marks ?? []).map(x => (
                    <line class-sparkline-mark={true} x1={x * width} y1={0} x2={x * width} y2={height} />
                ))}
            </g>
        );
    }
}

/** Lanes, triggers and production intervals of the timeline and thread-lane views. */
@injectable()
export class TimelineNodeView extends ShapeView {
    render(node: Readonly<TimelineNodeImpl>, context: RenderingContext, _args?: IViewArgs): VNode | undefined {
        if (!this.isVisible(node, context)) return undefined;
        const { width, height } = node.size;
        return (
            <g class-sprotty-node={true} class-selected={node.selected}>
                <rect class-node-body={true} x={0} y={0} width={width} height={height} />
                {...(node.splits ?? []).map(x => <line class-split={true} x1={x} y1={-2} x2={x} y2={height + 2} />)}
                {node.clipped ? clipMark(width, height) : ''}
                {title(node.tooltip)}
                {context.renderChildren(node)}
            </g>
        );
    }
}

/** A bar cut at the axis end: a torn right edge and an arrowhead past it, saying that the bar goes on. */
export function clipMark(width: number, height: number): VNode {
    const zigzag = [0, 1, 2, 3, 4].map(i => `${width - (i % 2 ? 4 : 0)},${(i * height) / 4}`).join(' ');
    const middle = height / 2;
    return (
        <g class-clip-mark={true}>
            <polyline class-clip-edge={true} points={zigzag} />
            <polygon
                class-clip-arrow={true}
                points={`${width + 2},${middle - 5} ${width + 9},${middle} ${width + 2},${middle + 5}`}
            />
        </g>
    );
}
