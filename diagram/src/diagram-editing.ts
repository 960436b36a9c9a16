/**
 * Editing the box chain from its diagram: a palette adds an instance of a box (or declares a new box type),
 * dragging from an output port to an input port (or clicking one, then the other) connects them, Delete
 * removes the selected instances (with their connections) and connections, F2 renames the selected instance
 * (in a form at its node).
 * Nothing changes here: each gesture becomes a `chainlabEdit` action that the language server turns into one
 * text edit (see language/src/server/diagram-edit-requests.ts), and the diagram follows the text. A diagram
 * of a model with errors stays editable (editing goes through such states); only a stale one is not.
 *
 * Keys: VS Code webviews get no key listeners (sprotty-vscode disables the KeyTool; VS Code owns the
 * keybindings), so there Delete and F2 are the extension's keybindings, which send `chainlabDeleteSelection`
 * and `chainlabRenameSelection`; Ctrl+Z / Ctrl+Y step the text's history (extension/src/diagram-undo.ts).
 * Outside VS Code (the standalone page) a key listener does Delete and F2.
 */
import { inject, injectable, type interfaces } from 'inversify';
import {
    configureActionHandler,
    overrideModelElement,
    SEdgeImpl,
    SIssueMarkerImpl,
    KeyListener,
    MouseListener,
    SNodeImpl,
    SPortImpl,
    TYPES,
    type IActionDispatcher,
    type IActionDispatcherProvider,
    type IActionHandler,
    type SModelElementImpl,
    type ViewerOptions,
} from 'sprotty';
import {
    GetSelectionAction,
    SetModelAction,
    UpdateModelAction,
    type Action,
    type SelectionResult,
    type SModelElement,
    type SModelRoot,
} from 'sprotty-protocol';
import { matchesKeystroke } from 'sprotty/lib/utils/keyboard';
import {
    DELETE_SELECTION_ACTION,
    RENAME_SELECTION_ACTION,
    DIAGRAM_EDIT_ACTION,
    DIAGRAM_ELEMENT_TYPES as T,
    type DiagramEdit,
    type DiagramEditAction,
    type GraphFields,
} from '@chainlab/contract';
import { boxTypeForm, renameForm } from './edit-forms.js';
import { EditFocus } from './edit-focus.js';
import { HitAreaEdgeView, TitledIssueMarkerView } from './editing-views.js';
import { markPointerFocus } from './focus-frame.js';
import { RubberBand } from './rubber-band.js';

/** A gesture's edits as the contract's action (contract/schemas/diagram.schema.json); the server checks them again. */
export function diagramEditAction(...edits: DiagramEdit[]): DiagramEditAction {
    return { kind: DIAGRAM_EDIT_ACTION, edits };
}

/** What the chain view's root carries for editing (the contract's graph fields; a root of another kind has none). */
interface ChainRootSchema extends SModelRoot, Partial<GraphFields> {}
type Named = { name?: string };

/** An unused instance name for a new instance of `box`: gain1, gain2, ... (a digit keeps it clear of keywords). */
export function nextInstanceName(box: string, taken: ReadonlySet<string>): string {
    const stem = (box.charAt(0).toLowerCase() + box.slice(1)).replace(/\W/g, '') || 'box';
    for (let i = 1; ; i++) if (!taken.has(`${stem}${i}`)) return `${stem}${i}`;
}

/** The latest model the server sent, for the palette (which lives outside the SVG). */
@injectable()
export class EditingState implements IActionHandler {
    root?: ChainRootSchema;
    private readonly listeners: Array<(root: ChainRootSchema) => void> = [];

    handle(action: Action): void {
        const root = (action as { newRoot?: ChainRootSchema }).newRoot;
        if (!root || root.type !== T.graph) return;
        this.root = root;
        for (const listener of this.listeners) listener(root);
    }

    onModel(listener: (root: ChainRootSchema) => void): void {
        this.listeners.push(listener);
        if (this.root) listener(this.root);
    }

    /** The chain the diagram shows, when it is an editable box-chain view. */
    get chain(): string | undefined {
        return this.root?.view === 'chain' && !('stale' in this.root && this.root.stale)
            ? this.root.element
            : undefined;
    }

    instanceNames(): Set<string> {
        return new Set(
            (this.root?.children ?? []).map(c => (c as SModelElement & Named).name).filter((n): n is string => !!n),
        );
    }

    /** The instance name of a box node's id, if it is one. */
    instanceOf(id: string): string | undefined {
        const node: (SModelElement & Named) | undefined = this.root?.children?.find(
            c => c.id === id && c.type === T.box,
        );
        return node?.name;
    }

    /** The edits that delete the elements with these ids: box instances (with their connections) and connections. */
    deleteEdits(ids: readonly string[]): DiagramEdit[] {
        const chain = this.chain;
        if (!chain || !this.root) return [];
        const nodes = new Map<string, SModelElement & Named>();
        const portEnds = new Map<string, string>(); // port id → instance.port
        for (const child of this.root.children ?? []) {
            if (child.type !== T.box) continue;
            const node = child as SModelElement & Named;
            nodes.set(node.id, node);
            for (const port of node.children ?? []) {
                const name = (port as SModelElement & Named).name;
                if (node.name && name) portEnds.set(port.id, `${node.name}.${name}`);
            }
        }
        const edits: DiagramEdit[] = [];
        for (const id of ids) {
            const node = nodes.get(id);
            if (node?.name) {
                edits.push({ op: 'deleteInstance', chain, name: node.name });
                continue;
            }
            const edge = this.root.children?.find(c => c.id === id && c.type === T.edge) as
                (SModelElement & { sourceId: string; targetId: string }) | undefined;
            const from = edge && portEnds.get(edge.sourceId);
            const to = edge && portEnds.get(edge.targetId);
            if (from && to) edits.push({ op: 'deleteConnection', chain, from, to });
        }
        return edits;
    }
}

/** Whether the keyboard is in one of the forms (keys there are typing, not gestures). */
function typing(): boolean {
    const active = document.activeElement;
    return !!active && ['INPUT', 'SELECT', 'TEXTAREA'].includes(active.tagName);
}

/** Opens the rename form for the one selected instance; its answer becomes a renameInstance edit. */
export function renameSelected(
    state: EditingState,
    selectedIds: readonly string[],
    dispatch: (a: Action) => void,
    locate: (id: string) => DOMRect | undefined = () => undefined,
): void {
    const chain = state.chain;
    const ids = selectedIds.filter(id => state.instanceOf(id));
    if (!chain || ids.length !== 1) return;
    const name = state.instanceOf(ids[0])!;
    const done = (newName: string) => dispatch(diagramEditAction({ op: 'renameInstance', chain, name, newName }));
    renameForm(name, done, locate(ids[0]));
}

/** Where a model element is drawn in the page (sprotty's DOM ids are the base div's id, `_`, the element's id). */
function drawnAt(options: ViewerOptions): (id: string) => DOMRect | undefined {
    return id => document.getElementById(`${options.baseDiv}_${id}`)?.getBoundingClientRect();
}

/** F2 in VS Code (the extension's keybinding sends the request): rename the selected instance. */
@injectable()
export class RenameSelectionHandler implements IActionHandler {
    @inject(EditingState) protected readonly state!: EditingState;
    @inject(TYPES.IActionDispatcherProvider) protected readonly dispatcher!: IActionDispatcherProvider;
    @inject(TYPES.ViewerOptions) protected readonly options!: ViewerOptions;

    handle(): void {
        void this.rename();
    }

    private async rename(): Promise<void> {
        if (typing()) return;
        const dispatcher = await this.dispatcher();
        const { selectedElementsIDs } = await dispatcher.request<SelectionResult>(GetSelectionAction.create());
        const dispatch = (action: Action) => void dispatcher.dispatch(action);
        renameSelected(this.state, selectedElementsIDs, dispatch, drawnAt(this.options));
    }
}

/** Deletes the current selection (the extension's Delete keybinding sends the request). */
@injectable()
export class DeleteSelectionHandler implements IActionHandler {
    @inject(EditingState) protected readonly state!: EditingState;
    @inject(TYPES.IActionDispatcherProvider) protected readonly dispatcher!: IActionDispatcherProvider;

    handle(): void {
        void this.deleteSelection();
    }

    private async deleteSelection(): Promise<void> {
        if (typing()) return; // Delete in a form edits its text (VS Code forwards the key to the keybinding too)
        const dispatcher = await this.dispatcher();
        const { selectedElementsIDs } = await dispatcher.request<SelectionResult>(GetSelectionAction.create());
        const edits = this.state.deleteEdits(selectedElementsIDs);
        if (edits.length) await dispatcher.dispatch(diagramEditAction(...edits));
    }
}

const NEW_BOX = '\u0000new'; // the palette's "new box type…" entry (no box can have this name)

/** A select in a toolbar: "add box…", the file's box definitions and "new box type…" (a form). */
export function paletteSelect(state: EditingState, dispatcher: () => IActionDispatcher): HTMLSelectElement {
    const select = document.createElement('select');
    select.className = 'chainlab-palette';
    select.title = 'add an instance of a box to the chain, or declare a new box type (a text edit)';
    const option = (value: string, text: string) =>
        Object.assign(document.createElement('option'), { value, textContent: text });
    state.onModel(root => {
        const boxes = state.chain ? (root.palette ?? []) : [];
        select.replaceChildren(
            option('', 'add box…'),
            ...boxes.map(b => option(b, b)),
            ...(state.chain ? [option(NEW_BOX, 'new box type…')] : []),
        );
        select.disabled = !state.chain;
    });
    select.addEventListener('change', () => {
        const box = select.value;
        select.value = '';
        const chain = state.chain;
        if (!box || !chain) return;
        if (box === NEW_BOX) {
            boxTypeForm(
                state.root?.images?.[0] ?? 'Frame',
                form => void dispatcher().dispatch(diagramEditAction({ op: 'addBox', chain, ...form })),
            );
            return;
        }
        void dispatcher().dispatch(
            diagramEditAction({ op: 'addInstance', chain, box, name: nextInstanceName(box, state.instanceNames()) }),
        );
    });
    return select;
}

function portEnd(port: SPortImpl): string | undefined {
    const instance = (port.parent as SNodeImpl & Named).name;
    const name = (port as SPortImpl & Named).name;
    return instance && name ? `${instance}.${name}` : undefined;
}

function enclosingPort(target: SModelElementImpl): SPortImpl | undefined {
    for (
        let e: SModelElementImpl | undefined = target;
        e;
        e = 'parent' in e ? (e as { parent?: SModelElementImpl }).parent : undefined
    ) {
        if (e instanceof SPortImpl) return e;
    }
    return undefined;
}

/**
 * Drag from an output port to an input port, or click one and then the other: connect them. Anything else in
 * between cancels. (Pressing on a port selects the port, not its box, so the drag does not move the box.)
 */
@injectable()
export class ConnectMouseListener extends MouseListener {
    @inject(EditingState) protected readonly state!: EditingState;
    private from?: string;
    private readonly band = new RubberBand();

    override mouseDown(target: SModelElementImpl, event: MouseEvent): Action[] {
        const end = this.portAt(target);
        if (!end || event.button !== 0) {
            this.cancel();
            return [];
        }
        if (end.port.type === T.outPort) {
            this.from = end.name;
            this.band.start(event.clientX, event.clientY);
            return [];
        }
        return this.connectTo(end.name);
    }

    override mouseMove(_target: SModelElementImpl, event: MouseEvent): Action[] {
        if (this.from) this.band.move(event.clientX, event.clientY);
        return [];
    }

    override mouseUp(target: SModelElementImpl, event: MouseEvent): Action[] {
        const end = this.portAt(target);
        // released over an input port after pressing on an output port: a drag
        if (!end || event.button !== 0 || end.port.type !== T.inPort) return [];
        return this.connectTo(end.name);
    }

    private cancel(): void {
        this.from = undefined;
        this.band.stop();
    }

    private connectTo(to: string): Action[] {
        const chain = this.state.chain;
        const from = this.from;
        this.cancel();
        return chain && from ? [diagramEditAction({ op: 'connect', chain, from, to })] : [];
    }

    private portAt(target: SModelElementImpl): { port: SPortImpl; name: string } | undefined {
        if (!this.state.chain) return undefined;
        const port = enclosingPort(target);
        const name = port && portEnd(port);
        return port && name ? { port, name } : undefined;
    }
}

/** Delete / Backspace: remove the selected instances (with their connections) and connections; F2: rename. */
@injectable()
export class DeleteKeyListener extends KeyListener {
    @inject(EditingState) protected readonly state!: EditingState;

    @inject(TYPES.IActionDispatcherProvider) protected readonly dispatcher!: IActionDispatcherProvider;
    @inject(TYPES.ViewerOptions) protected readonly options!: ViewerOptions;

    override keyDown(element: SModelElementImpl, event: KeyboardEvent): Action[] {
        if (typing()) return [];
        const selected = [...element.root.index.all()]
            .filter(e => (e as { selected?: boolean }).selected)
            .map(e => e.id);
        if (matchesKeystroke(event, 'F2')) {
            const dispatch = (action: Action) => void this.dispatcher().then(d => d.dispatch(action));
            renameSelected(this.state, selected, dispatch, drawnAt(this.options));
            return [];
        }
        if (!(matchesKeystroke(event, 'Delete') || matchesKeystroke(event, 'Backspace'))) return [];
        const edits = this.state.deleteEdits(selected);
        return edits.length ? [diagramEditAction(...edits)] : [];
    }
}

/** Binds the editing gestures; the host decides where `chainlabEdit` actions go (the server, or a test recorder). */
export function configureDiagramEditing(context: {
    bind: interfaces.Bind;
    isBound: interfaces.IsBound;
    rebind: interfaces.Rebind;
}): void {
    const { bind } = context;
    markPointerFocus(); // a click or drag leaves no frame around the canvas
    bind(EditingState).toSelf().inSingletonScope();
    for (const kind of [SetModelAction.KIND, UpdateModelAction.KIND])
        configureActionHandler(context, kind, EditingState);
    // what an edit concerns, scrolled into view when the answering update has moved it away (update-model.ts)
    bind(EditFocus).toSelf().inSingletonScope();
    configureActionHandler(context, DIAGRAM_EDIT_ACTION, EditFocus);
    bind(ConnectMouseListener).toSelf().inSingletonScope();
    bind(TYPES.MouseListener).toService(ConnectMouseListener);
    bind(DeleteKeyListener).toSelf().inSingletonScope();
    bind(TYPES.KeyListener).toService(DeleteKeyListener);
    bind(DeleteSelectionHandler).toSelf().inSingletonScope();
    configureActionHandler(context, DELETE_SELECTION_ACTION, DeleteSelectionHandler);
    bind(RenameSelectionHandler).toSelf().inSingletonScope();
    configureActionHandler(context, RENAME_SELECTION_ACTION, RenameSelectionHandler);
    // edges easy to hit (delete), issue markers that say what is wrong: views of their own over the defaults
    overrideModelElement(context, T.edge, SEdgeImpl, HitAreaEdgeView);
    overrideModelElement(context, 'marker', SIssueMarkerImpl, TitledIssueMarkerView);
}
