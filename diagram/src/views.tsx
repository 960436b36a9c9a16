/** @jsx svg */
/**
 * How each element type of chainlab's diagrams is drawn (SVG via snabbdom). Node groups carry the
 * `sprotty-node` class (tests and the e2e harness count them) and a <title> for the tooltip the server
 * computed (buffer offsets, exact values).
 */
import { injectable } from 'inversify';
import type { VNode } from 'snabbdom';
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
} from 'sprotty';
import type { DiagramView, GraphFields } from '@chainlab/contract';

type Tooltip = { tooltip?: string };

export class SparklineImpl extends SShapeElementImpl {
    points: Array<[number, number]> = [];
}

export class TimelineNodeImpl extends SNodeImpl {
    tooltip?: string;
    splits?: number[];
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
    override render(model: Readonly<ChainlabGraphImpl>, context: RenderingContext): VNode {
        const graph = super.render(model, context);
        if (model.stale) {
            // the text has errors: this is the last good diagram, said on top of it
            graph.children!.push(
                <text
                    class-stale-banner={true}
                    x={12}
                    y={20}
                >{`stale — ${model.staleReason ?? 'the text has errors'}`}</text>,
            );
            (graph.data!.class ??= {})['stale'] = true;
        }
        return graph;
    }
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

/** Labels sit below their ELK position's top edge (SVG text is placed on its baseline). */
@injectable()
export class ChainlabLabelView extends SLabelView {
    override render(label: Readonly<SLabelImpl>, context: RenderingContext): VNode | undefined {
        const vnode = super.render(label, context);
        if (vnode?.data) vnode.data.attrs = { ...(vnode.data.attrs ?? {}), dy: '1em' };
        return vnode;
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
                {title(node.tooltip)}
                {context.renderChildren(node)}
            </g>
        );
    }
}
