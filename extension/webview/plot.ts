/**
 * The latency plot view (a plain webview, no network, no inline script): CDF and PMF of predicted and
 * measured distributions as SVG, requirement lines, a stats table; hover shows the values under the
 * cursor, the mouse wheel zooms the time axis, a double click resets it.
 */
import type { PlotData } from '../src/plot-data.js';

const NS = 'http://www.w3.org/2000/svg';
const COLORS = ['#0a66d8', '#d84a0a', '#2e7d32', '#8e24aa', '#6d4c41'];
const W = 720,
    H = 260,
    M = { left: 52, right: 16, top: 14, bottom: 32 };
let data: PlotData | undefined;
let domain: [number, number] = [0, 1];

function el<K extends keyof SVGElementTagNameMap>(
    name: K,
    attrs: Record<string, string | number>,
    text?: string,
): SVGElementTagNameMap[K] {
    const e = document.createElementNS(NS, name);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, String(v));
    if (text !== undefined) e.textContent = text;
    return e;
}

const sx = (v: number) => M.left + ((v - domain[0]) / (domain[1] - domain[0] || 1)) * (W - M.left - M.right);
const sy = (p: number, top: number) => H - M.bottom - (p / (top || 1)) * (H - M.top - M.bottom);

function cdf(points: Array<[number, number]>): Array<[number, number]> {
    const total = points.reduce((s, [, p]) => s + p, 0) || 1;
    let cum = 0;
    return [...points].sort((a, b) => a[0] - b[0]).map(([v, p]) => [v, (cum += p / total)]);
}

function chart(kind: 'cdf' | 'pmf'): SVGSVGElement {
    const svg = el('svg', { width: W, height: H, viewBox: `0 0 ${W} ${H}`, class: `plot plot-${kind}` });
    const series = data!.series.map(s => ({ ...s, drawn: kind === 'cdf' ? cdf(s.points) : s.points }));
    const top = kind === 'cdf' ? 1 : Math.max(...series.flatMap(s => s.drawn.map(([, p]) => p)), 1e-9);
    svg.append(
        el('line', { x1: M.left, y1: H - M.bottom, x2: W - M.right, y2: H - M.bottom, class: 'axis' }),
        el('line', { x1: M.left, y1: M.top, x2: M.left, y2: H - M.bottom, class: 'axis' }),
    );
    for (let i = 0; i <= 5; i++) {
        const v = domain[0] + (i / 5) * (domain[1] - domain[0]);
        svg.append(el('text', { x: sx(v), y: H - 10, class: 'tick', 'text-anchor': 'middle' }, `${+v.toFixed(3)}`));
        const p = (i / 5) * top;
        svg.append(
            el(
                'text',
                { x: M.left - 6, y: sy(p, top) + 4, class: 'tick', 'text-anchor': 'end' },
                kind === 'cdf' ? p.toFixed(1) : p.toPrecision(2),
            ),
        );
    }
    svg.append(el('text', { x: W - M.right, y: H - 10, class: 'tick', 'text-anchor': 'end' }, 'ms'));
    const clip = el('clipPath', { id: `clip-${kind}` });
    clip.append(el('rect', { x: M.left, y: 0, width: W - M.left - M.right, height: H }));
    svg.append(clip);
    const plot = el('g', { 'clip-path': `url(#clip-${kind})` });
    series.forEach((s, i) => {
        let d = '';
        if (kind === 'cdf') {
            let last = 0;
            for (const [v, c] of s.drawn) {
                d += `${d ? 'L' : 'M'}${sx(v)},${sy(last, 1)} L${sx(v)},${sy(c, 1)} `;
                last = c;
            }
            d += `L${W},${sy(1, 1)}`;
        } else {
            for (const [v, p] of s.drawn) d += `M${sx(v)},${sy(0, top)} L${sx(v)},${sy(p, top)} `;
        }
        plot.append(el('path', { d, class: `series series-${s.kind}`, stroke: COLORS[i % COLORS.length] }));
    });
    for (const r of data!.requirements) {
        plot.append(el('line', { x1: sx(r.ms), y1: M.top, x2: sx(r.ms), y2: H - M.bottom, class: 'requirement' }));
        plot.append(el('text', { x: sx(r.ms) + 4, y: M.top + 10, class: 'requirement-label' }, r.label));
    }
    svg.append(plot);
    const cursor = el('line', { x1: 0, y1: M.top, x2: 0, y2: H - M.bottom, class: 'cursor', visibility: 'hidden' });
    const readout = el('text', { x: M.left + 8, y: M.top + 12, class: 'readout' });
    svg.append(cursor, readout);
    svg.addEventListener('mousemove', e => {
        const x = (e.offsetX / svg.clientWidth) * W;
        const v = domain[0] + ((x - M.left) / (W - M.left - M.right)) * (domain[1] - domain[0]);
        cursor.setAttribute('x1', String(x));
        cursor.setAttribute('x2', String(x));
        cursor.setAttribute('visibility', 'visible');
        readout.textContent =
            `${v.toFixed(3)} ms: ` +
            series
                .map(s => {
                    const at =
                        kind === 'cdf'
                            ? ([...s.drawn].reverse().find(([pv]) => pv <= v)?.[1] ?? 0)
                            : s.drawn.reduce(
                                  (best, pt) => (Math.abs(pt[0] - v) < Math.abs(best[0] - v) ? pt : best),
                                  [Infinity, 0],
                              )[1];
                    return `${s.name} ${kind === 'cdf' ? 'F' : 'p'}=${at.toPrecision(4)}`;
                })
                .join(', ');
    });
    svg.addEventListener('mouseleave', () => {
        cursor.setAttribute('visibility', 'hidden');
        readout.textContent = '';
    });
    svg.addEventListener(
        'wheel',
        e => {
            e.preventDefault();
            const x = (e.offsetX / svg.clientWidth) * W;
            const at = domain[0] + ((x - M.left) / (W - M.left - M.right)) * (domain[1] - domain[0]);
            const factor = e.deltaY < 0 ? 0.8 : 1.25;
            domain = [at - (at - domain[0]) * factor, at + (domain[1] - at) * factor];
            render();
        },
        { passive: false },
    );
    svg.addEventListener('dblclick', () => {
        resetDomain();
        render();
    });
    return svg;
}

function resetDomain(): void {
    const values = data!.series.flatMap(s => s.points.map(([v]) => v)).concat(data!.requirements.map(r => r.ms));
    const lo = Math.min(...values),
        hi = Math.max(...values);
    const pad = (hi - lo) * 0.05 || 1;
    domain = [Math.max(0, lo - pad), hi + pad];
}

function render(): void {
    const root = document.getElementById('plot')!;
    root.replaceChildren();
    if (!data) return;
    const legend = document.createElement('div');
    legend.className = 'legend';
    data.series.forEach((s, i) => {
        const item = document.createElement('span');
        item.textContent = `■ ${s.name}`;
        item.style.color = COLORS[i % COLORS.length];
        legend.append(item);
    });
    const table = document.createElement('table');
    table.className = 'stats';
    table.innerHTML = '<tr><th></th><th>mean ms</th><th>p50 ms</th><th>p99 ms</th><th>max ms</th><th>loss</th></tr>';
    for (const s of data.stats) {
        const row = table.insertRow();
        for (const cell of [
            s.name,
            s.mean.toFixed(3),
            String(+s.p50.toFixed(3)),
            String(+s.p99.toFixed(3)),
            String(+s.max.toFixed(3)),
            s.loss === undefined ? '-' : s.loss.toPrecision(3),
        ]) {
            row.insertCell().textContent = cell;
        }
        row.dataset.series = s.name;
    }
    const heading = document.createElement('h2');
    heading.textContent = data.title;
    const warnings = (data.warnings ?? []).map(text => {
        const banner = document.createElement('div');
        banner.className = 'warning';
        banner.setAttribute('role', 'alert');
        banner.textContent = `⚠ ${text}`;
        return banner;
    });
    root.append(heading, ...warnings, legend, chart('cdf'), chart('pmf'), table);
}

window.addEventListener('message', event => {
    data = event.data as PlotData;
    resetDomain();
    render();
});
(globalThis as unknown as { acquireVsCodeApi?: () => { postMessage(m: unknown): void } })
    .acquireVsCodeApi?.()
    .postMessage({ ready: true });
