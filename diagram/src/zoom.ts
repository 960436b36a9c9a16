/**
 * Zoom that keeps text readable. Labels are 12 px in model units (the server sizes them so), so below
 * READABLE_ZOOM their text is under 11 px on screen: fitting never goes below it (the diagram is then
 * scrolled instead, starting at its top-left corner), and a user who zooms out further gets the smart-zoom
 * summary (see views.tsx). The wheel zooms by 1.15× per notch instead of sprotty's 1.65×.
 */
import { inject, injectable } from 'inversify';
import {
    BoundsAwareViewportCommand,
    Command,
    isViewport,
    TYPES,
    ZoomMouseListener,
    type CommandExecutionContext,
    type CommandReturn,
    type SModelRootImpl,
} from 'sprotty';
import type { Action, Viewport } from 'sprotty-protocol';
import type { Bounds } from 'sprotty-protocol/lib/utils/geometry';

/** The font size of every label in model units (language/src/diagram-server/diagram-elements.ts). */
export const LABEL_FONT_PX = 12;
/** The smallest text that is comfortable to read on screen. */
export const MIN_TEXT_PX = 11;
export const READABLE_ZOOM = MIN_TEXT_PX / LABEL_FONT_PX;
/** One wheel notch or one − / + click. */
export const ZOOM_STEP = 1.15;
const PADDING = 20;

/**
 * Fits the whole diagram like sprotty's FitToScreenAction, but never below READABLE_ZOOM nor above 100 %.
 * An internal action of the webview: it never goes to the server.
 */
export interface ReadableFitAction extends Action {
    kind: typeof READABLE_FIT;
}
export const READABLE_FIT = 'chainlabReadableFit';
export const readableFit = (): ReadableFitAction => ({ kind: READABLE_FIT });

/**
 * Where a readable fit puts the viewport: the whole drawing centred when it fits; otherwise its top-left
 * corner at the panel's top-left, where reading starts (a wide drawing centred vertically would leave the
 * panel's top half empty).
 */
export function readableViewport(bounds: Bounds, canvas: { width: number; height: number }): Viewport {
    const fit = Math.min(canvas.width / (bounds.width + 2 * PADDING), canvas.height / (bounds.height + 2 * PADDING));
    const zoom = Math.max(READABLE_ZOOM, Math.min(fit, 1));
    const fits = fit >= zoom;
    const axis = (start: number, size: number, room: number) =>
        fits ? start + size / 2 - room / zoom / 2 : start - PADDING / zoom;
    return {
        zoom,
        scroll: { x: axis(bounds.x, bounds.width, canvas.width), y: axis(bounds.y, bounds.height, canvas.height) },
    };
}

@injectable()
export class ReadableFitCommand extends BoundsAwareViewportCommand {
    static readonly KIND = READABLE_FIT;

    constructor(@inject(TYPES.Action) protected readonly action: ReadableFitAction) {
        super(false);
    }

    getElementIds(): string[] {
        return [];
    }

    getNewViewport(bounds: Bounds, model: SModelRootImpl): Viewport | undefined {
        const canvas = model.canvasBounds;
        if (!(canvas.width > 0 && canvas.height > 0)) return undefined;
        return readableViewport(bounds, canvas);
    }
}

/** The wheel zooms by ZOOM_STEP per notch (Chromium reports 100 px, 3 lines or 1 page per notch). */
@injectable()
export class ChainlabZoomMouseListener extends ZoomMouseListener {
    override getZoomFactor(event: WheelEvent): number {
        const perNotch =
            event.deltaMode === WheelEvent.DOM_DELTA_PAGE ? 1 : event.deltaMode === WheelEvent.DOM_DELTA_LINE ? 3 : 100;
        return Math.pow(ZOOM_STEP, -event.deltaY / perNotch);
    }
}

/** − / + / 100 %: multiplies the zoom by `factor`, or sets it to `zoom`, about the centre of the panel. */
export interface ZoomStepAction extends Action {
    kind: typeof ZOOM_STEP_ACTION;
    factor?: number;
    zoom?: number;
}
export const ZOOM_STEP_ACTION = 'chainlabZoomStep';
export const zoomStep = (step: { factor?: number; zoom?: number }): ZoomStepAction => ({
    kind: ZOOM_STEP_ACTION,
    ...step,
});

@injectable()
export class ZoomStepCommand extends Command {
    static readonly KIND = ZOOM_STEP_ACTION;
    private before?: Viewport;
    private after?: Viewport;

    constructor(@inject(TYPES.Action) protected readonly action: ZoomStepAction) {
        super();
    }

    execute(context: CommandExecutionContext): CommandReturn {
        const root = context.root;
        if (!isViewport(root)) return root;
        const { zoom, scroll } = root;
        const canvas = root.canvasBounds;
        const next = Math.min(8, Math.max(0.05, this.action.zoom ?? zoom * (this.action.factor ?? 1)));
        const centre = { x: scroll.x + canvas.width / 2 / zoom, y: scroll.y + canvas.height / 2 / zoom };
        this.before = { zoom, scroll };
        this.after = {
            zoom: next,
            scroll: { x: centre.x - canvas.width / 2 / next, y: centre.y - canvas.height / 2 / next },
        };
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
