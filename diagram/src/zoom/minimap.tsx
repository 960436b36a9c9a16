/** @jsx svg */
/**
 * The overview in the panel's bottom-right corner: every top-level node as a speck and the part of the drawing
 * in view as a frame, shown whenever the drawing at the current zoom is larger than the panel. A click or a
 * drag on it centres the view there. It is drawn in the diagram's SVG outside the zoomed group, so it keeps
 * its size at any zoom, and re-rendered with every viewport change like the rest of the drawing.
 */
import type { VNode } from 'snabbdom';
import { svg } from 'sprotty/lib/lib/jsx';
import {
    isBoundsAware,
    isViewport,
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
import { keepInView } from './viewport-math.js';
import { drawingBounds, visibleCanvas } from './zoom-commands.js';

/** The largest the overview gets, and its distance from the panel's edges (CSS px). */
const MAX = { width: 180, height: 140 };
const MARGIN = 10;
const CLASS = 'chainlab-minimap';

interface Placement {
    /** The overview's box in the canvas (CSS px). */
    box: Bounds;
    /** The drawing's bounds it shows (model units). */
    drawing: Bounds;
}

function place(drawing: Bounds, canvas: Bounds): Placement {
    const scale = Math.min(MAX.width / drawing.width, MAX.height / drawing.height);
    const width = drawing.width * scale;
    const height = drawing.height * scale;
    return {
        box: { x: canvas.width - width - MARGIN, y: canvas.height - height - MARGIN, width, height },
        drawing,
    };
}

/** The overview of `root` in the canvas, or nothing where the whole drawing is in view. */
export function minimap(root: SModelRootImpl & Viewport, baseDiv: string): VNode | undefined {
    const drawing = drawingBounds(root);
    const canvas = visibleCanvas(baseDiv, root);
    if (!drawing || !(canvas.width > 2 * MAX.width && canvas.height > 2 * MAX.height)) return undefined;
    const { zoom, scroll } = root;
    const view = { x: scroll.x, y: scroll.y, width: canvas.width / zoom, height: canvas.height / zoom };
    const inView =
        drawing.x >= view.x - 1 &&
        drawing.y >= view.y - 1 &&
        drawing.x + drawing.width <= view.x + view.width + 1 &&
        drawing.y + drawing.height <= view.y + view.height + 1;
    if (inView) return undefined;
    const { box } = place(drawing, canvas);
    const specks: VNode[] = [];
    for (const child of root.children) {
        if (!isBoundsAware(child) || !('size' in child)) continue; // nodes and lanes; edges join them
        const { x, y, width, height } = child.bounds;
        specks.push(<rect class-minimap-node={true} x={x} y={y} width={width} height={height} />);
    }
    return (
        <svg
            class-chainlab-minimap={true}
            x={box.x}
            y={box.y}
            width={box.width}
            height={box.height}
            attrs-viewBox={`${drawing.x} ${drawing.y} ${drawing.width} ${drawing.height}`}
            attrs-preserveAspectRatio="none"
        >
            <title>overview: click or drag to move the view</title>
            <rect class-minimap-back={true} {...drawing} />
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
        const map = document.querySelector(`#${CSS.escape(this.viewerOptions.baseDiv)} .${CLASS}`);
        if (!drawing || !map || !isViewport(root)) return [];
        const rect = map.getBoundingClientRect();
        const point = {
            x: drawing.x + ((event.clientX - rect.left) / rect.width) * drawing.width,
            y: drawing.y + ((event.clientY - rect.top) / rect.height) * drawing.height,
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
