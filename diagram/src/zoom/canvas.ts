/**
 * Where the diagram is drawn: the part of the page its SVG shows and the extent of the drawing. Read by the zoom,
 * the overview and the keys that sit over the canvas.
 */
import { isBoundsAware, type SModelRootImpl } from 'sprotty';
import type { Bounds } from 'sprotty-protocol/lib/utils/geometry';

/** The visible part of the diagram's SVG in the page (CSS px): its top-left and size. */
export function visibleCanvas(baseDiv: string, root: SModelRootImpl): Bounds {
    const element = document.querySelector(`#${CSS.escape(baseDiv)} svg`) ?? document.getElementById(baseDiv);
    const rect = element?.getBoundingClientRect();
    if (!rect || !(rect.width > 0 && rect.height > 0)) return root.canvasBounds;
    const right = Math.min(rect.right, window.innerWidth);
    const bottom = Math.min(rect.bottom, window.innerHeight);
    return {
        x: rect.left,
        y: rect.top,
        width: Math.max(1, right - Math.max(rect.left, 0)),
        height: Math.max(1, bottom - Math.max(rect.top, 0)),
    };
}

/** The union of the root's top-level nodes (boxes, lanes; edges run between them), in model units. */
export function drawingBounds(root: SModelRootImpl): Bounds | undefined {
    let box: { x0: number; y0: number; x1: number; y1: number } | undefined;
    for (const child of root.children) {
        if (!isBoundsAware(child) || !('size' in child)) continue;
        const { x, y, width, height } = child.bounds;
        if (!(width > 0 && height > 0)) continue;
        box = box
            ? {
                  x0: Math.min(box.x0, x),
                  y0: Math.min(box.y0, y),
                  x1: Math.max(box.x1, x + width),
                  y1: Math.max(box.y1, y + height),
              }
            : { x0: x, y0: y, x1: x + width, y1: y + height };
    }
    return box && { x: box.x0, y: box.y0, width: box.x1 - box.x0, height: box.y1 - box.y0 };
}
