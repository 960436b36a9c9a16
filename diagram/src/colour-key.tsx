/** @jsx svg */
/**
 * The key to the thread colours of the plan and thread-lane views, in a corner of the panel: top-right in the
 * plan, whose first layers ELK centres; bottom-left in the thread lanes, whose time axis runs along the top and
 * whose few lanes leave the bottom empty. *Fit* and *Readable* leave it room where it would cover a node
 * (zoom/overlay-room.ts). One swatch per thread with the thread and core it names, and the critical path's outline
 * where the model marks one. Drawn outside the zoomed group like the overview, so it
 * keeps its size at any zoom; it takes no pointer events, so hovering the drawing under it still works.
 */
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import type { SModelElementImpl, SModelRootImpl } from 'sprotty';
import { DIAGRAM_ELEMENT_TYPES as T } from '@chainlab/contract';
import { visibleCanvas } from './zoom/canvas.js';
import { cornerBox, OVERLAY_MARGIN, type Overlay } from './zoom/overlay-room.js';

const ROW = 18;
const PAD = 6;
const SWATCH = 14;
/** Average glyph width of the key's 12 px text, for its width (the server sizes labels the same way). */
const CHAR = 7;

interface KeyEntry {
    /** The thread class (`thread-3`), or `critical` for the critical path's sample. */
    mark: string;
    text: string;
}

type Element = SModelElementImpl & { cssClasses?: string[]; title?: string; text?: string; children?: unknown };

const threadClass = (e: Element) => e.cssClasses?.find(c => /^thread-\d+$/.test(c));

/** The thread a sub-box or lane is on, as its own text says it (`thread 1 · core 1`). */
function threadText(e: Element): string | undefined {
    if (e.type === T.lane) return e.title;
    const where = (e.children as Element[] | undefined)?.find(c => c.id.endsWith('.where'));
    return where?.text;
}

function hasCritical(elements: readonly Element[], depth = 2): boolean {
    return elements.some(
        e => e.cssClasses?.includes('critical') || (depth > 0 && hasCritical(e.children as Element[], depth - 1)),
    );
}

/** One entry per thread (by its text: more than 8 threads share colours), sorted by thread. */
export function keyEntries(root: SModelRootImpl): KeyEntry[] {
    const byText = new Map<string, KeyEntry>();
    for (const child of root.children as readonly Element[]) {
        if (child.type !== T.subBox && child.type !== T.lane) continue;
        const [mark, text] = [threadClass(child), threadText(child)];
        if (mark && text && !byText.has(text)) byText.set(text, { mark, text });
    }
    const threadNumber = (t: string) => Number(/\d+/.exec(t)?.[0] ?? 0);
    const entries = [...byText.values()].sort((a, b) => threadNumber(a.text) - threadNumber(b.text));
    if (entries.length && hasCritical(root.children)) entries.push({ mark: 'critical', text: 'critical path' });
    return entries;
}

function sample(mark: string): VNode {
    if (mark === 'critical')
        return <rect class-colour-key-critical={true} x={1} y={1} width={SWATCH - 2} height={SWATCH - 2} rx={2} />;
    const swatch: VNode = (
        <g>
            <rect class-node-body={true} class-colour-key-swatch={true} width={SWATCH} height={SWATCH} rx={2} />
        </g>
    );
    (swatch.data!.class ??= {})[mark] = true; // `.thread-N .node-body` gives the swatch its thread's fill
    return swatch;
}

/** A key drawn over the canvas: its drawing, and its corner and size (the zoom makes room for it). */
export interface PanelKey {
    vnode: VNode;
    overlay: Overlay & Required<Pick<Overlay, 'corner'>>;
}

/**
 * The key in its corner of the canvas, or nothing where the view has no threads; `notes` are last lines, for a
 * colouring that has nothing to show yet (no run yet) and so leaves the thread colours in place.
 */
export function colourKey(root: SModelRootImpl, baseDiv: string, notes: readonly string[] = []): PanelKey | undefined {
    const entries = keyEntries(root);
    if (!entries.length) return undefined;
    const canvas = visibleCanvas(baseDiv, root);
    const width =
        PAD * 2 +
        Math.max(
            SWATCH + 6 + Math.max(...entries.map(e => e.text.length)) * CHAR,
            Math.max(0, ...notes.map(n => n.length)) * CHAR,
        );
    const rows = entries.length + notes.length;
    const height = PAD * 2 + rows * ROW - (ROW - SWATCH);
    if (canvas.width < width * 2 + OVERLAY_MARGIN) return undefined; // a panel too narrow to spare the corner
    const lanes = (root as { view?: string }).view === 'lanes';
    const overlay = { corner: lanes ? ('bottom-left' as const) : ('top-right' as const), width, height };
    const at = cornerBox(overlay.corner, overlay, canvas);
    const vnode = (
        <g class-chainlab-colour-key={true} transform={`translate(${at.x}, ${at.y})`}>
            <rect class-colour-key-back={true} x={0} y={0} width={width} height={height} rx={3} />
            {...entries.map((e, i) => (
                <g class-colour-key-entry={true} transform={`translate(${PAD}, ${PAD + i * ROW})`}>
                    {sample(e.mark)}
                    <text class-colour-key-text={true} x={SWATCH + 6} y={SWATCH - 3}>
                        {e.text}
                    </text>
                </g>
            ))}
            {...notes.map((note, i) => (
                <text
                    class-colour-key-note={true}
                    transform={`translate(${PAD}, ${PAD + (entries.length + i) * ROW})`}
                    x={0}
                    y={SWATCH - 3}
                >
                    {note}
                </text>
            ))}
        </g>
    );
    return { vnode, overlay };
}
