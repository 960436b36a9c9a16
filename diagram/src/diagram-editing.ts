/**
 * Editing the box chain from its diagram: a palette adds an instance of a box, clicking an output port
 * and then an input port connects them, Delete removes the selected instances (with their connections)
 * and connections. Nothing changes here: each gesture becomes a `chainlabEdit` action that the language
 * server turns into a text edit (see language/src/server/diagram-edit-requests.ts), and the diagram
 * follows the text.
 *
 * Keys: VS Code webviews get no key listeners (sprotty-vscode disables the KeyTool; VS Code owns the
 * keybindings), so there Delete is the extension's keybinding, which sends `chainlabDeleteSelection`.
 * Outside VS Code (the standalone page) a key listener does the same.
 */
import { inject, injectable, type interfaces } from 'inversify';
import {
    configureActionHandler,
    KeyListener,
    MouseListener,
    SNodeImpl,
    SPortImpl,
    TYPES,
    type IActionDispatcher,
    type IActionDispatcherProvider,
    type IActionHandler,
    type SModelElementImpl,
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
    DIAGRAM_EDIT_ACTION,
    DIAGRAM_ELEMENT_TYPES as T,
    type DiagramEdit,
    type DiagramEditAction,
    type GraphFields,
} from '@chainlab/contract';

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

/** Deletes the current selection (the extension's Delete keybinding sends the request). */
@injectable()
export class DeleteSelectionHandler implements IActionHandler {
    @inject(EditingState) protected readonly state!: EditingState;
    @inject(TYPES.IActionDispatcherProvider) protected readonly dispatcher!: IActionDispatcherProvider;

    handle(): void {
        void this.deleteSelection();
    }

    private async deleteSelection(): Promise<void> {
        const dispatcher = await this.dispatcher();
        const { selectedElementsIDs } = await dispatcher.request<SelectionResult>(GetSelectionAction.create());
        const edits = this.state.deleteEdits(selectedElementsIDs);
        if (edits.length) await dispatcher.dispatch(diagramEditAction(...edits));
    }
}

/** A select in a toolbar: "add box…" and the file's box definitions. */
export function paletteSelect(state: EditingState, dispatcher: () => IActionDispatcher): HTMLSelectElement {
    const select = document.createElement('select');
    select.className = 'chainlab-palette';
    select.title = 'add an instance of a box to the chain (a text edit)';
    state.onModel(root => {
        const boxes = state.chain ? (root.palette ?? []) : [];
        select.replaceChildren(
            Object.assign(document.createElement('option'), { value: '', textContent: 'add box…' }),
            ...boxes.map(b => Object.assign(document.createElement('option'), { value: b, textContent: b })),
        );
        select.disabled = boxes.length === 0;
    });
    select.addEventListener('change', () => {
        const box = select.value;
        select.value = '';
        const chain = state.chain;
        if (box && chain)
            void dispatcher().dispatch(
                diagramEditAction({
                    op: 'addInstance',
                    chain,
                    box,
                    name: nextInstanceName(box, state.instanceNames()),
                }),
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

/** Click an output port, then an input port: connect them. Anything else in between cancels. */
@injectable()
export class ConnectMouseListener extends MouseListener {
    @inject(EditingState) protected readonly state!: EditingState;
    private from?: string;

    override mouseDown(target: SModelElementImpl, event: MouseEvent): Action[] {
        const chain = this.state.chain;
        const port = enclosingPort(target);
        const end = port && portEnd(port);
        if (!chain || !port || !end || event.button !== 0) {
            this.from = undefined;
            return [];
        }
        if (port.type === T.outPort) {
            this.from = end;
            return [];
        }
        const from = this.from;
        this.from = undefined;
        return from ? [diagramEditAction({ op: 'connect', chain, from, to: end })] : [];
    }
}

/** Delete / Backspace: remove the selected instances (with their connections) and connections. */
@injectable()
export class DeleteKeyListener extends KeyListener {
    @inject(EditingState) protected readonly state!: EditingState;

    override keyDown(element: SModelElementImpl, event: KeyboardEvent): Action[] {
        if (!(matchesKeystroke(event, 'Delete') || matchesKeystroke(event, 'Backspace'))) return [];
        const selected = [...element.root.index.all()]
            .filter(e => (e as { selected?: boolean }).selected)
            .map(e => e.id);
        const edits = this.state.deleteEdits(selected);
        return edits.length ? [diagramEditAction(...edits)] : [];
    }
}

/** Binds the editing gestures; the host decides where `chainlabEdit` actions go (the server, or a test recorder). */
export function configureDiagramEditing(context: { bind: interfaces.Bind; isBound: interfaces.IsBound }): void {
    const { bind } = context;
    bind(EditingState).toSelf().inSingletonScope();
    for (const kind of [SetModelAction.KIND, UpdateModelAction.KIND])
        configureActionHandler(context, kind, EditingState);
    bind(ConnectMouseListener).toSelf().inSingletonScope();
    bind(TYPES.MouseListener).toService(ConnectMouseListener);
    bind(DeleteKeyListener).toSelf().inSingletonScope();
    bind(TYPES.KeyListener).toService(DeleteKeyListener);
    bind(DeleteSelectionHandler).toSelf().inSingletonScope();
    configureActionHandler(context, DELETE_SELECTION_ACTION, DeleteSelectionHandler);
}
