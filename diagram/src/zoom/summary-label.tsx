/** @jsx svg */
/**
 * Smart zoom: when the zoom makes 12 px text smaller than MIN_TEXT_PX on screen, details (kernel, costs,
 * ports, edges) are hidden by CSS and a node's heading becomes its legible summary, at least MIN_TEXT_PX on
 * screen, centred in the node: its name where it fits, else a unique short name (short-names.ts), else
 * nothing, so that a wall of `b…` never hides the drawing's shape. Sources, sinks and the selection keep
 * their whole name, drawn over the node with a halo where it is too small, as landmarks of an overview,
 * wherever that name covers no other name.
 */
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import type { SLabelImpl, SModelElementImpl, SModelRootImpl, SNodeImpl } from 'sprotty';
import { DIAGRAM_ELEMENT_TYPES as T } from '@chainlab/contract';
import { shortNames } from './short-names.js';
import { MIN_TEXT_PX } from './viewport-math.js';

/** The width of an average character of the label font, relative to its size. */
const CHAR_WIDTH = 0.6;

interface Shown {
    text: string;
    callout: boolean;
}
interface Box {
    x0: number;
    y0: number;
    x1: number;
    y1: number;
}

/** Each heading's summary at the zoom it was planned for, by label id (a new model is a new root). */
const plans = new WeakMap<SModelRootImpl, Map<string, Shown>>();

/** A node that orients a reader in an overview: where data enters, where it leaves, what is selected. */
function isLandmark(node: Readonly<SNodeImpl>): boolean {
    const classes = node.cssClasses ?? [];
    return node.selected || classes.includes('kernel-source') || classes.includes('kernel-sink');
}

/** Where `text` centred on `node` lies in the drawing (model units). */
function textBox(node: SNodeImpl, text: string, font: number): Box {
    let x = node.size.width / 2;
    let y = node.size.height / 2;
    for (let e: SModelElementImpl = node; 'position' in e && 'parent' in e; e = (e as SNodeImpl).parent) {
        x += (e as SNodeImpl).position.x;
        y += (e as SNodeImpl).position.y;
    }
    const half = (text.length * font * CHAR_WIDTH) / 2;
    return { x0: x - half, y0: y - font / 2, x1: x + half, y1: y + font / 2 };
}

const meets = (a: Box, b: Box) => a.x0 < b.x1 && b.x0 < a.x1 && a.y0 < b.y1 && b.y0 < a.y1;

/**
 * Plans what every heading of `root` shows at `zoom` (called by the graph's view before its labels render):
 * names and short names inside their nodes first, then the landmarks' names where they cover none of those.
 */
export function planSummaries(root: SModelRootImpl, zoom: number): void {
    const font = MIN_TEXT_PX / zoom;
    const headings: Array<[SLabelImpl, SNodeImpl]> = [];
    for (const element of root.index.all()) {
        const node = (element as SLabelImpl).parent as SNodeImpl | undefined;
        if (element.type === T.heading && node && node.size.width > 0) headings.push([element as SLabelImpl, node]);
    }
    const short = shortNames(headings.map(([label]) => label.text));
    const shown = new Map<string, Shown>();
    const taken: Box[] = [];
    const landmarks: Array<[SLabelImpl, SNodeImpl, string | undefined]> = [];
    for (const [label, node] of headings) {
        // a name taller than its node would run into the nodes above and below it
        const room = font <= node.size.height ? Math.floor((node.size.width - 8) / (font * CHAR_WIDTH)) : 0;
        const fitting = [label.text, short.get(label.text)!].find(text => text.length <= room);
        if (fitting !== label.text && isLandmark(node)) landmarks.push([label, node, fitting]);
        else if (fitting) {
            shown.set(label.id, { text: fitting, callout: false });
            taken.push(textBox(node, fitting, font));
        }
    }
    // the selection first: it is what the user is looking at
    landmarks.sort(([, a], [, b]) => Number(b.selected) - Number(a.selected));
    for (const [label, node, fitting] of landmarks)
        for (const [text, callout] of [[label.text, true] as const, [fitting, false] as const]) {
            const box = text && textBox(node, text, font);
            if (!box || taken.some(t => meets(t, box))) continue;
            shown.set(label.id, { text: text, callout });
            taken.push(box);
            break;
        }
    plans.set(root, shown);
}

/** The full heading stays in the document (hidden by CSS; an SVG export keeps it) next to its summary. */
export function summary(full: VNode, label: Readonly<SLabelImpl>, node: Readonly<SNodeImpl>, zoom: number): VNode {
    const shown = plans.get(label.root)?.get(label.id);
    const { x, y } = label.position;
    return (
        <g class-summary={true}>
            {full}
            {shown ? (
                <text
                    class-sprotty-label={true}
                    class-summary-text={true}
                    class-summary-callout={shown.callout}
                    x={node.size.width / 2 - x}
                    y={node.size.height / 2 - y}
                    style={{
                        fontSize: `${(MIN_TEXT_PX / zoom).toFixed(1)}px`,
                        // the halo: 3 px on screen at any zoom
                        strokeWidth: shown.callout ? `${(3 / zoom).toFixed(1)}px` : '',
                    }}
                    attrs-text-anchor="middle"
                    attrs-dominant-baseline="central"
                >
                    {shown.text}
                </text>
            ) : (
                ''
            )}
        </g>
    );
}
