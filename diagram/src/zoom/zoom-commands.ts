/**
 * The toolbar's zoom controls and the wheel: *Fit* (the whole drawing), *Readable* (as much as fits at
 * readable zoom), − / + / 100 % about the panel's centre and the wheel about the pointer, all kept in view
 * (viewport-math.ts). They measure the panel's visible part in the page rather than trusting sprotty's canvas
 * bounds, which are taken once and miss a toolbar that wraps or a webview body that clips the SVG: zooming
 * about a centre below the visible one drifted the drawing down and right on every click.
 */
import { inject, injectable } from 'inversify';
import {
    Command,
    isViewport,
    TYPES,
    ZoomMouseListener,
    type CommandExecutionContext,
    type CommandReturn,
    type SModelElementImpl,
    type SModelRootImpl,
    type ViewerOptions,
} from 'sprotty';
import type { Action, Viewport } from 'sprotty-protocol';
import type { Bounds, Point } from 'sprotty-protocol/lib/utils/geometry';
import {
    keepInView,
    readableViewport,
    wholeViewport,
    ZOOM_LIMITS,
    ZOOM_STEP,
    zoomAbout,
    type Canvas,
} from './viewport-math.js';
import { drawingBounds, visibleCanvas } from './canvas.js';
import { roomForOverlays, type Overlay } from './overlay-room.js';
import { overviewSize, topNodes } from './minimap.js';
import { panelKey } from '../panel-key.js';

/** Fit: the whole drawing; readable: as much as fits at readable zoom; step: zoom by `factor` or to `zoom`. */
export type ZoomRequest = { fit: 'whole' | 'readable' } | { factor: number } | { zoom: number };

/** An internal action of the webview: it never goes to the server. */
export interface ChainlabZoomAction extends Action {
    kind: typeof CHAINLAB_ZOOM;
    request: ZoomRequest;
}
export const CHAINLAB_ZOOM = 'chainlabZoom';
export const fitWhole = (): ChainlabZoomAction => ({ kind: CHAINLAB_ZOOM, request: { fit: 'whole' } });
export const readableFit = (): ChainlabZoomAction => ({ kind: CHAINLAB_ZOOM, request: { fit: 'readable' } });
export const zoomStep = (step: { factor: number } | { zoom: number }): ChainlabZoomAction => ({
    kind: CHAINLAB_ZOOM,
    request: step,
});

/**
 * Where a zoom request puts the viewport; undefined where there is nothing drawn or no panel yet. *Fit* and
 * *Readable* leave room for `overlays` (those shown at a viewport), so that none covers a node.
 */
export function requestedViewport(
    request: ZoomRequest,
    current: Viewport,
    bounds: Bounds | undefined,
    canvas: Canvas,
    nodes: Bounds[] = [],
    overlays: (viewport: Viewport) => readonly Overlay[] = () => [],
): Viewport | undefined {
    if (!bounds || !(canvas.width > 0 && canvas.height > 0)) return undefined;
    if ('fit' in request) {
        const place = (room: Canvas) =>
            request.fit === 'whole' ? wholeViewport(bounds, room) : readableViewport(bounds, room, nodes);
        return roomForOverlays(place, canvas, nodes, overlays);
    }
    const zoom = 'zoom' in request ? request.zoom : current.zoom * request.factor;
    const centre = { x: canvas.width / 2, y: canvas.height / 2 };
    return keepInView(zoomAbout(current, zoom, centre), bounds, canvas);
}

@injectable()
export class ChainlabZoomCommand extends Command {
    static readonly KIND = CHAINLAB_ZOOM;
    @inject(TYPES.ViewerOptions) protected viewerOptions!: ViewerOptions;
    private before?: Viewport;
    private after?: Viewport;

    constructor(@inject(TYPES.Action) protected readonly action: ChainlabZoomAction) {
        super();
    }

    execute(context: CommandExecutionContext): CommandReturn {
        const root = context.root;
        if (!isViewport(root)) return root;
        const canvas = visibleCanvas(this.viewerOptions.baseDiv, root);
        this.before = { zoom: root.zoom, scroll: root.scroll };
        const drawing = drawingBounds(root);
        const key = panelKey(root, this.viewerOptions.baseDiv)?.overlay;
        const overlays = (viewport: Viewport): Overlay[] => {
            const overview = overviewSize(drawing, canvas, viewport);
            return [...(key ? [key] : []), ...(overview ? [overview] : [])];
        };
        this.after = requestedViewport(this.action.request, this.before, drawing, canvas, topNodes(root), overlays);
        return this.redo(context);
    }

    undo(context: CommandExecutionContext): CommandReturn {
        return this.set(context.root, this.before);
    }

    redo(context: CommandExecutionContext): CommandReturn {
        return this.set(context.root, this.after);
    }

    private set(root: SModelRootImpl, viewport: Viewport | undefined): SModelRootImpl {
        if (viewport && isViewport(root)) {
            root.zoom = viewport.zoom;
            root.scroll = viewport.scroll;
        }
        return root;
    }
}

/**
 * The wheel zooms by ZOOM_STEP per notch (Chromium reports 100 px, 3 lines or 1 page per notch) instead of
 * sprotty's 1.65×, about the point under the pointer measured in the page, and keeps the drawing in view.
 */
@injectable()
export class ChainlabZoomMouseListener extends ZoomMouseListener {
    override getZoomFactor(event: WheelEvent): number {
        const perNotch =
            event.deltaMode === WheelEvent.DOM_DELTA_PAGE ? 1 : event.deltaMode === WheelEvent.DOM_DELTA_LINE ? 3 : 100;
        return Math.pow(ZOOM_STEP, -event.deltaY / perNotch);
    }

    protected override processZoom(
        viewport: Viewport,
        target: SModelElementImpl,
        event: WheelEvent,
    ): Viewport | undefined {
        const zoom = viewport.zoom * this.getZoomFactor(event);
        if (zoom < ZOOM_LIMITS.min && viewport.zoom <= ZOOM_LIMITS.min) return undefined;
        if (zoom > ZOOM_LIMITS.max && viewport.zoom >= ZOOM_LIMITS.max) return undefined;
        const root = target.root;
        const canvas = visibleCanvas(this.viewerOptions.baseDiv, root);
        const anchor: Point = { x: event.clientX - canvas.x, y: event.clientY - canvas.y };
        const zoomed = zoomAbout(viewport, zoom, anchor);
        const bounds = drawingBounds(root);
        return bounds ? keepInView(zoomed, bounds, canvas) : zoomed;
    }
}
