/**
 * Where the toolbar's zoom controls and the wheel put the viewport, as pure functions of the drawing's bounds
 * and the visible part of the panel (both in the units the caller gives: bounds in model units, the canvas in
 * CSS px). Labels are 12 px in model units (the server sizes them so), so below READABLE_ZOOM their text is
 * under 11 px on screen: *Readable* never fits below it, *Fit* shows the whole drawing at whatever zoom it needs.
 */
import type { Viewport } from 'sprotty-protocol';
import type { Bounds, Point } from 'sprotty-protocol/lib/utils/geometry';

/** The font size of every label in model units (language/src/diagram-server/diagram-elements.ts). */
export const LABEL_FONT_PX = 12;
/** The smallest text that is comfortable to read on screen. */
export const MIN_TEXT_PX = 11;
export const READABLE_ZOOM = MIN_TEXT_PX / LABEL_FONT_PX;
/** One wheel notch or one − / + click. */
export const ZOOM_STEP = 1.15;
/** The zoom limits of the viewer: far enough out for a 1000-box chain wrapped for the panel. */
export const ZOOM_LIMITS = { min: 0.02, max: 8 };
/** Screen pixels kept between the drawing and the panel's edges. */
export const PADDING = 20;

export interface Canvas {
    width: number;
    height: number;
}

const clamp = (value: number, low: number, high: number) => Math.min(high, Math.max(low, value));

/** The zoom at which the whole drawing, with its padding, fits the canvas. */
export function wholeZoom(bounds: Bounds, canvas: Canvas): number {
    return Math.min(canvas.width / (bounds.width + 2 * PADDING), canvas.height / (bounds.height + 2 * PADDING));
}

/** *Fit*: the whole drawing centred, as large as fits but never above 100 %. */
export function wholeViewport(bounds: Bounds, canvas: Canvas): Viewport {
    const zoom = clamp(Math.min(wholeZoom(bounds, canvas), 1), ZOOM_LIMITS.min, ZOOM_LIMITS.max);
    return centred(bounds, canvas, zoom);
}

function centred(bounds: Bounds, canvas: Canvas, zoom: number): Viewport {
    return {
        zoom,
        scroll: {
            x: bounds.x + bounds.width / 2 - canvas.width / zoom / 2,
            y: bounds.y + bounds.height / 2 - canvas.height / zoom / 2,
        },
    };
}

/**
 * *Readable*: the whole drawing centred when it fits at readable zoom; otherwise where reading starts: the
 * drawing's top at the panel's top, and the leftmost of the nodes that fit in the panel's height at its left.
 * A wrapped chain's first column or a plan's first layers, which ELK centres over wider ones, are then in view
 * rather than the drawing's corner, which a node far below (or nothing) holds. The drawing's start (the leftmost
 * node of its top layer) stays wholly in view, and the view leaves no more empty than the padding at the right.
 */
export function readableViewport(bounds: Bounds, canvas: Canvas, nodes: readonly Bounds[] = []): Viewport {
    const fit = wholeZoom(bounds, canvas);
    const zoom = Math.max(READABLE_ZOOM, Math.min(fit, 1));
    if (fit >= zoom) return centred(bounds, canvas, zoom);
    const [pad, width] = [PADDING / zoom, canvas.width / zoom];
    const top = bounds.y - pad;
    const inBand = nodes.filter(n => n.y >= top && n.y + n.height <= top + canvas.height / zoom);
    if (!inBand.length) return { zoom, scroll: { x: bounds.x - pad, y: top } };
    const start = drawingStart(inBand);
    const left = Math.max(Math.min(...inBand.map(n => n.x)) - pad, start.x + start.width + pad - width);
    const [first, last] = [bounds.x - pad, bounds.x + bounds.width + pad - width];
    return { zoom, scroll: { x: clamp(left, first, Math.max(first, last)), y: top } };
}

/**
 * Where reading starts: the leftmost node of the top layer (the nodes whose top is within half a node's height
 * of the highest one; ELK centres a layer's nodes on its middle line, so a short source sits a little lower).
 */
function drawingStart(nodes: readonly Bounds[]): Bounds {
    const highest = Math.min(...nodes.map(n => n.y));
    const layer = Math.min(...nodes.map(n => n.height)) / 2;
    const topLayer = nodes.filter(n => n.y <= highest + layer);
    return topLayer.reduce((a, b) => (b.x < a.x ? b : a));
}

/**
 * The viewport zoomed to `zoom` about `anchor` (a point of the canvas, in CSS px from its top-left): the model
 * point under it stays under it.
 */
export function zoomAbout(viewport: Viewport, zoom: number, anchor: Point): Viewport {
    const next = clamp(zoom, ZOOM_LIMITS.min, ZOOM_LIMITS.max);
    const at = { x: viewport.scroll.x + anchor.x / viewport.zoom, y: viewport.scroll.y + anchor.y / viewport.zoom };
    return { zoom: next, scroll: { x: at.x - anchor.x / next, y: at.y - anchor.y / next } };
}

/**
 * The viewport moved as little as needed so that the drawing stays in view: a drawing smaller than the canvas
 * stays wholly inside it, a larger one leaves no more than the padding empty at any edge. Zooming about a point
 * near an edge would otherwise push the drawing out, or leave most of the panel empty.
 */
export function keepInView(viewport: Viewport, bounds: Bounds, canvas: Canvas): Viewport {
    const { zoom } = viewport;
    const pad = PADDING / zoom;
    const axis = (scroll: number, start: number, size: number, room: number) => {
        const view = room / zoom;
        // the padding shrinks where a drawing fits the panel only without it: it is never cut by it
        const margin = size <= view ? Math.min(pad, (view - size) / 2) : pad;
        // the drawing's start `margin` inside the canvas's start, and its end `margin` inside the canvas's end
        const first = start - margin;
        const last = start + size + margin - view;
        return clamp(scroll, Math.min(first, last), Math.max(first, last));
    };
    return {
        zoom,
        scroll: {
            x: axis(viewport.scroll.x, bounds.x, bounds.width, canvas.width),
            y: axis(viewport.scroll.y, bounds.y, bounds.height, canvas.height),
        },
    };
}

/**
 * The viewport moved as little as needed to show `target` (with the padding) at the same zoom; where it is
 * larger than the canvas, its top-left corner is shown.
 */
export function revealViewport(viewport: Viewport, target: Bounds, canvas: Canvas): Viewport {
    const { zoom } = viewport;
    const pad = PADDING / zoom;
    const axis = (scroll: number, start: number, size: number, room: number) => {
        const view = room / zoom;
        if (size + 2 * pad > view) return start - pad;
        return clamp(scroll, start + size + pad - view, start - pad);
    };
    return {
        zoom,
        scroll: {
            x: axis(viewport.scroll.x, target.x, target.width, canvas.width),
            y: axis(viewport.scroll.y, target.y, target.height, canvas.height),
        },
    };
}
