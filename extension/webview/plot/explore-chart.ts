/** An offset sweep: the objective over one component's offset as a line, over two as a heat map. */
import * as Plot from '@observablehq/plot';
import type { ExplorePlotData } from '../../src/explore-data';
import { formatMs, formatNumber, formatProbability } from '../../src/number-format';
import { element, tagged } from './dom';
import { BACKGROUND, COLOURS, FOREGROUND } from './theme';

type SweepPoint = ExplorePlotData['points'][number];

const valueFormat = (d: ExplorePlotData) => (v: number) => (d.unit === 'ms' ? formatMs(v) : formatProbability(v));

/** What the tip says of a point: its offsets and the objective there. */
const tipOf = (d: ExplorePlotData) => (p: { x: number; y?: number; value: number }) =>
    `${d.vary[0]} ${formatMs(p.x)}${d.vary[1] ? `, ${d.vary[1]} ${formatMs(p.y)}` : ''}\n${d.objective}: ${valueFormat(d)(p.value)}`;

const common = (width: number) => ({
    width,
    marginLeft: 72,
    marginRight: 24,
    marginBottom: 46,
    style: { color: FOREGROUND, background: 'transparent', fontSize: '12px' },
});

const xAxis = (d: ExplorePlotData) => ({
    label: `offset of ${d.vary[0]} (ms)`,
    labelAnchor: 'center' as const,
    labelArrow: 'none' as const,
    tickFormat: formatNumber,
});

function sweepLine(d: ExplorePlotData, width: number): SVGSVGElement | HTMLElement {
    const points = [...d.points].sort((a, b) => a.x - b.x);
    const values = points.map(p => p.value);
    const flat = Math.min(...values) === Math.max(...values) ? values[0] || 1 : undefined;
    const line = Plot.plot({
        ...common(width),
        height: Math.round(Math.min(460, Math.max(280, width * 0.45))),
        x: { ...xAxis(d), ticks: Math.max(3, Math.floor(width / 110)) },
        y: {
            label: d.objective,
            labelAnchor: 'center',
            labelArrow: 'none',
            grid: true,
            tickFormat: formatNumber,
            ticks: 6,
            nice: true,
            // room under the lowest point for the best's label: the best is the minimum, so nothing else is
            // drawn below it and the label meets no line (above the dot, a steep line ran through it)
            insetBottom: 28,
            insetTop: 8,
            // a flat objective (the offset does not matter) still gets an axis around its value
            ...(flat ? { domain: [flat * 0.9, flat * 1.1] } : {}),
        },
        marks: [
            Plot.line(points, { x: 'x', y: 'value', stroke: COLOURS[0], strokeWidth: 2, className: 'series' }),
            Plot.dot(points, { x: 'x', y: 'value', r: 2.5, fill: COLOURS[0] }),
            Plot.dot([d.best], { x: 'x', y: 'value', r: 7, stroke: FOREGROUND, strokeWidth: 2, className: 'best' }),
            Plot.text([d.best], {
                x: 'x',
                y: 'value',
                text: (p: SweepPoint) => `best: ${formatMs(p.x)} → ${valueFormat(d)(p.value)}`,
                dy: 18,
                fill: FOREGROUND,
                stroke: BACKGROUND,
                strokeWidth: 3,
                className: 'best-label',
            }),
            Plot.tip(points, Plot.pointerX({ x: 'x', y: 'value', title: tipOf(d) })),
            Plot.frame({ stroke: FOREGROUND, strokeOpacity: 0.35 }),
        ],
    });
    return tagged(line, 'plot-explore-line');
}

/** A band axis labels every offset: thinned to what fits. */
const every = (values: number[], room: number) => values.filter((_, i) => i % Math.ceil(values.length / room) === 0);

function heatMap(d: ExplorePlotData, width: number): HTMLElement {
    const xs = [...new Set(d.points.map(p => p.x))].sort((a, b) => a - b);
    const ys = [...new Set(d.points.map(p => p.y!))].sort((a, b) => a - b);
    const height = Math.round(Math.min(560, Math.max(300, width * 0.55)));
    const values = d.points.map(p => p.value).filter(v => v > 0);
    const logColour = d.unit === 'probability' && values.length > 0 && Math.max(...values) / Math.min(...values) > 100;
    const chart = Plot.plot({
        ...common(width),
        height,
        marginTop: 16,
        x: { ...xAxis(d), type: 'band', ticks: every(xs, Math.max(3, Math.floor(width / 70))) },
        y: {
            type: 'band',
            domain: ys,
            reverse: true,
            label: `offset of ${d.vary[1]} (ms)`,
            labelAnchor: 'center',
            labelArrow: 'none',
            ticks: every(ys, Math.max(3, Math.floor(height / 32))),
            tickFormat: formatNumber,
        },
        // lower is better: the best is the brightest
        color: { type: logColour ? 'log' : 'linear', scheme: 'viridis', reverse: true },
        marks: [
            Plot.cell(d.points, {
                x: 'x',
                y: 'y',
                fill: (p: SweepPoint) => (logColour && p.value <= 0 ? null : p.value),
                inset: 0.5,
                className: 'cells',
            }),
            Plot.cell([d.best], {
                x: 'x',
                y: 'y',
                stroke: FOREGROUND,
                strokeWidth: 3,
                fill: 'none',
                className: 'best',
            }),
            Plot.tip(d.points, Plot.pointer({ x: 'x', y: 'y', title: tipOf(d) })),
        ],
    });
    const legend = Plot.legend({
        color: { ...chart.scale('color'), label: d.objective, tickFormat: formatNumber },
        width: Math.min(440, width - 100),
        marginLeft: 12,
        style: { color: FOREGROUND, background: 'transparent' },
    });
    legend.classList.add('colour-legend');
    return element('div', { class: 'heatmap' }, legend, tagged(chart, 'plot-explore-heatmap'));
}

export function exploreChartElement(d: ExplorePlotData, width: number): SVGSVGElement | HTMLElement {
    return d.vary.length === 1 ? sweepLine(d, width) : heatMap(d, width);
}
