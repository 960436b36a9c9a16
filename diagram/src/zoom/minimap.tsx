/** @jsx svg */
/**
 * The overview in a corner of the panel that no node is in (bottom-right where it can): every top-level node as
 * a speck and the part of the drawing in view as a frame, shown whenever the drawing at the current zoom is
 * larger than the panel. A click or a
 * drag on it centres the view there. It is drawn in the diagram's SVG outside the zoomed group, so it keeps
 * its size at any zoom, and re-rendered with every viewport change like the rest of the drawing.
 */
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import {
    isBoundsAware,
    isViewport,
    type BoundsAware,
    MouseListener,
    ScrollMouseListener,
    TYPES,
    type SModelElementImpl,
    type SModelRootImpl,
    type ViewerOptions,
} from 'sprotty';
import { inject, injectable } from 'inversify';
import { SetViewportAction, type Action, type Viewport } from 'sprotty-protocol';
import type { Bounds } from 'sprotty-protocol/lib/utils/geometry';
import { keepInView, type Canvas } from './viewport-math.js';
import { cornerBox, freeCorner, onScreen, OVERVIEW_CORNERS, type Corner, type Size } from './overlay-room.js';
import { drawingBounds, visibleCanvas } from './canvas.js';

/** The largest the overview gets (CSS px). */
const MAX = { width: 180, height: 140 };
/** The least it gets across: a long chain's overview was a strip a few pixels wide. */
const MIN_ACROSS = 48;
const CLASS = 'chainlab-minimap';

/** The overview's corner the last time it was drawn: it stays there while that corner is free. */
let lastCorner: Corner = OVERVIEW_CORNERS[0];

/**
 * The overview's size where it shows at `viewport`: on a drawing larger than the part of the panel in view, in a
 * panel large enough to spare it a corner; undefined elsewhere.
 */
export function overviewSize(drawing: Bounds | undefined, canvas: Canvas, viewport: Viewport): Size | undefined {
    if (!drawing || !(canvas.width > 2 * MAX.width && canvas.height > 2 * MAX.height)) return undefined;
    const { zoom, scroll } = viewport;
    const view = { x: scroll.x, y: scroll.y, width: canvas.width / zoom, height: canvas.height / zoom };
    const inView =
        drawing.x >= view.x - 1 &&
        drawing.y >= view.y - 1 &&
        drawing.x + drawing.width <= view.x + view.width + 1 &&
        drawing.y + drawing.height <= view.y + view.height + 1;
    if (inView) return undefined;
    const { width, height } = overviewExtent(drawing, view);
    const scale = Math.min(MAX.width / width, MAX.height / height);
    return { width: width * scale, height: height * scale };
}

/**
 * What the overview shows (model units): the drawing and the part in view, so that the view's frame is never cut,
 * widened about its centre where it would be less than MIN_ACROSS px across at the overview's scale.
 */
export function overviewExtent(drawing: Bounds, view: Bounds): Bounds {
    const x = Math.min(drawing.x, view.x);
    const y = Math.min(drawing.y, view.y);
    const width = Math.max(drawing.x + drawing.width, view.x + view.width) - x;
    const height = Math.max(drawing.y + drawing.height, view.y + view.height) - y;
    const scale = Math.min(MAX.width / width, MAX.height / height);
    const wide = Math.max(width, MIN_ACROSS / scale);
    const tall = Math.max(height, MIN_ACROSS / scale);
    return { x: x - (wide - width) / 2, y: y - (tall - height) / 2, width: wide, height: tall };
}

/** The top-level nodes' bounds (model units): what the overview shows as specks and must not cover. */
export function topNodes(root: SModelRootImpl): Bounds[] {
    return root.children.filter(c => isBoundsAware(c) && 'size' in c).map(c => (c as BoundsAware).bounds);
}

/**
 * The overview of `root` in a corner of the canvas that no node and none of `keys` (boxes in the canvas) is in,
 * bottom-right first, or nothing where the whole drawing is in view.
 */
export function minimap(
    root: SModelRootImpl & Viewport,
    baseDiv: string,
    keys: readonly Bounds[] = [],
): VNode | undefined {
    const drawing = drawingBounds(root);
    const canvas = visibleCanvas(baseDiv, root);
    const size = overviewSize(drawing, canvas, root);
    if (!drawing || !size) return undefined;
    const { zoom, scroll } = root;
    const view = { x: scroll.x, y: scroll.y, width: canvas.width / zoom, height: canvas.height / zoom };
    const nodes = topNodes(root);
    const taken = [...onScreen(nodes, root), ...keys];
    const corners = [lastCorner, ...OVERVIEW_CORNERS.filter(c => c !== lastCorner)];
    lastCorner = freeCorner(size, canvas, taken, corners) ?? lastCorner;
    const box = cornerBox(lastCorner, size, canvas);
    const extent = overviewExtent(drawing, view);
    const specks = nodes.map(({ x, y, width, height }) => (
        <rect class-minimap-node={true} x={x} y={y} width={width} height={height} />
    ));
    return (
        <svg
            class-chainlab-minimap={true}
            x={box.x}
            y={box.y}
            width={box.width}
            height={box.height}
            attrs-viewBox={`${extent.x} ${extent.y} ${extent.width} ${extent.height}`}
            attrs-preserveAspectRatio="none"
        >
            <title>overview: click or drag to move the view</title>
            <rect class-minimap-back={true} {...extent} />
            {...specks}
            <rect class-minimap-view={true} {...view} attrs-vector-effect="non-scaling-stroke" />
        </svg>
    );
}

const inMinimap = (event: MouseEvent) => (event.target as Element | null)?.closest?.(`.${CLASS}`) ?? undefined;

/** A click or drag on the overview centres the view on the point under the pointer. */
@injectable()
export class MinimapMouseListener extends MouseListener {
    @inject(TYPES.ViewerOptions) protected viewerOptions!: ViewerOptions;
    private dragging = false;

    override mouseDown(target: SModelElementImpl, event: MouseEvent): Action[] {
        this.dragging = inMinimap(event) !== undefined;
        return this.dragging ? this.centre(target.root, event) : [];
    }

    override mouseMove(target: SModelElementImpl, event: MouseEvent): Action[] {
        if (this.dragging && event.buttons === 0) this.dragging = false;
        return this.dragging ? this.centre(target.root, event) : [];
    }

    override mouseUp(): Action[] {
        this.dragging = false;
        return [];
    }

    private centre(root: SModelRootImpl, event: MouseEvent): Action[] {
        const drawing = drawingBounds(root);
        const map = document.querySelector<SVGSVGElement>(`#${CSS.escape(this.viewerOptions.baseDiv)} .${CLASS}`);
        if (!drawing || !map || !isViewport(root)) return [];
        const rect = map.getBoundingClientRect();
        const shown = map.viewBox.baseVal; // the overview's extent as drawn
        const point = {
            x: shown.x + ((event.clientX - rect.left) / rect.width) * shown.width,
            y: shown.y + ((event.clientY - rect.top) / rect.height) * shown.height,
        };
        const canvas = visibleCanvas(this.viewerOptions.baseDiv, root);
        const zoom = root.zoom;
        const centred = {
            zoom,
            scroll: { x: point.x - canvas.width / zoom / 2, y: point.y - canvas.height / zoom / 2 },
        };
        return [SetViewportAction.create(root.id, keepInView(centred, drawing, canvas), { animate: false })];
    }
}

/** Dragging the background pans, except on the overview, where a drag moves the view the other way. */
@injectable()
export class ChainlabScrollMouseListener extends ScrollMouseListener {
    override mouseDown(target: SModelElementImpl, event: MouseEvent): ReturnType<ScrollMouseListener['mouseDown']> {
        if (inMinimap(event)) return [];
        return super.mouseDown(target, event);
    }
}
