/**
 * A text edit's new diagram: morphed from the old one when it is small, swapped in at once when it is large.
 * Sprotty's morph re-renders the whole SVG on every animation frame; for a 200-box chain that costs more than
 * the edit → updated diagram budget (300 ms), and a morph of hundreds of nodes says little anyway.
 * A box the edit added (from the palette or typed) is scrolled into view: it was often placed off-screen.
 */
import { inject, injectable } from 'inversify';
import type { UpdateModelAction } from 'sprotty-protocol';
import {
    type CommandExecutionContext,
    type CommandReturn,
    isBoundsAware,
    isViewport,
    type SModelRootImpl,
    TYPES,
    UpdateModelCommand,
    type ViewerOptions,
} from 'sprotty';
import type { Bounds } from 'sprotty-protocol/lib/utils/geometry';
import { revealViewport } from './zoom/viewport-math.js';
import { visibleCanvas } from './zoom/zoom-commands.js';

/** At most this many new top-level nodes are revealed; more is a new diagram, not an edit. */
const REVEALED_NODES = 3;

/** Model elements (nodes, ports, labels, edges) above which an update is not animated. */
export const MORPH_ELEMENT_LIMIT = 600;

@injectable()
export class SizeAwareUpdateModelCommand extends UpdateModelCommand {
    @inject(TYPES.ViewerOptions) protected viewerOptions!: ViewerOptions;

    constructor(@inject(TYPES.Action) action: UpdateModelAction) {
        super(action);
    }

    protected override performUpdate(
        oldRoot: SModelRootImpl,
        newRoot: SModelRootImpl,
        context: CommandExecutionContext,
    ): CommandReturn {
        if (this.action.animate !== false && isLarge(newRoot)) (this.action as { animate?: boolean }).animate = false; // the base class reads the flag
        const result = super.performUpdate(oldRoot, newRoot, context); // gives the new root the old viewport
        const added = oldRoot.id === newRoot.id ? addedBounds(oldRoot, newRoot) : undefined;
        if (added && isViewport(newRoot)) {
            const canvas = visibleCanvas(this.viewerOptions.baseDiv, newRoot);
            newRoot.scroll = revealViewport(newRoot, added, canvas).scroll;
        }
        return result;
    }
}

/** The union of the top-level nodes `newRoot` has and `oldRoot` had not, if there are a few. */
function addedBounds(oldRoot: SModelRootImpl, newRoot: SModelRootImpl): Bounds | undefined {
    if (!oldRoot.children.some(c => 'size' in c)) return undefined;
    const added = newRoot.children.filter(c => 'size' in c && isBoundsAware(c) && !oldRoot.index.getById(c.id));
    if (added.length === 0 || added.length > REVEALED_NODES) return undefined;
    const boxes = added.map(c => (c as unknown as { bounds: Bounds }).bounds);
    const x = Math.min(...boxes.map(b => b.x));
    const y = Math.min(...boxes.map(b => b.y));
    const right = Math.max(...boxes.map(b => b.x + b.width));
    const bottom = Math.max(...boxes.map(b => b.y + b.height));
    return { x, y, width: right - x, height: bottom - y };
}

function isLarge(root: SModelRootImpl): boolean {
    let count = 0;
    for (const _ of root.index.all()) if (++count > MORPH_ELEMENT_LIMIT) return true;
    return false;
}
