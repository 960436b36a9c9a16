/** @jsx svg */
/**
 * Directed edges: every edge ends in an arrowhead at its target, and the edges of a plan's sub-box that is
 * hovered or selected are traced (drawn in the focus colour, the other edges dimmed by diagram.css), so that
 * a sub-box's inputs can be followed back to their producers even where several edges run side by side.
 */
import { injectable } from 'inversify';
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import {
    PolylineEdgeView,
    type RenderingContext,
    type SChildElementImpl,
    type SEdgeImpl,
    type SModelElementImpl,
} from 'sprotty';
import type { Point } from 'sprotty-protocol';
import { DIAGRAM_ELEMENT_TYPES as T } from '@chainlab/contract';
import '../css/results.css';

/** The arrowhead's length and half width (model units); its tip stops this short of the target port. */
const HEAD = { length: 9, halfWidth: 4, gap: 1 };

type Marked = SModelElementImpl & { hoverFeedback?: boolean; selected?: boolean };

/** The node an edge end belongs to: the port's parent, or the element itself. */
function nodeOf(end: SModelElementImpl | undefined): Marked | undefined {
    if (!end) return undefined;
    return end.type.startsWith('port') ? (end as SChildElementImpl).parent : end;
}

const marked = (n: Marked | undefined) => n?.hoverFeedback === true || n?.selected === true;

/** A plan sub-box the pointer is over or that is selected: its edges are traced, the others dimmed. */
export function tracedSubBox(root: { children: readonly SModelElementImpl[] }): boolean {
    return root.children.some(c => c.type === T.subBox && marked(c));
}

/** The arrowhead at the end of `segments`, pointing along the last segment of non-zero length. */
export function arrowhead(segments: Point[]): VNode | undefined {
    const tip = segments[segments.length - 1];
    const from = [...segments].reverse().find(p => Math.hypot(p.x - tip.x, p.y - tip.y) > HEAD.length / 2);
    if (!tip || !from) return undefined;
    const len = Math.hypot(tip.x - from.x, tip.y - from.y);
    const [ux, uy] = [(tip.x - from.x) / len, (tip.y - from.y) / len];
    const end = { x: tip.x - ux * HEAD.gap, y: tip.y - uy * HEAD.gap };
    const base = { x: end.x - ux * HEAD.length, y: end.y - uy * HEAD.length };
    const [nx, ny] = [-uy * HEAD.halfWidth, ux * HEAD.halfWidth];
    const points = [end, { x: base.x + nx, y: base.y + ny }, { x: base.x - nx, y: base.y - ny }]
        .map(p => `${p.x.toFixed(1)},${p.y.toFixed(1)}`)
        .join(' ');
    return <polygon class-edge-arrowhead={true} points={points} />;
}

@injectable()
export class DirectedEdgeView extends PolylineEdgeView {
    override render(edge: Readonly<SEdgeImpl>, context: RenderingContext): VNode | undefined {
        const vnode = super.render(edge, context);
        if (!vnode?.data) return vnode;
        const ends = [nodeOf(edge.source), nodeOf(edge.target)];
        // only the plan traces: in the box chain a selected box is being edited, and dimming would distract
        if (ends.some(n => n?.type === T.subBox && marked(n))) (vnode.data.class ??= {})['traced'] = true;
        return vnode;
    }

    protected override renderAdditionals(edge: Readonly<SEdgeImpl>, segments: Point[], context: RenderingContext) {
        const head = segments.length > 1 ? arrowhead(segments) : undefined;
        return [...super.renderAdditionals(edge, segments, context), ...(head ? [head] : [])];
    }
}
