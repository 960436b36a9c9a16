/**
 * The diagram's toolbar: zoom buttons (Fit, Readable, −, +, 100 %) in every view, and only the controls that mean
 * something in the view shown: the box palette, ports and costs in the box chain, the plan heuristic where a
 * plan is drawn (plan and thread lanes), and in the thread lanes after a run the `measured` overlay, named
 * after the run. Controls are plain HTML styled with VS Code's theme variables (diagram.css), so they look and
 * switch like the workbench's own.
 */
import type { IActionDispatcher } from 'sprotty';
import { RequestExportSvgAction } from 'sprotty-protocol';
import { HEURISTICS, type DiagramView, type Heuristic, type MeasuredRunFields } from '@chainlab/contract';
import type { ColourByPerView } from './options/colour-options.js';
import { createOptionsPanel, type OptionsPanel } from './options/options-panel.js';
import { ZOOM_STEP } from './zoom/viewport-math.js';
import { fitWhole, readableFit, zoomStep } from './zoom/zoom-commands.js';

export interface ToolbarOptions {
    showPorts: boolean;
    showCosts: boolean;
    heuristic: Heuristic | '';
    /** Thread lanes: the latest run's measured bars over the model's plan (off: the plan alone). */
    showMeasured: boolean;
    /** Plan and thread lanes: outline the critical path (a new model: the server marks it). */
    showCritical: boolean;
    /** Box chain and plan: the result each view is coloured by (the Options panel), kept per view. */
    colourBy?: ColourByPerView;
}

export interface ToolbarHost {
    dispatcher(): IActionDispatcher;
    /** The box palette (diagram-editing.ts), in the box-chain view only. */
    palette?: HTMLElement;
    /** Options that need a new model from the server; absent where the model is fixed (standalone page). */
    options?: ToolbarOptions;
    onOptionsChanged?(): void;
}

/** Which views show a control; the rest show it nowhere. */
const VIEWS_OF: Record<string, DiagramView[]> = {
    palette: ['chain'],
    ports: ['chain'],
    costs: ['chain'],
    heuristic: ['plan', 'lanes'],
    measured: ['lanes'],
    critical: ['plan', 'lanes'],
    options: ['chain', 'plan'],
};

export interface Toolbar {
    element: HTMLElement;
    /** Shows the controls of `view` and hides the others; `measured` only where the view has a run to overlay. */
    showView(view: DiagramView | undefined, run?: MeasuredRunFields): void;
}

export function createToolbar(host: ToolbarHost, bar: HTMLElement = document.createElement('div')): Toolbar {
    bar.classList.add('chainlab-toolbar');
    bar.setAttribute('role', 'toolbar');
    const dispatch = (action: Parameters<IActionDispatcher['dispatch']>[0]) => void host.dispatcher().dispatch(action);
    const zoom = document.createElement('span');
    zoom.className = 'chainlab-zoom';
    zoom.append(
        button('Fit', 'show the whole diagram', 'fit', () => dispatch(fitWhole())),
        button('Readable', 'as much of the diagram as fits at readable text size', 'readable', () =>
            dispatch(readableFit()),
        ),
        button('−', 'zoom out', 'zoom-out', () => dispatch(zoomStep({ factor: 1 / ZOOM_STEP }))),
        button('+', 'zoom in', 'zoom-in', () => dispatch(zoomStep({ factor: ZOOM_STEP }))),
        button('100 %', 'actual size', 'zoom-reset', () => dispatch(zoomStep({ zoom: 1 }))),
    );
    const controls: Array<[string, HTMLElement]> = [];
    if (host.palette) controls.push(['palette', host.palette]);
    const options = host.options;
    let measured: HTMLLabelElement | undefined;
    let panel: OptionsPanel | undefined;
    if (options) {
        const toggle = (key: 'showPorts' | 'showCosts' | 'showMeasured' | 'showCritical', text: string) => {
            const box = Object.assign(document.createElement('input'), { type: 'checkbox', checked: options[key] });
            box.addEventListener('change', () => {
                options[key] = box.checked;
                host.onOptionsChanged?.();
            });
            const label = document.createElement('label');
            label.append(box, ` ${text}`);
            return label;
        };
        const heuristic = document.createElement('select');
        heuristic.title = 'plan heuristic';
        for (const h of ['', ...HEURISTICS])
            heuristic.append(
                Object.assign(document.createElement('option'), { value: h, textContent: h || "chain's heuristic" }),
            );
        heuristic.addEventListener('change', () => {
            options.heuristic = heuristic.value as Heuristic | '';
            host.onOptionsChanged?.();
        });
        controls.push(['ports', toggle('showPorts', 'ports')], ['costs', toggle('showCosts', 'costs')]);
        controls.push(['heuristic', heuristic], ['critical', toggle('showCritical', 'critical path')]);
        measured = toggle('showMeasured', 'measured');
        controls.push(['measured', measured]);
        panel = createOptionsPanel({ options, onChanged: () => host.onOptionsChanged?.() });
        controls.push(['options', panel.element]);
    }
    for (const [name, control] of controls) control.dataset.control = name;
    const exportSvg = button('Export SVG', 'save the diagram as an SVG file', 'export', () =>
        dispatch(RequestExportSvgAction.create()),
    );
    bar.append(zoom, ...controls.map(([, c]) => c), exportSvg);
    return {
        element: bar,
        showView(view, run) {
            for (const [name, control] of controls) control.hidden = !view || !VIEWS_OF[name].includes(view);
            panel?.showView(view);
            if (!measured) return;
            // the run it draws is named on the toggle, so the user knows what the overlay shows before picking it
            measured.hidden ||= !run;
            measured.lastChild!.textContent = ` measured: ${run?.run ?? ''}${run?.overloaded ? ' (overloaded)' : ''}`;
            measured.title = run?.overloaded
                ? 'draw the run over the plan: it fell behind its period, its bars run past the axis and are cut there'
                : "draw the latest run's measured bars under the predicted ones";
        },
    };
}

function button(text: string, title: string, name: string, click: () => void): HTMLButtonElement {
    const b = Object.assign(document.createElement('button'), { textContent: text, title, type: 'button' });
    b.dataset.control = name;
    b.addEventListener('click', click);
    return b;
}
