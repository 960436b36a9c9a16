/**
 * A text edit's new diagram: morphed from the old one when it is small, swapped in at once when it is large.
 * Sprotty's morph re-renders the whole SVG on every animation frame; for a 200-box chain that costs more than
 * the edit → updated diagram budget (300 ms), and a morph of hundreds of nodes says little anyway.
 */
import { inject, injectable } from 'inversify';
import type { UpdateModelAction } from 'sprotty-protocol';
import {
    type CommandExecutionContext,
    type CommandReturn,
    type SModelRootImpl,
    TYPES,
    UpdateModelCommand,
} from 'sprotty';

/** Model elements (nodes, ports, labels, edges) above which an update is not animated. */
export const MORPH_ELEMENT_LIMIT = 600;

@injectable()
export class SizeAwareUpdateModelCommand extends UpdateModelCommand {
    constructor(@inject(TYPES.Action) action: UpdateModelAction) {
        super(action);
    }

    protected override performUpdate(
        oldRoot: SModelRootImpl,
        newRoot: SModelRootImpl,
        context: CommandExecutionContext,
    ): CommandReturn {
        if (this.action.animate !== false && isLarge(newRoot)) (this.action as { animate?: boolean }).animate = false; // the base class reads the flag
        return super.performUpdate(oldRoot, newRoot, context);
    }
}

function isLarge(root: SModelRootImpl): boolean {
    let count = 0;
    for (const _ of root.index.all()) if (++count > MORPH_ELEMENT_LIMIT) return true;
    return false;
}
