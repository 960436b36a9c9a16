/**
 * Room for the panel's overlays (the corner overview, the colour keys): they are drawn over the canvas, so the
 * views a user asks for — the first one, *Fit*, *Readable* — leave a strip free along a side of an overlay's
 * corner where it would cover a node; the overview goes to a corner no node and no key is in. Pure functions of
 * the canvas (CSS px), the viewport and the nodes' bounds (model units).
 */
import type { Viewport } from 'sprotty-protocol';
import type { Bounds } from 'sprotty-protocol/lib/utils/geometry';
import type { Canvas } from './viewport-math.js';

/** The distance of an overlay from the panel's edges (CSS px). */
export const OVERLAY_MARGIN = 10;

export type Corner = 'top-right' | 'bottom-right' | 'top-left' | 'bottom-left';
/** Where the overview goes, first free first: bottom-right is where overviews usually are. */
export const OVERVIEW_CORNERS: readonly Corner[] = ['bottom-right', 'top-right', 'top-left', 'bottom-left'];

export interface Size {
    width: number;
    height: number;
}

/** An overlay of the panel: a key in its fixed corner, or the overview (`corner` absent), in any free one. */
export interface Overlay extends Size {
    corner?: Corner;
}

/** Space kept free at each side of the canvas (CSS px). */
export interface Insets {
    top: number;
    right: number;
    bottom: number;
    left: number;
}

const NO_INSETS: Insets = { top: 0, right: 0, bottom: 0, left: 0 };

/** The box of an overlay of `size` in `corner` of the canvas (CSS px from its top-left). */
export function cornerBox(corner: Corner, size: Size, canvas: Canvas): Bounds {
    const x = corner.endsWith('right') ? canvas.width - size.width - OVERLAY_MARGIN : OVERLAY_MARGIN;
    const y = corner.startsWith('bottom') ? canvas.height - size.height - OVERLAY_MARGIN : OVERLAY_MARGIN;
    return { x, y, width: size.width, height: size.height };
}

/** The nodes' boxes in the canvas at `viewport` (CSS px). */
export function onScreen(nodes: readonly Bounds[], viewport: Viewport): Bounds[] {
    const { zoom, scroll } = viewport;
    return nodes.map(n => ({
        x: (n.x - scroll.x) * zoom,
        y: (n.y - scroll.y) * zoom,
        width: n.width * zoom,
        height: n.height * zoom,
    }));
}

const overlaps = (a: Bounds, b: Bounds) =>
    Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x) > 0.5 &&
    Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y) > 0.5;

/** The first of `corners` where a box of `size` covers none of `taken`, if any. */
export function freeCorner(
    size: Size,
    canvas: Canvas,
    taken: readonly Bounds[],
    corners: readonly Corner[] = OVERVIEW_CORNERS,
): Corner | undefined {
    return corners.find(corner => {
        const box = cornerBox(corner, size, canvas);
        return !taken.some(t => overlaps(box, t));
    });
}

/** Whether every overlay finds its place at `viewport`: fixed ones over no node, the overview in a free corner. */
function fits(overlays: readonly Overlay[], canvas: Canvas, screenNodes: readonly Bounds[]): boolean {
    const keys = overlays.flatMap(o => (o.corner ? [cornerBox(o.corner, o, canvas)] : []));
    if (keys.some(k => screenNodes.some(n => overlaps(k, n)))) return false;
    return overlays.every(o => o.corner || freeCorner(o, canvas, [...screenNodes, ...keys]) !== undefined);
}

/** The strips that could make room for an overlay: none, or one along a side of its corner (any for the overview). */
function stripsFor(overlay: Overlay): Insets[] {
    const room = { width: overlay.width + 2 * OVERLAY_MARGIN, height: overlay.height + 2 * OVERLAY_MARGIN };
    const sides: Array<keyof Insets> = overlay.corner
        ? [overlay.corner.startsWith('top') ? 'top' : 'bottom', overlay.corner.endsWith('right') ? 'right' : 'left']
        : ['top', 'right', 'bottom', 'left'];
    return [
        NO_INSETS,
        ...sides.map(side => ({
            ...NO_INSETS,
            [side]: side === 'top' || side === 'bottom' ? room.height - OVERLAY_MARGIN : room.width - OVERLAY_MARGIN,
        })),
    ];
}

const combine = (a: Insets, b: Insets): Insets => ({
    top: Math.max(a.top, b.top),
    right: Math.max(a.right, b.right),
    bottom: Math.max(a.bottom, b.bottom),
    left: Math.max(a.left, b.left),
});

/** `place` applied to the canvas less `insets`, moved so that its top-left is the insets' top-left corner. */
function inset(place: (canvas: Canvas) => Viewport, canvas: Canvas, insets: Insets): Viewport {
    const inner = {
        width: Math.max(1, canvas.width - insets.left - insets.right),
        height: Math.max(1, canvas.height - insets.top - insets.bottom),
    };
    const viewport = place(inner);
    const { zoom, scroll } = viewport;
    return { zoom, scroll: { x: scroll.x - insets.left / zoom, y: scroll.y - insets.top / zoom } };
}

/**
 * The viewport `place` gives for the canvas, with room for the overlays: where they would cover a node, the
 * strips (along the sides of their corners) that let every overlay cover none, choosing the largest zoom and
 * then the least room taken. `overlays(viewport)`: those shown at that viewport (the overview only shows when
 * the drawing is not wholly in view). Where no choice of strips helps, the viewport without any.
 */
export function roomForOverlays(
    place: (canvas: Canvas) => Viewport,
    canvas: Canvas,
    nodes: readonly Bounds[],
    overlays: (viewport: Viewport) => readonly Overlay[],
): Viewport {
    const plain = place(canvas);
    const candidates = overlays(plain)
        .map(stripsFor)
        .reduce<Insets[]>((all, strips) => all.flatMap(a => strips.map(s => combine(a, s))), [NO_INSETS]);
    let best: { viewport: Viewport; area: number } | undefined;
    for (const insets of candidates) {
        const viewport = inset(place, canvas, insets);
        if (!fits(overlays(viewport), canvas, onScreen(nodes, viewport))) continue;
        const area = (insets.top + insets.bottom) * canvas.width + (insets.left + insets.right) * canvas.height;
        if (
            !best ||
            viewport.zoom > best.viewport.zoom + 1e-9 ||
            (viewport.zoom > best.viewport.zoom - 1e-9 && area < best.area)
        )
            best = { viewport, area };
    }
    return best?.viewport ?? plain;
}
