/** @jsx svg */
/**
 * Views the editing gestures need, kept apart from the look of the diagram (views.tsx): edges with a wide
 * invisible hit area (a 1 px line is too thin to click for Delete) and issue markers that say what is wrong
 * (sprotty's marker is an icon without text; the model is drawn with its errors while it is being edited).
 */
import { injectable } from 'inversify';
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import {
    IssueMarkerView,
    PolylineEdgeView,
    type RenderingContext,
    type SEdgeImpl,
    type SIssueMarkerImpl,
} from 'sprotty';
import type { Point } from 'sprotty-protocol';

/** Width of an edge's invisible hit area, in diagram units. */
export const EDGE_HIT_WIDTH = 8;

@injectable()
export class HitAreaEdgeView extends PolylineEdgeView {
    protected override renderAdditionals(edge: Readonly<SEdgeImpl>, segments: Point[], context: RenderingContext) {
        const d = segments.map((p, i) => `${i ? 'L' : 'M'} ${p.x},${p.y}`).join(' ');
        // drawn over the line, transparent: the pointer hits it within EDGE_HIT_WIDTH / 2 of the line
        const hit = (
            <path
                class-chainlab-edge-hit={true}
                d={d}
                style-fill="none"
                style-stroke="transparent"
                style-strokeWidth={`${EDGE_HIT_WIDTH}px`}
                style-pointerEvents="stroke"
            />
        );
        return [...super.renderAdditionals(edge, segments, context), hit];
    }
}

@injectable()
export class TitledIssueMarkerView extends IssueMarkerView {
    override render(marker: SIssueMarkerImpl, context: RenderingContext): VNode {
        const group = super.render(marker, context);
        const severity = this.getMaxSeverity(marker);
        const text = marker.issues.map(i => `${i.severity}: ${i.message}`).join('\n');
        // a badge behind the icon so it reads on any theme, and the messages as the tooltip
        const badge = <circle class-chainlab-issue-badge={true} cx={7} cy={8} r={8} style-fill="white" />;
        group.children = [badge, ...(group.children ?? []), <title>{text}</title>];
        group.data = { ...group.data, attrs: { ...(group.data?.attrs ?? {}), 'data-severity': severity } };
        return group;
    }
}
