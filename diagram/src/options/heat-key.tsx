/** @jsx svg */
/**
 * The key of a view coloured by a result (the options panel's `Colour by`), in the canvas' top-right corner,
 * under the toolbar, with room left for it by *Fit* and *Readable* (zoom/overlay-room.ts): what the colours
 * measure and one swatch per step with the values it covers, or why nothing is coloured (no run yet). It stands
 * in for the thread-colour key while the colouring replaces the thread colours, keeps its size at any zoom and
 * takes no pointer events.
 */
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import type { SModelRootImpl } from 'sprotty';
import type { ColouringFields } from '@chainlab/contract';
import { visibleCanvas } from '../zoom/canvas.js';
import { cornerBox, OVERLAY_MARGIN } from '../zoom/overlay-room.js';
import type { PanelKey } from '../colour-key.js';

const ROW = 18;
const PAD = 6;
const SWATCH = 14;
/** Average glyph width of 12 px text, where the page cannot measure (the server sizes labels the same way). */
const CHAR = 7.6;

let measure: CanvasRenderingContext2D | null | undefined;

/** The width of `text` in the key's font (a bold title runs wider than any estimate of plain text). */
function textWidth(text: string, bold = false): number {
    measure ??= document.createElement('canvas').getContext('2d');
    if (!measure) return text.length * CHAR;
    const family = getComputedStyle(document.body).fontFamily || 'sans-serif';
    measure.font = `${bold ? '600 ' : ''}12px ${family}`;
    return Math.ceil(measure.measureText(text).width) + 2;
}

/** The root's colouring, when the server coloured the view. */
export function colouringOf(root: SModelRootImpl): ColouringFields | undefined {
    const colouring = (root as SModelRootImpl & { colouring?: ColouringFields }).colouring;
    return colouring?.by && colouring.by !== 'none' ? colouring : undefined;
}

/** The key in the top-right corner of the canvas, or nothing where the view is not coloured. */
export function heatKey(root: SModelRootImpl, baseDiv: string): PanelKey | undefined {
    const colouring = colouringOf(root);
    if (!colouring) return undefined;
    const title =
        colouring.unit === 'time' || colouring.unit === 'bytes'
            ? colouring.title
            : `${colouring.title} (${colouring.unit})`;
    const lines = [...colouring.bins.map(b => b.text), ...(colouring.note ? [colouring.note] : [])];
    const width =
        PAD * 2 +
        Math.max(
            textWidth(title, true),
            ...lines.map((t, i) => textWidth(t) + (i < colouring.bins.length ? SWATCH + 6 : 0)),
        );
    const height = PAD * 2 + (lines.length + 1) * ROW - (ROW - SWATCH);
    const canvas = visibleCanvas(baseDiv, root);
    if (canvas.width < width + 2 * OVERLAY_MARGIN) return undefined; // a panel too narrow to spare the corner
    const row = (i: number) => `translate(${PAD}, ${PAD + (i + 1) * ROW})`;
    const overlay = { corner: 'top-right' as const, width, height };
    const at = cornerBox(overlay.corner, overlay, canvas);
    const vnode = (
        <g class-chainlab-heat-key={true} transform={`translate(${at.x}, ${at.y})`}>
            <rect class-heat-key-back={true} x={0} y={0} width={width} height={height} rx={3} />
            <text class-heat-key-title={true} x={PAD} y={PAD + SWATCH - 3}>
                {title}
            </text>
            {...colouring.bins.map((b, i) => (
                <g class-heat-key-entry={true} transform={row(i)}>
                    {swatch(b.cls)}
                    <text x={SWATCH + 6} y={SWATCH - 3}>
                        {b.text}
                    </text>
                </g>
            ))}
            {...colouring.note
                ? [
                      <text class-heat-key-note={true} transform={row(colouring.bins.length)} x={0} y={SWATCH - 3}>
                          {colouring.note}
                      </text>,
                  ]
                : []}
        </g>
    );
    return { vnode, overlay };
}

function swatch(cls: string): VNode {
    const rect: VNode = <rect class-colour-key-heat={true} width={SWATCH} height={SWATCH} rx={2} />;
    (rect.data!.class ??= {})[cls] = true; // `.colour-key-heat.heat-N` gives the swatch its step's fill
    return rect;
}
