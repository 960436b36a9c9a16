/**
 * The Sprotty model elements of chainlab's diagrams: their type strings (shared with the webview, which
 * binds one view per type) and small builders. Sizes are computed here because the server lays the
 * diagram out (ELK) without measuring text in a browser: a fixed-width estimate is enough for 12 px labels.
 */
import type { SEdge, SGraph, SLabel, SModelElement, SNode, SPort } from 'sprotty-protocol';
import {
    DIAGRAM_ELEMENT_TYPES,
    DIAGRAM_VIEWS,
    type ArrowFields,
    type AxisFields,
    type DiagramView,
    type GraphFields,
    type IntervalFields,
    type LaneFields,
    type LegendFields,
} from '@chainlab/contract';

export type { DiagramView } from '@chainlab/contract';

export const DIAGRAM_TYPE = 'chainlab-diagram';

/** The views a diagram can show; chosen by the `view` option of the request. */
export const VIEWS = DIAGRAM_VIEWS;

/** The element types (contract/schemas/diagram.schema.json), shared with the webview. */
export const T = DIAGRAM_ELEMENT_TYPES;

/** Extra fields of the root: which view, whether it shows an older model while the text has errors, the palette. */
export interface ChainlabGraph extends SGraph, GraphFields {
    view: DiagramView;
}

/**
 * A node with a tooltip (shown by the browser on hover: buffer offsets, exact values) and, for box instances, the name
 * edits use.
 */
export interface ChainlabNode extends SNode {
    tooltip?: string;
    name?: string;
}

/** A port with the name edits use (`instance.port`). */
export interface ChainlabPort extends SPort {
    name?: string;
}

/** A distribution drawn inside a node: points normalised to 0..1 on both axes. */
export interface Sparkline extends SModelElement {
    type: typeof T.sparkline;
    points: Array<[number, number]>;
    /** x positions (0..1) of dashed vertical markers, e.g. the p99 of an analysed distribution. */
    marks?: number[];
    position: { x: number; y: number };
    size: { width: number; height: number };
}

export const CHAR_WIDTH = 7;
export const LINE_HEIGHT = 16;
export const PORT_SIZE = 10;

export function textWidth(text: string): number {
    return Math.ceil(text.length * CHAR_WIDTH) + 4;
}

export function label(id: string, type: string, text: string): SLabel {
    return { type, id, text, size: { width: textWidth(text), height: LINE_HEIGHT } };
}

/** A label at a fixed position (views that are not laid out by ELK). */
export function placedLabel(id: string, type: string, text: string, x: number, y: number): SLabel {
    return { ...label(id, type, text), position: { x, y } };
}

export function port(id: string, type: typeof T.inPort | typeof T.outPort, text?: string, name?: string): ChainlabPort {
    return {
        type,
        id,
        size: { width: PORT_SIZE, height: PORT_SIZE },
        name,
        children: text ? [label(`${id}.label`, T.portLabel, text)] : [],
    };
}

export function edge(id: string, type: string, sourceId: string, targetId: string, text?: string): SEdge {
    return { type, id, sourceId, targetId, children: text ? [label(`${id}.label`, T.edgeLabel, text)] : [] };
}

/** A node sized to hold its labels stacked (ELK's label placement stacks them in the top cell). */
export function node(
    id: string,
    type: string,
    labels: SLabel[],
    extra: Partial<ChainlabNode> = {},
    minHeight = 0,
    minWidth = 90,
): ChainlabNode {
    const width = Math.max(minWidth, ...labels.map(l => (l.size?.width ?? 0) + 16));
    const height = Math.max(minHeight, labels.length * LINE_HEIGHT + 16);
    return { type, id, size: { width, height }, children: [...labels], ...extra };
}

/** The one-node diagram shown when there is nothing to draw (no chain, no ptts, the backend failed). */
export function messageGraph(view: DiagramView, text: string, element?: string): ChainlabGraph {
    return {
        type: T.graph,
        id: 'root',
        view,
        element,
        children: [node('message', T.banner, [label('message.text', T.text, text)])],
    };
}

/** A byte count as a short edge label ("2 MiB"). */
export function shortBytes(bytes: number): string {
    for (const [unit, factor] of [
        ['GiB', 2 ** 30],
        ['MiB', 2 ** 20],
        ['KiB', 2 ** 10],
    ] as const) {
        if (bytes >= factor) return `${+(bytes / factor).toFixed(2)} ${unit}`;
    }
    return `${bytes} B`;
}

/** Elements placed by their view builder (timeline, lanes): the contract's fields on a Sprotty node. */
export type LaneNode = ChainlabNode & LaneFields;
export type IntervalNode = ChainlabNode & IntervalFields;
export type AxisNode = ChainlabNode & AxisFields;
export type ArrowNode = ChainlabNode & ArrowFields;
export type LegendNode = ChainlabNode & LegendFields;

/** A legend under a view: one line per mark, so the meaning of a mark is in the picture, not in tooltips. */
export function legend(id: string, entries: LegendFields['entries'], x: number, y: number): LegendNode {
    const width = Math.max(...entries.map(e => textWidth(e.text))) + 40;
    return {
        type: DIAGRAM_ELEMENT_TYPES.legend,
        id,
        position: { x, y },
        size: { width, height: entries.length * LINE_HEIGHT + 8 },
        entries,
    };
}
