/**
 * What a user sees of a diagram, measured in the page (functions for page.evaluate, so self-contained): the
 * panel, where the nodes are, and the texts that are shown.
 */
export interface Rect {
    left: number;
    top: number;
    right: number;
    bottom: number;
}

export interface Seen {
    panel: Rect;
    /** The top-level nodes drawn (sprotty draws only those in view). */
    nodes: Rect[];
    texts: Array<Rect & { text: string }>;
}

export function seen(): Seen {
    const box = (e: Element): Rect => {
        const r = e.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const panel = box(document.querySelector('#sprotty svg')!);
    const nodes = [...document.querySelectorAll('svg.sprotty-graph > g > g.sprotty-node > rect.node-body')].map(box);
    const texts = [...document.querySelectorAll('svg.sprotty-graph > g text')]
        .filter(t => getComputedStyle(t).display !== 'none' && t.getBoundingClientRect().width > 0)
        .map(t => ({ ...box(t), text: t.textContent ?? '' }));
    return { panel, nodes, texts };
}

export const within = (r: Rect, panel: Rect) =>
    r.left >= panel.left - 0.5 &&
    r.top >= panel.top - 0.5 &&
    r.right <= panel.right + 0.5 &&
    r.bottom <= panel.bottom + 0.5;

/** Pairs of texts whose boxes overlap (by more than a pixel: glyph boxes of neighbouring lines touch). */
export function overlappingTexts(texts: Seen['texts']): string[] {
    const pairs: string[] = [];
    for (let i = 0; i < texts.length; i++)
        for (let j = i + 1; j < texts.length; j++) {
            const [a, b] = [texts[i], texts[j]];
            const x = Math.min(a.right, b.right) - Math.max(a.left, b.left);
            const y = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
            if (x > 1 && y > 1) pairs.push(`"${a.text}" / "${b.text}"`);
        }
    return pairs;
}

/** A model's top-level nodes, as the server laid them out (model units). */
export function modelNodes(
    model: Record<string, unknown>,
): Array<{ x: number; y: number; width: number; height: number }> {
    const children = (model.children ?? []) as Array<{
        position?: { x: number; y: number };
        size?: { width: number; height: number };
    }>;
    return children
        .filter(c => c.position && c.size && c.size.width > 0)
        .map(c => ({ x: c.position!.x, y: c.position!.y, width: c.size!.width, height: c.size!.height }));
}

/** Where the whole drawing (all its nodes, drawn or not) lies in the panel, in CSS px from the panel's corner. */
export function drawingOnScreen(
    nodes: ReturnType<typeof modelNodes>,
    viewport: { zoom: number; scroll: { x: number; y: number } },
): Rect {
    const { zoom, scroll } = viewport;
    return {
        left: (Math.min(...nodes.map(n => n.x)) - scroll.x) * zoom,
        top: (Math.min(...nodes.map(n => n.y)) - scroll.y) * zoom,
        right: (Math.max(...nodes.map(n => n.x + n.width)) - scroll.x) * zoom,
        bottom: (Math.max(...nodes.map(n => n.y + n.height)) - scroll.y) * zoom,
    };
}
