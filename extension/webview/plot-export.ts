/**
 * The chart as a file: a standalone SVG (the theme's colours resolved into the file, since a viewer has no
 * --vscode-* variables) and a PNG drawn from that SVG through a canvas at twice the size.
 */

/** A file name from the panel's key: `run 20261124-214422-Small-here` → `run-20261124-214422-Small-here.svg`. */
export function exportName(key: string, format: string): string {
    return `${key.replace(/[^\w.-]+/g, '-').replace(/^-|-$/g, '') || 'plot'}.${format}`;
}

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

/** The SVG as text, with every element's computed colours and fonts written into it and a background. */
export function svgOf(svg: SVGSVGElement, background: string): string {
    const copy = svg.cloneNode(true) as SVGSVGElement;
    const originals = [svg, ...Array.from(svg.querySelectorAll('*'))];
    const copies = [copy, ...Array.from(copy.querySelectorAll('*'))];
    originals.forEach((original, i) => {
        const style = getComputedStyle(original);
        const target = copies[i] as SVGElement;
        target.setAttribute('style', INLINED.map(p => `${p}:${style.getPropertyValue(p)}`).join(';'));
        // the attributes that name theme variables: the style above has their values
        for (const name of ['fill', 'stroke', 'color'])
            if (target.getAttribute(name)?.includes('var(')) target.removeAttribute(name);
    });
    Array.from(copy.querySelectorAll('style')).forEach(s => s.remove()); // resolved above; it only named CSS variables
    copy.setAttribute('xmlns', 'http://www.w3.org/2000/svg');
    const rect = document.createElementNS('http://www.w3.org/2000/svg', 'rect');
    rect.setAttribute('width', '100%');
    rect.setAttribute('height', '100%');
    rect.setAttribute('fill', background);
    copy.insertBefore(rect, copy.firstChild);
    return new XMLSerializer().serializeToString(copy);
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
