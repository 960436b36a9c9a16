/**
 * The diagram widget inside VS Code: asks the language server for the view named in the diagram
 * identifier, laid out for the panel's size, shows it at a readable zoom, fits it again when the panel
 * is resized, and carries the toolbar (toolbar.ts).
 */
import { inject, injectable } from 'inversify';
import { RequestModelAction } from 'sprotty-protocol';
import { InitializeCanvasBoundsAction } from 'sprotty';
import { VscodeDiagramWidget } from 'sprotty-vscode-webview';
import {
    DIAGRAM_CHOICES_ACTION,
    type DiagramChoices,
    type DiagramChoicesAction,
    type DiagramOptions,
    type DiagramView,
    type Viewport,
} from '@chainlab/contract';
import { EditingState, paletteSelect } from './diagram-editing.js';
import { colourByOf } from './options/colour-options.js';
import { rememberedChoices } from './options/remembered-choices.js';
import { createToolbar, type Toolbar, type ToolbarOptions } from './toolbar.js';
import { readableFit } from './zoom/zoom-commands.js';

/** The identifier sprotty-vscode hands over, plus what chainlab's extension adds to it. */
interface ChainlabIdentifier {
    clientId: string;
    diagramType: string;
    uri: string;
    view?: DiagramView;
    element?: string;
    /** The latest choices of any diagram panel, which the extension remembers. */
    choices?: unknown;
}

/** The change of the panel's aspect ratio (either way) from which a resize asks for a new layout. */
const RELAYOUT_SHAPE_CHANGE = 1.5;

@injectable()
export class ChainlabDiagramWidget extends VscodeDiagramWidget {
    @inject(EditingState) protected readonly editing!: EditingState;
    private readonly options: ToolbarOptions = {
        showPorts: true,
        showCosts: true,
        heuristic: '',
        showMeasured: false,
        showCritical: true,
    };
    private toolbar?: Toolbar;
    /** The panel size the shown layout was made for. */
    private laidOutFor?: Viewport;
    private resizeTimer?: ReturnType<typeof setTimeout>;

    override initializeHtml(): void {
        super.initializeHtml();
        const id = this.diagramIdentifier as ChainlabIdentifier;
        const container = document.getElementById(id.clientId + '_container');
        Object.assign(this.options, rememberedChoices(id.choices));
        this.toolbar = createToolbar({
            dispatcher: () => this.actionDispatcher,
            palette: paletteSelect(this.editing, () => this.actionDispatcher),
            options: this.options,
            onOptionsChanged: () => {
                const choices: DiagramChoices = { ...this.options, colourBy: { ...this.options.colourBy } };
                const remember: DiagramChoicesAction = { kind: DIAGRAM_CHOICES_ACTION, choices };
                void this.actionDispatcher.dispatch(remember);
                void this.requestModel();
            },
        });
        this.toolbar.showView(id.view || 'chain');
        this.followCanvasSize();
        this.editing.onModel(root => this.toolbar?.showView(root.view, root.measuredRun));
        container?.prepend(this.toolbar.element);
        window.addEventListener('resize', () => {
            clearTimeout(this.resizeTimer);
            this.resizeTimer = setTimeout(() => void this.resized(), 80);
        });
    }

    /**
     * Sprotty measures its canvas at the first render and on window resizes only, and draws only what lies in
     * it; the canvas also changes when the toolbar wraps onto another row or the page settles after the first
     * render, so it is measured again whenever its element changes size.
     */
    private followCanvasSize(): void {
        if (typeof ResizeObserver === 'undefined') return;
        const element = () => document.getElementById(this.viewerOptions.baseDiv);
        let observed: HTMLElement | null = null;
        const observer = new ResizeObserver(() => {
            const canvas = element();
            if (!canvas) return;
            const { x, y, width, height } = canvas.getBoundingClientRect();
            if (width > 0 && height > 0)
                void this.actionDispatcher.dispatch(InitializeCanvasBoundsAction.create({ x, y, width, height }));
        });
        // sprotty replaces the placeholder with its own element at the first render: observe whichever is there
        const watch = () => {
            const canvas = element();
            if (canvas && canvas !== observed) {
                if (observed) observer.unobserve(observed);
                observer.observe(canvas);
                observed = canvas;
            }
        };
        watch();
        this.editing.onModel(() => watch());
    }

    /** The size of the diagram's part of the panel (below the toolbar). */
    private panelSize(): Viewport {
        const div = document.getElementById(this.diagramIdentifier.clientId);
        const rect = div?.getBoundingClientRect();
        const width = rect && rect.width > 0 ? rect.width : window.innerWidth;
        const height = rect && rect.height > 0 ? rect.height : window.innerHeight;
        return { width: Math.round(width), height: Math.round(height) };
    }

    /**
     * A panel that turned from tall to wide (or back), or whose shape changed by RELAYOUT_SHAPE_CHANGE (a bottom
     * panel opened under it), gets a new layout, which follows the panel's shape; any other resize a new fit.
     */
    private async resized(): Promise<void> {
        const size = this.panelSize();
        const tall = (v: Viewport) => v.width < v.height;
        const ratio = (v: Viewport) => v.width / v.height;
        const before = this.laidOutFor;
        const change = before ? Math.max(ratio(size) / ratio(before), ratio(before) / ratio(size)) : 1;
        if (before && (tall(before) !== tall(size) || change >= RELAYOUT_SHAPE_CHANGE)) await this.requestModel();
        else await this.actionDispatcher.dispatch(readableFit());
    }

    override async requestModel(): Promise<void> {
        const id = this.diagramIdentifier as ChainlabIdentifier;
        this.statusMessageDiv.textContent = 'updating…';
        try {
            const viewport = this.panelSize();
            const response = await this.actionDispatcher.request(
                RequestModelAction.create({
                    sourceUri: id.uri,
                    diagramType: id.diagramType,
                    view: id.view ?? '',
                    element: id.element ?? '',
                    showPorts: this.options.showPorts,
                    showCosts: this.options.showCosts,
                    heuristic: this.options.heuristic,
                    showMeasured: this.options.showMeasured,
                    showCritical: this.options.showCritical,
                    colourBy: colourByOf(this.options.colourBy ?? {}, id.view || 'chain'),
                    viewport: { ...viewport },
                } satisfies DiagramOptions & { sourceUri: string; diagramType: string }),
            );
            this.laidOutFor = viewport;
            this.statusMessageDiv.textContent = 'drawing…';
            await this.actionDispatcher.dispatch(response);
            this.statusMessageDiv.textContent = '';
            // a new diagram shows as much as fits at readable zoom; later updates keep the user's zoom and scroll
            await this.actionDispatcher.dispatch(readableFit());
        } catch (error) {
            this.statusMessageDiv.textContent = error instanceof Error ? error.message : String(error);
        }
    }
}
