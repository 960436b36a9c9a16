/**
 * Percentile labels of several curves meet (p99 of two runs at the same height), or leave the frame: such a label
 * goes to the other side of its dot, and where it meets a text there too it is left out (its dot stays, hover
 * names it); first curves first.
 */
export function declutter(root: HTMLElement): void {
    const svg = root.querySelector('svg.plot-chart');
    if (!svg) return;
    const labels = Array.from(svg.querySelectorAll<SVGTextElement>('g.marker-labels text, g.best-label text'));
    // every other text, and every marker dot: a label on another curve's dot hides it
    const kept = [
        ...Array.from(svg.querySelectorAll('text')).filter(t => !labels.includes(t)),
        ...Array.from(svg.querySelectorAll('g.markers circle')),
    ].map(t => t.getBoundingClientRect());
    const GAP = 2; // labels that touch read as one ("p50p50")
    const meets = (a: DOMRect, b: DOMRect) =>
        Math.min(a.right, b.right) - Math.max(a.left, b.left) > -GAP &&
        Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;
    const frame = svg.querySelector('[aria-label="frame"]')?.getBoundingClientRect();
    const free = (box: DOMRect) =>
        !(frame !== undefined && (box.right > frame.right + 20 || box.left < frame.left - 4)) &&
        !kept.some(k => meets(k, box));
    for (const label of labels) {
        let box = label.getBoundingClientRect();
        if (!free(box)) {
            // the other side of the dot: mirror the anchor and move by the label's offset twice
            const start = getComputedStyle(label).textAnchor !== 'end';
            label.setAttribute('text-anchor', start ? 'end' : 'start');
            label.setAttribute('dx', String(start ? -14 : 14));
            box = label.getBoundingClientRect();
        }
        if (free(box)) kept.push(box);
        else label.remove();
    }
}
