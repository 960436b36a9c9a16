/** @jsx svg */
/**
 * Views the editing gestures need, kept apart from the look of the diagram (views.tsx): edges with a wide
 * invisible hit area (a 1 px line is too thin to click for Delete) and issue markers that say what is wrong
 * (sprotty's marker is an icon without text; the model is drawn with its errors while it is being edited).
 */
import { injectable } from 'inversify';
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import { IssueMarkerView, type RenderingContext, type SEdgeImpl, type SIssueMarkerImpl } from 'sprotty';
import type { Point } from 'sprotty-protocol';
import { DirectedEdgeView } from './edge-views.js';

/** Width of an edge's invisible hit area, in diagram units. */
export const EDGE_HIT_WIDTH = 8;

@injectable()
export class HitAreaEdgeView extends DirectedEdgeView {
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
        // an outline of the box or port it concerns (the icon alone is small in a zoomed-out diagram), a badge
        // behind the icon so it reads on any theme, and the messages as the tooltip
        const colour =
            severity === 'error'
                ? 'var(--vscode-editorError-foreground, #e51400)'
                : severity === 'warning'
                  ? 'var(--vscode-editorWarning-foreground, #bf8803)'
                  : 'var(--vscode-editorInfo-foreground, #1a85ff)';
        const parent = marker.parent as unknown as { size?: { width: number; height: number } };
        const outline =
            parent.size && parent.size.width > 0 ? (
                <rect
                    class-chainlab-issue-outline={true}
                    x={-1}
                    y={-1}
                    width={parent.size.width + 2}
                    height={parent.size.height + 2}
                    style-fill="none"
                    style-stroke={colour}
                    style-strokeWidth="2px"
                    style-pointerEvents="none"
                />
            ) : undefined;
        const badge = <circle class-chainlab-issue-badge={true} cx={7} cy={8} r={8} style-fill="white" />;
        group.children = [...(outline ? [outline] : []), badge, ...(group.children ?? []), <title>{text}</title>];
        // the icon in the severity's colour (an inline style: the page's CSS may or may not colour it)
        const attrs = { ...(group.data?.attrs ?? {}), 'data-severity': severity, style: `fill: ${colour}` };
        group.data = { ...group.data, attrs };
        return group;
    }
}
