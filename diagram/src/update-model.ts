/**
 * A text edit's new diagram: morphed from the old one when it is small, swapped in at once when it is large.
 * Sprotty's morph re-renders the whole SVG on every animation frame; for a 200-box chain that costs more than
 * the edit → updated diagram budget (300 ms), and a morph of hundreds of nodes says little anyway.
 * A box the edit added (from the palette or typed) is scrolled into view: it was often placed off-screen; so are
 * the boxes an edit made in the diagram concerns (edit-focus.ts), which the new layout may have moved away.
 */
import { inject, injectable, optional } from 'inversify';
import type { SModelElement, SModelRoot, UpdateModelAction } from 'sprotty-protocol';
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
import { EditFocus } from './edit-focus.js';
import { revealViewport } from './zoom/viewport-math.js';
import { visibleCanvas } from './zoom/canvas.js';

/** A top-level node of the model sent: a box has its instance's name. */
interface Placed {
    name: string;
    position: { x: number; y: number };
    size: { width: number; height: number };
}

/** At most this many new top-level nodes are revealed; more is a new diagram, not an edit. */
const REVEALED_NODES = 3;

/** Model elements (nodes, ports, labels, edges) above which an update is not animated. */
export const MORPH_ELEMENT_LIMIT = 600;

@injectable()
export class SizeAwareUpdateModelCommand extends UpdateModelCommand {
    @inject(TYPES.ViewerOptions) protected viewerOptions!: ViewerOptions;
    @inject(EditFocus) @optional() protected editFocus?: EditFocus;

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
        const edited = this.editFocus?.take() ?? [];
        if (oldRoot.id !== newRoot.id || !isViewport(newRoot)) return result;
        const canvas = visibleCanvas(this.viewerOptions.baseDiv, newRoot);
        const view = { width: canvas.width / newRoot.zoom, height: canvas.height / newRoot.zoom };
        const target = addedBounds(oldRoot, newRoot) ?? editedBounds(this.action.newRoot, edited, view);
        if (target) newRoot.scroll = revealViewport(newRoot, target, canvas).scroll;
        return result;
    }
}

const union = (boxes: readonly Bounds[]): Bounds => {
    const x = Math.min(...boxes.map(b => b.x));
    const y = Math.min(...boxes.map(b => b.y));
    const right = Math.max(...boxes.map(b => b.x + b.width));
    const bottom = Math.max(...boxes.map(b => b.y + b.height));
    return { x, y, width: right - x, height: bottom - y };
};

/**
 * The boxes of the instances named (an edit's) in the new model, together where they fit `view` (model units),
 * else the last one (a connection's target, the new name). Read from the model sent, not from the elements a
 * morph is moving: those start where the old layout had them.
 */
function editedBounds(
    root: SModelRoot | undefined,
    names: readonly string[],
    view: { width: number; height: number },
): Bounds | undefined {
    const byName = new Map<string, Bounds>();
    for (const c of (root?.children ?? []) as Array<SModelElement & Partial<Placed>>)
        if (c.name && c.position && c.size && names.includes(c.name)) byName.set(c.name, { ...c.position, ...c.size });
    const boxes = names.flatMap(n => byName.get(n) ?? []);
    if (!boxes.length) return undefined;
    const all = union(boxes);
    return all.width <= view.width && all.height <= view.height ? all : boxes[boxes.length - 1];
}

/** The union of the top-level nodes `newRoot` has and `oldRoot` had not, if there are a few. */
function addedBounds(oldRoot: SModelRootImpl, newRoot: SModelRootImpl): Bounds | undefined {
    if (!oldRoot.children.some(c => 'size' in c)) return undefined;
    const added = newRoot.children.filter(c => 'size' in c && isBoundsAware(c) && !oldRoot.index.getById(c.id));
    if (added.length === 0 || added.length > REVEALED_NODES) return undefined;
    return union(added.map(c => (c as unknown as { bounds: Bounds }).bounds));
}

function isLarge(root: SModelRootImpl): boolean {
    let count = 0;
    for (const _ of root.index.all()) if (++count > MORPH_ELEMENT_LIMIT) return true;
    return false;
}
