/**
 * What is on screen as a file: one standalone SVG with the view's title, its legend and the chart (the theme's
 * colours resolved into the file, since a viewer has no --vscode-* variables), and a PNG drawn from that SVG
 * through a canvas at twice the size.
 */

/** A file name from the panel's key: `run 20261124-214422-Small-here` → `run-20261124-214422-Small-here.svg`. */
export function exportName(key: string, format: string): string {
    return `${key.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '') || 'plot'}.${format}`;
}

const SVG = 'http://www.w3.org/2000/svg';

const INLINED = [
    'fill',
    'fill-opacity',
    'stroke',
    'stroke-opacity',
    'stroke-width',
    'stroke-dasharray',
    'font-family',
    'font-size',
    'font-weight',
    'color',
    'opacity',
    'paint-order',
] as const;

function svgElement<K extends keyof SVGElementTagNameMap>(
    tag: K,
    attrs: Record<string, string | number>,
): SVGElementTagNameMap[K] {
    const e = document.createElementNS(SVG, tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    return e;
}

/**
 * A computed colour in the notation every SVG viewer reads: Chromium writes the relative colours of plot.css as
 * color(srgb r g b), which image viewers and editors do not know.
 */
export function portableColour(value: string): string {
    return value.replace(
        /color\(srgb ([\d.e-]+) ([\d.e-]+) ([\d.e-]+)(?: \/ ([\d.e-]+))?\)/g,
        (_, r: string, g: string, b: string, a?: string) => {
            const [red, green, blue] = [r, g, b].map(v => Math.round(Math.min(1, Math.max(0, Number(v))) * 255));
            return a === undefined ? `rgb(${red}, ${green}, ${blue})` : `rgba(${red}, ${green}, ${blue}, ${a})`;
        },
    );
}

/** A copy of an svg of the page with every element's computed colours and fonts written into it. */
function inlined(svg: SVGSVGElement): SVGSVGElement {
    const copy = svg.cloneNode(true) as SVGSVGElement;
    const originals = [svg, ...Array.from(svg.querySelectorAll('*'))];
    const copies = [copy, ...Array.from(copy.querySelectorAll('*'))];
    originals.forEach((original, i) => {
        const style = getComputedStyle(original);
        const target = copies[i] as SVGElement;
        target.setAttribute('style', INLINED.map(p => `${p}:${portableColour(style.getPropertyValue(p))}`).join(';'));
        // the attributes that name theme variables: the style above has their values
        for (const name of ['fill', 'stroke', 'color'])
            if (target.getAttribute(name)?.includes('var(')) target.removeAttribute(name);
    });
    Array.from(copy.querySelectorAll('style')).forEach(s => s.remove()); // resolved above; it only named CSS variables
    return copy;
}

/** Text of the page's font, measured as the canvas draws it. */
function measurer(font: string): (text: string) => number {
    const context = document.createElement('canvas').getContext('2d');
    if (!context) return text => text.length * 7;
    context.font = font;
    return text => context.measureText(text).width;
}

const fontOf = (e: Element) => {
    const s = getComputedStyle(e);
    return { font: `${s.fontWeight} ${s.fontSize} ${s.fontFamily}`, style: s };
};

/** The title in as many lines as the width needs, word by word. */
function wrapped(text: string, width: number, measure: (t: string) => number): string[] {
    const lines: string[] = [];
    for (const word of text.split(' ')) {
        const last = lines.at(-1);
        if (last !== undefined && measure(`${last} ${word}`) <= width) lines[lines.length - 1] = `${last} ${word}`;
        else lines.push(word);
    }
    return lines;
}

interface Layout {
    out: SVGSVGElement;
    width: number;
    y: number;
}

const PAD = 10;

function addTitle(layout: Layout, heading: Element | null): void {
    if (!heading?.textContent) return;
    const { font, style } = fontOf(heading);
    const size = parseFloat(style.fontSize) || 14;
    for (const line of wrapped(heading.textContent, layout.width - 2 * PAD, measurer(font))) {
        layout.y += size * 1.3;
        const text = svgElement('text', { x: PAD, y: layout.y, class: 'export-title' });
        text.setAttribute('style', `fill:${portableColour(style.color)};font:${font}`);
        text.textContent = line;
        layout.out.append(text);
    }
    layout.y += 6;
}

/** The legend's items as the panel lays them out: a swatch (dashed for compared curves) and the name, in rows. */
function addLegend(layout: Layout, items: Element[]): void {
    if (!items.length) return;
    const { font, style } = fontOf(items[0]);
    const measure = measurer(font);
    const row = 18;
    let x = PAD;
    layout.y += row;
    for (const item of items) {
        const swatch = item.querySelector('.swatch');
        const label = (item.textContent ?? '').trim();
        const width = 22 + 6 + measure(label);
        if (x > PAD && x + width > layout.width - PAD) {
            x = PAD;
            layout.y += row;
        }
        const line = svgElement('line', {
            x1: x,
            x2: x + 22,
            y1: layout.y - 4,
            y2: layout.y - 4,
            class: 'export-swatch',
        });
        const swatchStyle = swatch ? getComputedStyle(swatch) : style;
        const dashed = swatchStyle.borderTopStyle === 'dashed' ? ';stroke-dasharray:5 3' : '';
        line.setAttribute('style', `stroke:${portableColour(swatchStyle.borderTopColor)};stroke-width:3${dashed}`);
        const text = svgElement('text', { x: x + 28, y: layout.y, class: 'export-legend' });
        text.setAttribute('style', `fill:${portableColour(style.color)};font:${font}`);
        text.textContent = label;
        layout.out.append(line, text);
        x += width + 18;
    }
    layout.y += 8;
}

/** An svg of the page into the file at the current height. */
function addSvg(layout: Layout, svg: SVGSVGElement | null): void {
    if (!svg) return;
    const copy = inlined(svg);
    copy.setAttribute('x', '0');
    copy.setAttribute('y', String(layout.y));
    copy.setAttribute('overflow', 'visible');
    layout.out.append(copy);
    layout.y += svg.height.baseVal.value || svg.getBoundingClientRect().height;
}

export interface ExportedSvg {
    text: string;
    width: number;
    height: number;
}

/** The view under `root` as one SVG: title, legend (or a heat map's colour scale), chart; on its background. */
export function exportedSvg(root: HTMLElement, background: string): ExportedSvg | undefined {
    const chart = root.querySelector<SVGSVGElement>('svg.plot-chart');
    if (!chart) return undefined;
    const width = chart.width.baseVal.value || chart.getBoundingClientRect().width;
    const layout: Layout = { out: svgElement('svg', { xmlns: SVG, width }), width, y: 0 };
    addTitle(layout, root.querySelector('h2'));
    addLegend(layout, Array.from(root.querySelectorAll('.legend-item')));
    addSvg(layout, root.querySelector<SVGSVGElement>('svg.colour-legend'));
    addSvg(layout, chart);
    const height = Math.ceil(layout.y + 4);
    layout.out.setAttribute('height', String(height));
    layout.out.setAttribute('viewBox', `0 0 ${width} ${height}`);
    layout.out.insertBefore(
        svgElement('rect', { width: '100%', height: '100%', fill: background }),
        layout.out.firstChild,
    );
    return { text: new XMLSerializer().serializeToString(layout.out), width, height };
}

/** The SVG text drawn on a canvas at twice its size: a PNG as base64. */
export async function pngOf(svgText: string, width: number, height: number): Promise<string> {
    const image = new Image();
    const loaded = new Promise<void>((resolve, reject) => {
        image.onload = () => resolve();
        image.onerror = () => reject(new Error('the SVG did not load as an image'));
    });
    let binary = '';
    for (const byte of new TextEncoder().encode(svgText)) binary += String.fromCharCode(byte);
    image.src = `data:image/svg+xml;base64,${btoa(binary)}`;
    await loaded;
    const canvas = document.createElement('canvas');
    canvas.width = width * 2;
    canvas.height = height * 2;
    const context = canvas.getContext('2d')!;
    context.scale(2, 2);
    context.drawImage(image, 0, 0, width, height);
    return canvas.toDataURL('image/png').replace(/^data:image\/png;base64,/, '');
}
