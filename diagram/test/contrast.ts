/**
 * WCAG 2 contrast of every visible text on a page: its computed fill (SVG) or colour (HTML) against the
 * first painted thing behind its centre (an SVG shape's fill, an element's background colour, else the
 * page's). Runs inside the page (page.evaluate); returns the texts under `minimum`.
 */
export interface Offender {
    text: string;
    ratio: number;
    fg: string;
    bg: string;
}

export function contrastOffenders(minimum: number): { checked: number; offenders: Offender[]; lowest: Offender } {
    const parse = (c: string): number[] | undefined => {
        const m = /rgba?\(([^)]+)\)/.exec(c);
        if (!m) return undefined;
        const [r, g, b, a = 1] = m[1].split(/[ ,/]+/).map(Number);
        return a === 0 ? undefined : [r, g, b];
    };
    const luminance = ([r, g, b]: number[]) => {
        const lin = (v: number) => ((v /= 255) <= 0.03928 ? v / 12.92 : Math.pow((v + 0.055) / 1.055, 2.4));
        return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
    };
    const painted = (e: Element): number[] | undefined => {
        const style = getComputedStyle(e);
        if (e instanceof SVGElement) return e instanceof SVGGeometryElement ? parse(style.fill) : undefined;
        return parse(style.backgroundColor);
    };
    const offenders: Offender[] = [];
    let checked = 0;
    let lowest: Offender = { text: '', ratio: Infinity, fg: '', bg: '' };
    const texts = [
        ...document.querySelectorAll('svg text'),
        ...[...document.querySelectorAll('body *')].filter(
            e => !(e instanceof SVGElement) && [...e.childNodes].some(n => n.nodeType === 3 && n.textContent!.trim()),
        ),
    ];
    for (const t of texts) {
        const box = t.getBoundingClientRect();
        const x = box.x + box.width / 2,
            y = box.y + box.height / 2;
        if (!box.width || x < 0 || y < 0 || x > innerWidth || y > innerHeight) continue;
        if (getComputedStyle(t).visibility === 'hidden' || !(t.textContent ?? '').trim()) continue;
        const fgColour = t instanceof SVGElement ? getComputedStyle(t).fill : getComputedStyle(t).color;
        const fg = parse(fgColour);
        if (!fg) continue;
        let bg: number[] | undefined;
        for (const e of document.elementsFromPoint(x, y)) {
            if (e === t || t.contains(e)) continue;
            bg = painted(e);
            if (bg) break;
        }
        bg ??= parse(getComputedStyle(document.body).backgroundColor) ?? [255, 255, 255];
        const [l1, l2] = [luminance(fg), luminance(bg)].sort((a, b) => b - a);
        const ratio = (l1 + 0.05) / (l2 + 0.05);
        checked++;
        const found = {
            text: (t.textContent ?? '').trim().slice(0, 40),
            ratio: Math.round(ratio * 100) / 100,
            fg: fgColour,
            bg: `rgb(${bg.join(',')})`,
        };
        if (ratio < minimum) offenders.push(found);
        if (ratio < lowest.ratio) lowest = found;
    }
    return { checked, offenders, lowest };
}
