/**
 * The boxes an edit made from the diagram concerns: the ends of a new or deleted connection, a new or renamed
 * instance. The edit goes to the server, the text changes and a new layout comes back, where those boxes may have
 * moved out of view (a connection changes the layers); the update that brings it scrolls them into view
 * (update-model.ts), as it does any box the edit added.
 */
import { injectable } from 'inversify';
import type { IActionHandler } from 'sprotty';
import type { Action } from 'sprotty-protocol';
import type { DiagramEdit, DiagramEditAction } from '@chainlab/contract';

/** How long the focus waits for the update the edit brings; later updates come from elsewhere (ms). */
const FOCUS_WAIT_MS = 10_000;

const instanceOf = (end: string) => end.slice(0, end.lastIndexOf('.'));

/** The instance names an edit concerns. */
export function editedInstances(edit: DiagramEdit): string[] {
    switch (edit.op) {
        case 'connect':
        case 'deleteConnection':
            return [instanceOf(edit.from), instanceOf(edit.to)];
        case 'addInstance':
            return [edit.name];
        case 'renameInstance':
            return [edit.newName];
        default:
            return [];
    }
}

/** Records what the latest edit from the diagram concerns, for the update that answers it. */
@injectable()
export class EditFocus implements IActionHandler {
    private pending?: { names: string[]; until: number };

    handle(action: Action): void {
        const names = (action as DiagramEditAction).edits.flatMap(editedInstances);
        if (names.length) this.pending = { names, until: Date.now() + FOCUS_WAIT_MS };
    }

    /** The instance names of the latest edit, once, if it was made lately. */
    take(): string[] {
        const pending = this.pending;
        this.pending = undefined;
        return pending && Date.now() <= pending.until ? pending.names : [];
    }
}
