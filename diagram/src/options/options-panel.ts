/**
 * The toolbar's `Options` button and the small panel it opens (as KLighD's options sidebar, but a popover: the
 * panel is narrow): `Colour by` with the choices of the view shown. The panel closes on Escape, on a click
 * elsewhere and when the view changes; the choice is kept per view (colour-options.ts).
 */
import type { ColourBy, DiagramView } from '@chainlab/contract';
import '../../css/options.css';
import { choicesFor, colourByOf, type ColourByPerView } from './colour-options.js';

export interface OptionsPanelHost {
    /** The colouring picked per view (absent until the first pick), changed in place. */
    options: { colourBy?: ColourByPerView };
    /** A choice changed: ask the server for the view again. */
    onChanged(): void;
}

export interface OptionsPanel {
    /** The button and its panel, one toolbar control. */
    element: HTMLElement;
    /** Offers the choices of `view` and shows its current one. */
    showView(view: DiagramView | undefined): void;
}

export function createOptionsPanel(host: OptionsPanelHost): OptionsPanel {
    const element = document.createElement('span');
    element.className = 'chainlab-options';
    const toggle = Object.assign(document.createElement('button'), {
        type: 'button',
        textContent: 'Options ▾',
        title: 'diagram options: colour the boxes by a result',
    });
    toggle.setAttribute('aria-haspopup', 'true');
    toggle.setAttribute('aria-expanded', 'false');
    const panel = document.createElement('div');
    panel.className = 'chainlab-options-panel';
    panel.setAttribute('role', 'dialog');
    panel.setAttribute('aria-label', 'diagram options');
    panel.hidden = true;
    const select = document.createElement('select');
    select.id = 'chainlab-colour-by';
    select.dataset.control = 'colour-by';
    const label = Object.assign(document.createElement('label'), { htmlFor: select.id, textContent: 'Colour by' });
    panel.append(label, select);
    element.append(toggle, panel);
    let view: DiagramView | undefined;

    const open = (shown: boolean) => {
        panel.hidden = !shown;
        toggle.setAttribute('aria-expanded', String(shown));
        if (shown) select.focus();
    };
    toggle.addEventListener('click', () => open(panel.hidden));
    select.addEventListener('change', () => {
        if (!view) return;
        (host.options.colourBy ??= {})[view] = select.value as ColourBy;
        host.onChanged();
    });
    panel.addEventListener('keydown', event => {
        if (event.key !== 'Escape') return;
        open(false);
        toggle.focus();
    });
    document.addEventListener('pointerdown', event => {
        if (!element.contains(event.target as Node)) open(false);
    });

    return {
        element,
        showView(next) {
            if (next !== view) open(false);
            view = next;
            select.replaceChildren(
                ...choicesFor(view).map(c =>
                    Object.assign(document.createElement('option'), {
                        value: c.value,
                        textContent: c.text,
                        title: c.title,
                    }),
                ),
            );
            select.value = colourByOf(host.options.colourBy ?? {}, view);
        },
    };
}
