/**
 * The diagram widget inside VS Code: asks the language server for the view named in the diagram
 * identifier, with a small toolbar: the box palette (chain view), options (ports, costs, plan heuristic)
 * and an SVG export button.
 */
import { inject, injectable } from 'inversify';
import { FitToScreenAction, RequestExportSvgAction, RequestModelAction } from 'sprotty-protocol';
import { VscodeDiagramWidget } from 'sprotty-vscode-webview';
import { HEURISTICS, type DiagramOptions, type DiagramView, type Heuristic } from '@chainlab/contract';
import { EditingState, paletteSelect } from './diagram-editing.js';

/** The identifier sprotty-vscode hands over, plus what chainlab's extension adds to it. */
interface ChainlabIdentifier {
    clientId: string;
    diagramType: string;
    uri: string;
    view?: DiagramView;
    element?: string;
}

@injectable()
export class ChainlabDiagramWidget extends VscodeDiagramWidget {
    @inject(EditingState) protected readonly editing!: EditingState;
    private readonly options: { showPorts: boolean; showCosts: boolean; heuristic: Heuristic | '' } = {
        showPorts: true,
        showCosts: true,
        heuristic: '',
    };

    override initializeHtml(): void {
        super.initializeHtml();
        const container = document.getElementById(this.diagramIdentifier.clientId + '_container');
        container?.prepend(this.toolbar());
    }

    override async requestModel(): Promise<void> {
        const id = this.diagramIdentifier as ChainlabIdentifier;
        this.statusMessageDiv.textContent = 'updating…';
        try {
            const response = await this.actionDispatcher.request(
                RequestModelAction.create({
                    sourceUri: id.uri,
                    diagramType: id.diagramType,
                    view: id.view ?? '',
                    element: id.element ?? '',
                    showPorts: this.options.showPorts,
                    showCosts: this.options.showCosts,
                    heuristic: this.options.heuristic,
                } satisfies DiagramOptions & { sourceUri: string; diagramType: string }),
            );
            this.statusMessageDiv.textContent = 'drawing…';
            await this.actionDispatcher.dispatch(response);
            this.statusMessageDiv.textContent = '';
            // a new diagram shows everything; later updates keep the user's zoom and scroll
            await this.actionDispatcher.dispatch(
                FitToScreenAction.create([], { padding: 20, maxZoom: 1, animate: false }),
            );
        } catch (error) {
            this.statusMessageDiv.textContent = error instanceof Error ? error.message : String(error);
        }
    }

    private toolbar(): HTMLElement {
        const bar = document.createElement('div');
        bar.className = 'chainlab-toolbar';
        const toggle = (key: 'showPorts' | 'showCosts', text: string) => {
            const box = Object.assign(document.createElement('input'), {
                type: 'checkbox',
                checked: this.options[key],
            });
            box.addEventListener('change', () => {
                this.options[key] = box.checked;
                void this.requestModel();
            });
            const label = document.createElement('label');
            label.append(box, ` ${text}`);
            return label;
        };
        const heuristic = document.createElement('select');
        heuristic.title = 'plan heuristic (plan views)';
        for (const h of ['', ...HEURISTICS])
            heuristic.append(
                Object.assign(document.createElement('option'), { value: h, textContent: h || "chain's heuristic" }),
            );
        heuristic.addEventListener('change', () => {
            this.options.heuristic = heuristic.value as Heuristic | '';
            void this.requestModel();
        });
        const exportSvg = Object.assign(document.createElement('button'), { textContent: 'Export SVG' });
        exportSvg.addEventListener('click', () => {
            void this.actionDispatcher.dispatch(RequestExportSvgAction.create());
        });
        bar.append(
            paletteSelect(this.editing, () => this.actionDispatcher),
            toggle('showPorts', 'ports'),
            toggle('showCosts', 'costs'),
            heuristic,
            exportSvg,
        );
        return bar;
    }
}
