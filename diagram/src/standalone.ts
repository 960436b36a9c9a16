/**
 * The same diagram container outside VS Code (bundled to dist/standalone.js): a page calls
 * `chainlabDiagram.show(model)` with a laid-out model from the language server. Used by the browser
 * tests and for looking at a diagram without an editor.
 */
import 'reflect-metadata';
import { ContainerModule, injectable } from 'inversify';
import {
    configureActionHandler,
    LocalModelSource,
    TYPES,
    type IActionDispatcher,
    type IActionHandler,
    type IPopupModelProvider,
} from 'sprotty';
import {
    CenterAction,
    ExportSvgAction,
    FitToScreenAction,
    GetViewportAction,
    RequestExportSvgAction,
    SelectAction,
    type Action,
} from 'sprotty-protocol';
import type { RequestPopupModelAction, SModelElement, SModelRoot } from 'sprotty-protocol';
import { createChainlabDiagramContainer } from './di.config.js';
import { DIAGRAM_EDIT_ACTION, type DiagramEdit, type DiagramEditAction, type GraphFields } from '@chainlab/contract';
import { EditingState, paletteSelect } from './diagram-editing.js';
import { createToolbar, type ToolbarOptions } from './toolbar.js';
import { readableFit } from './zoom/zoom-commands.js';
import '../css/diagram.css';

const selected: string[] = [];
const edits: DiagramEdit[] = [];
const exported: string[] = [];

/** Records selections: in VS Code they go to the language server, which reveals the text. */
@injectable()
class SelectionRecorder implements IActionHandler {
    handle(action: Action): void {
        selected.push(...(action as SelectAction).selectedElementsIDs);
    }
}

/** Records diagram edits: in VS Code they go to the language server, which edits the text. */
@injectable()
class EditRecorder implements IActionHandler {
    handle(action: Action): void {
        edits.push(...(action as DiagramEditAction).edits);
    }
}

/** Keeps exported SVG documents: in VS Code the extension writes them to a file. */
@injectable()
class ExportRecorder implements IActionHandler {
    handle(action: Action): void {
        exported.push((action as ExportSvgAction).svg);
    }
}

const popups = new Map<string, SModelRoot>();

/** Popups the page was given (in VS Code the language server answers each RequestPopupModelAction). */
@injectable()
class GivenPopups implements IPopupModelProvider {
    getPopupModel(_request: RequestPopupModelAction, element?: SModelElement): SModelRoot | undefined {
        return element ? structuredClone(popups.get(element.id)) : undefined;
    }
}

const local = new ContainerModule((bind, _unbind, isBound) => {
    bind(TYPES.ModelSource).to(LocalModelSource).inSingletonScope();
    bind(TYPES.IPopupModelProvider).to(GivenPopups).inSingletonScope();
    configureActionHandler({ bind, isBound }, SelectAction.KIND, SelectionRecorder);
    configureActionHandler({ bind, isBound }, DIAGRAM_EDIT_ACTION, EditRecorder);
    configureActionHandler({ bind, isBound }, ExportSvgAction.KIND, ExportRecorder);
});

const container = createChainlabDiagramContainer('sprotty', local);
const source = container.get<LocalModelSource>(TYPES.ModelSource);
const dispatcher = () => container.get<IActionDispatcher>(TYPES.IActionDispatcher);
/** The toolbar's display options; in VS Code a change re-requests the model, here the page's host does. */
const options: ToolbarOptions = {
    showPorts: true,
    showCosts: true,
    heuristic: '',
    showMeasured: false,
    showCritical: true,
};
const optionChanges: ToolbarOptions[] = [];
const toolbar = createToolbar(
    {
        dispatcher,
        palette: paletteSelect(container.get(EditingState), dispatcher),
        options,
        onOptionsChanged: () => optionChanges.push({ ...options }),
    },
    document.getElementById('toolbar') ?? undefined,
);
// the page's size changed (a panel dragged wider): show as much as fits again, still readable
let resizeTimer: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
    clearTimeout(resizeTimer);
    resizeTimer = setTimeout(() => void dispatcher().dispatch(readableFit()), 80);
});

(window as unknown as { chainlabDiagram: object }).chainlabDiagram = {
    show: async (model: SModelRoot & Partial<GraphFields>) => {
        toolbar.showView(model.view, model.measuredRun);
        await source.setModel(model);
        await dispatcher().dispatch(readableFit());
    },
    /** A new model of the same diagram (the server's updateModel): zoom and scroll stay. */
    update: async (model: SModelRoot & Partial<GraphFields>) => {
        toolbar.showView(model.view, model.measuredRun);
        await source.updateModel(model);
    },
    /** The whole diagram on screen, at any zoom (sprotty renders only the elements in view). */
    fitAll: () => dispatcher().dispatch(FitToScreenAction.create([], { padding: 20, animate: false })),
    /** Scrolls element `id` to the middle of the panel at the current zoom (a test then points at it). */
    reveal: (id: string) => dispatcher().dispatch(CenterAction.create([id], { animate: false, retainZoom: true })),
    /** The current zoom and scroll, and the canvas size (tests check readability and fitting). */
    viewport: async () => {
        const { viewport, canvasBounds } = await dispatcher().request(GetViewportAction.create());
        return { ...viewport, canvas: canvasBounds };
    },
    /** Popup models by element id, e.g. the language server's answers to RequestPopupModelAction. */
    setPopups: (given: Record<string, SModelRoot>) => {
        popups.clear();
        for (const [id, root] of Object.entries(given)) popups.set(id, root);
    },
    selected: () => [...selected],
    edits: () => [...edits],
    /** The options after each change in the toolbar (ports, costs, heuristic, measured). */
    optionChanges: () => [...optionChanges],
    /** The diagram as a standalone SVG document (what the toolbar's Export SVG saves). */
    exportSvg: async () => {
        const before = exported.length;
        await dispatcher().dispatch(RequestExportSvgAction.create());
        for (let i = 0; i < 100 && exported.length === before; i++)
            await new Promise(resolve => setTimeout(resolve, 20));
        return exported[before];
    },
};
