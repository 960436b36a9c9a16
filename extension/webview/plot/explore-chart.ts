/**
 * An offset sweep: the objective over one component's offset as a line, over two as a heat map. The best point is
 * marked, and where the model is now; an objective no swept offset changes is drawn flat around its value and
 * said in words (its rounding noise is not a curve).
 */
import * as Plot from '@observablehq/plot';
import type { ExplorePlotData } from '../../src/explore-data';
import { formatMs, formatNumber, formatProbability } from '../../src/number-format';
import { element, tagged } from './dom';
import { linearAxis, type AxisTicks } from './scales';
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

const samePlace = (a: SweepPoint, b: SweepPoint | undefined) => b !== undefined && a.x === b.x && a.y === b.y;

/**
 * The objective's axis (or colour scale): its ticks with the digits the data's range needs; a flat objective gets
 * ±10 % around its value, where its rounding noise draws a straight line.
 */
function valueAxis(d: ExplorePlotData, count: number): AxisTicks {
    const values = d.points.map(p => p.value);
    if (!d.flat) return linearAxis(Math.min(...values), Math.max(...values), count);
    const value = d.best.value;
    const half = Math.abs(value) * 0.1 || (d.unit === 'ms' ? 1 : 1e-3);
    return linearAxis(Math.max(0, value - half), value + half, count);
}

/** The label at the best point (or, for a flat objective, at the current one). */
function pointLabel(d: ExplorePlotData, p: SweepPoint): string {
    const value = `${formatMs(p.x)} → ${valueFormat(d)(p.value)}`;
    if (d.flat) return `now: ${value}`;
    return `best: ${value}${samePlace(p, d.current) ? ' (now)' : ''}`;
}

function sweepLine(d: ExplorePlotData, width: number): SVGSVGElement | HTMLElement {
    const points = [...d.points].sort((a, b) => a.x - b.x);
    const axis = valueAxis(d, 6);
    // the flat objective's mark is the model's point: its value at every offset
    const marked = d.flat && d.current ? d.current : d.best;
    const elsewhere = !d.flat && d.current && !samePlace(d.best, d.current) ? [d.current] : [];
    // ticks with more digits (200.0025) need more room left of the axis, clear of its title
    const widest = Math.max(...axis.ticks.map(t => axis.format(t).length));
    const line = Plot.plot({
        ...common(width),
        marginLeft: Math.max(72, 34 + 7 * widest),
        height: Math.round(Math.min(460, Math.max(280, width * 0.45))),
        x: { ...xAxis(d), ticks: Math.max(3, Math.floor(width / 110)) },
        y: {
            label: d.objective,
            labelAnchor: 'center',
            labelArrow: 'none',
            grid: true,
            domain: axis.domain,
            ticks: axis.ticks,
            tickFormat: axis.format,
            // room under the lowest point for the best's label: the best is the minimum, so nothing else is
            // drawn below it and the label meets no line (above the dot, a steep line ran through it)
            insetBottom: 28,
            insetTop: 8,
        },
        marks: [
            Plot.line(points, { x: 'x', y: 'value', stroke: COLOURS[0], strokeWidth: 2, className: 'series' }),
            Plot.dot(points, { x: 'x', y: 'value', r: 2.5, fill: COLOURS[0] }),
            // where the model is now, when the best is elsewhere
            Plot.ruleX(elsewhere, { x: 'x', stroke: FOREGROUND, strokeDasharray: '6 4', className: 'current' }),
            Plot.text(elsewhere, {
                x: 'x',
                frameAnchor: 'top',
                dy: 12,
                dx: 4,
                textAnchor: 'start',
                text: () => 'now',
                fill: FOREGROUND,
                stroke: BACKGROUND,
                strokeWidth: 3,
                className: 'current-label',
            }),
            Plot.dot([marked], {
                x: 'x',
                y: 'value',
                r: 7,
                stroke: FOREGROUND,
                strokeWidth: 2,
                className: d.flat ? 'current' : 'best',
            }),
            Plot.text([marked], {
                x: 'x',
                y: 'value',
                text: (p: SweepPoint) => pointLabel(d, p),
                dy: 18,
                fill: FOREGROUND,
                stroke: BACKGROUND,
                strokeWidth: 3,
                className: 'best-label',
            }),
            // a flat objective in words inside the chart, so an exported image says it too
            Plot.text(d.flat && d.note ? [d.note] : [], {
                frameAnchor: 'top',
                dy: 14,
                text: (note: string) => note,
                fill: FOREGROUND,
                stroke: BACKGROUND,
                strokeWidth: 3,
                className: 'flat-note',
            }),
            Plot.tip(points, Plot.pointerX({ x: 'x', y: 'value', title: tipOf(d) })),
            Plot.frame({ stroke: FOREGROUND, strokeOpacity: 0.35 }),
        ],
    });
    return tagged(line, 'plot-explore-line', ...(d.flat ? ['flat'] : []));
}

/**
 * A band axis labels every offset: thinned to what fits, on the sweep's step (the current offset the step
 * misses is a band of its own but no tick: 0, 6, 12, not 0, 6, 8).
 */
function every(values: number[], room: number): number[] {
    const gaps = values.slice(1).map((v, i) => Number((v - values[i]).toPrecision(9)));
    const count = new Map<number, number>();
    for (const gap of gaps) count.set(gap, (count.get(gap) ?? 0) + 1);
    const step = [...count].sort((a, b) => b[1] - a[1])[0]?.[0];
    const onStep = (v: number) =>
        step === undefined || Math.abs((v - values[0]) / step - Math.round((v - values[0]) / step)) < 1e-6;
    const regular = values.filter(onStep);
    return regular.filter((_, i) => i % Math.ceil(regular.length / room) === 0);
}

/** The colour scale: lower is better, so the best is the brightest; log where probabilities span decades. */
function colourScale(d: ExplorePlotData): { options: Plot.ScaleOptions; format: (v: number) => string } {
    const values = d.points.map(p => p.value).filter(v => v > 0);
    const log =
        !d.flat && d.unit === 'probability' && values.length > 0 && Math.max(...values) / Math.min(...values) > 100;
    if (log) return { options: { type: 'log', scheme: 'viridis', reverse: true }, format: formatNumber };
    const axis = valueAxis(d, 5);
    return {
        options: { type: 'linear', scheme: 'viridis', reverse: true, domain: axis.domain, ticks: axis.ticks },
        format: axis.format,
    };
}

function heatMap(d: ExplorePlotData, width: number): HTMLElement {
    const xs = [...new Set(d.points.map(p => p.x))].sort((a, b) => a - b);
    const ys = [...new Set(d.points.map(p => p.y!))].sort((a, b) => a - b);
    const height = Math.round(Math.min(560, Math.max(300, width * 0.55)));
    const colour = colourScale(d);
    const logColour = colour.options.type === 'log';
    const elsewhere = d.current && !samePlace(d.best, d.current) ? [d.current] : [];
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
        color: colour.options,
        marks: [
            Plot.cell(d.points, {
                x: 'x',
                y: 'y',
                // a flat objective is one colour: its rounding noise would otherwise pick one shade or the next
                fill: (p: SweepPoint) => (d.flat ? d.best.value : logColour && p.value <= 0 ? null : p.value),
                inset: 0.5,
                className: 'cells',
            }),
            Plot.cell(elsewhere, {
                x: 'x',
                y: 'y',
                stroke: FOREGROUND,
                strokeWidth: 2,
                strokeDasharray: '4 3',
                fill: 'none',
                className: 'current',
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
        color: { ...chart.scale('color'), label: d.objective, tickFormat: colour.format },
        width: Math.min(440, width - 100),
        marginLeft: 12,
        style: { color: FOREGROUND, background: 'transparent' },
    });
    legend.classList.add('colour-legend');
    return element(
        'div',
        { class: 'heatmap' },
        legend,
        tagged(chart, 'plot-explore-heatmap', ...(d.flat ? ['flat'] : [])),
    );
}

export function exploreChartElement(d: ExplorePlotData, width: number): SVGSVGElement | HTMLElement {
    return d.vary.length === 1 ? sweepLine(d, width) : heatMap(d, width);
}
