/** The few DOM helpers every part of the plot view builds with. */

export function element<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attrs: Record<string, string> = {},
    ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...children);
    return e;
}

export function button(label: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
    // the label in a span of its own: what is painted behind it is the button's background
    const b = element('button', { type: 'button', ...attrs }, element('span', {}, label));
    b.addEventListener('click', onClick);
    return b;
}

/** Marks the chart's own svg (not a legend's) with our classes: Plot takes one class name only. */
export function tagged(chart: SVGSVGElement | HTMLElement, ...classes: string[]): SVGSVGElement | HTMLElement {
    const svg = chart instanceof SVGSVGElement ? chart : chart.querySelector(':scope > svg:not([class$="-ramp"])');
    svg?.classList.add('plot-chart', ...classes);
    return chart;
}
