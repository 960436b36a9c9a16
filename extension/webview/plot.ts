/**
 * The plot view (a plain webview, no network, no inline script), drawn with Observable Plot: the latency
 * distributions of an analysis or a run as CDF, log-scale CCDF (the tail down to 10⁻⁶) or PMF, with percentile
 * markers, requirement lines and their verdicts, KS in the legend; or an offset sweep as a line or a heat map.
 * Colours come from the theme's --vscode-* variables; every number is written in the one format.
 */
import * as Plot from '@observablehq/plot';
import { ccdf, cdf, histogram, niceStep, type Point } from '../src/distribution';
import type { ExplorePlotData } from '../src/explore-data';
import { formatCount, formatMs, formatNumber, formatProbability, powerOfTen } from '../src/number-format';
import { plotCsv } from '../src/plot-csv';
import type { PeriodsPlotData } from '../src/periods-data';
import type { LatencyPlotData, PlotMarker, PlotSeries } from '../src/plot-data';
import type { ExportFormat, PlotRequest, PlotViewData } from '../src/plot-messages';
import { exportName, pngOf, svgOf } from './plot-export';

type Mode = 'cdf' | 'ccdf' | 'pmf';

const vscode = (
    globalThis as unknown as { acquireVsCodeApi?: () => { postMessage(m: PlotRequest): void } }
).acquireVsCodeApi?.();
const post = (message: PlotRequest) => vscode?.postMessage(message);

/** Series colours: the theme's chart colours (VS Code defines them for every theme), fallbacks for a bare page. */
/** A percentile marker where it is drawn; a point of a curve under the pointer; a point of a sweep. */
type MarkerAt = PlotMarker & { p: number };
type CurvePoint = { ms: number; p: number; name: string };
type SweepPoint = ExplorePlotData['points'][number];

const COLOURS = [
    'var(--chainlab-chart-blue)',
    'var(--chainlab-chart-orange)',
    'var(--chainlab-chart-green)',
    'var(--chainlab-chart-purple)',
    'var(--chainlab-chart-yellow)',
];
const FAIL = 'var(--chainlab-chart-red)';
const FOREGROUND = 'var(--vscode-editor-foreground, #333)';
const BACKGROUND = 'var(--vscode-editor-background, #fff)';
/** The CCDF's lowest decade: tails are read down to one in a million (cyclictest/OSADL practice). */
const TAIL_FLOOR = 1e-6;

let data: PlotViewData | undefined;
let mode: Mode = 'cdf';
/** A log latency axis: for curves decades apart (a backlog next to its prediction); undefined = decide by the data. */
let logX: boolean | undefined;
/** The latency range zoomed into with the mouse wheel (a double click goes back to all of it). */
let zoomed: [number, number] | undefined;

/** A series' colour: the result's own curves first, then the compared ones (dashed) continue the palette. */
const colourOf = (d: LatencyPlotData, name: string) => {
    const ordered = [...d.series.filter(s => s.kind !== 'compared'), ...d.series.filter(s => s.kind === 'compared')];
    const i = ordered.findIndex(s => s.name === name);
    return COLOURS[Math.max(0, i) % COLOURS.length];
};

function element<K extends keyof HTMLElementTagNameMap>(
    tag: K,
    attrs: Record<string, string> = {},
    ...children: Array<Node | string>
): HTMLElementTagNameMap[K] {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
    e.append(...children);
    return e;
}

/** The width the chart gets: the panel's, so no half of it stays empty. */
const chartWidth = () => Math.max(360, Math.min(1400, (document.getElementById('plot')?.clientWidth ?? 720) - 4));

function latencies(d: LatencyPlotData): number[] {
    const values = d.series.flatMap(s => s.points.map(([ms]) => ms));
    values.push(...d.requirements.filter(r => r.ms !== undefined).map(r => r.ms!));
    return values;
}

/** Whether the data spans decades: then a linear axis squashes the short curves into a line at 0. */
function spansDecades(d: LatencyPlotData): boolean {
    const positive = latencies(d).filter(v => v > 0);
    return positive.length > 0 && Math.max(...positive) / Math.min(...positive) > 100;
}

function xDomain(d: LatencyPlotData, log: boolean): [number, number] {
    const values = latencies(d);
    if (log) {
        const positive = values.filter(v => v > 0);
        return [Math.min(...positive) / 1.25, Math.max(...positive) * 1.25];
    }
    const lo = Math.min(...values),
        hi = Math.max(...values);
    const pad = (hi - lo) * 0.04 || Math.abs(hi) * 0.1 || 1;
    return [Math.max(0, lo - pad), hi + pad];
}

/** Ticks of a log axis on the 1-2-5 ladder, thinned to 1s (then every other decade) until `room` ticks fit. */
function logTicks([lo, hi]: [number, number], room: number): number[] {
    const ladder = (factors: number[], every = 1) => {
        const ticks: number[] = [];
        for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); e++)
            if (e % every === 0)
                for (const f of factors) {
                    const v = Number((f * Math.pow(10, e)).toPrecision(3));
                    if (v >= lo && v <= hi) ticks.push(v);
                }
        return ticks;
    };
    for (const [factors, every] of [
        [[1, 2, 5], 1],
        [[1], 1],
        [[1], 2],
        [[1], 3],
    ] as Array<[number[], number]>) {
        const ticks = ladder(factors, every);
        if (ticks.length <= room) return ticks;
    }
    return ladder([1], 4);
}

/** The PMF's bin width: about 100 bins over the axis, on the 1-2-5 ladder. */
const pmfStep = (domain: [number, number]) => niceStep(domain[1] - domain[0], 100);

/** The curve of one series in the mode: steps of the CDF or tail, starting from the left of the frame. */
function curve(s: PlotSeries, m: 'cdf' | 'ccdf', left: number): Point[] {
    const points = m === 'cdf' ? cdf(s.points) : ccdf(s.points);
    if (!points.length) return [];
    const start: Point = [Math.min(left, points[0][0]), m === 'cdf' ? 0 : 1];
    // a tail that reaches 0 is drawn through the floor (a log axis has no 0)
    return [start, ...points].map(([ms, p]) => [ms, m === 'ccdf' ? Math.max(p, TAIL_FLOOR / 100) : p]);
}

function latencyMarks(d: LatencyPlotData, m: Mode, domain: [number, number]): Plot.Markish[] {
    const marks: Plot.Markish[] = [];
    const requirementsDrawn = d.requirements.filter(r => r.ms !== undefined);
    // requirement shading first, under the curves: where the curve must not go (CCDF: beyond the bound, above the
    // allowed exceedance)
    if (m === 'ccdf') {
        for (const r of requirementsDrawn.filter(r => r.exceedance !== undefined && r.exceedance > 0)) {
            marks.push(
                Plot.rect([r], {
                    x1: r.ms!,
                    x2: domain[1],
                    y1: Math.max(r.exceedance!, TAIL_FLOOR),
                    y2: 1,
                    fill: r.passed ? COLOURS[2] : FAIL,
                    fillOpacity: 0.08,
                    clip: true,
                    className: 'requirement-region',
                }),
            );
        }
    }
    if (m === 'pmf') {
        const step = pmfStep(domain);
        d.series.forEach(s => {
            const bins = histogram(s.points, step);
            const colour = colourOf(d, s.name);
            marks.push(
                Plot.rectY(bins, {
                    x1: (b: Point) => b[0],
                    x2: (b: Point) => b[0] + step,
                    y: (b: Point) => b[1],
                    fill: colour,
                    fillOpacity: 0.25,
                    stroke: colour,
                    strokeDasharray: s.kind === 'compared' ? '4 3' : undefined,
                    clip: true,
                    className: `series-${s.kind}`,
                }),
            );
        });
    } else {
        d.series.forEach(s => {
            marks.push(
                Plot.line(curve(s, m, domain[0]), {
                    x: (p: Point) => p[0],
                    y: (p: Point) => p[1],
                    curve: 'step-after',
                    stroke: colourOf(d, s.name),
                    strokeWidth: s.kind === 'predicted' ? 2.2 : 1.6,
                    strokeDasharray: s.kind === 'compared' ? '5 3' : undefined,
                    clip: true,
                    className: `series-${s.kind}`,
                }),
            );
        });
        // percentile markers on their curves, labelled where few curves leave room
        const markers = d.markers.map(k => ({
            ...k,
            p: m === 'cdf' ? Number(k.level) / 100 : 1 - Number(k.level) / 100,
        }));
        const labelled = d.series.filter(s => s.kind !== 'compared').length <= 2;
        marks.push(
            Plot.dot(markers, {
                x: 'ms',
                y: 'p',
                r: 3.5,
                fill: (k: MarkerAt) => colourOf(d, k.series),
                stroke: BACKGROUND,
                className: 'markers',
                title: (k: MarkerAt) => `${k.series}: p${k.level} = ${formatMs(k.ms)}`,
            }),
        );
        // p99 and p99.9 nearly meet on a linear CDF: one label left of its dot (above the curve), one below-right
        const placement: Record<string, { textAnchor: 'start' | 'end'; dx: number; dy: number }> =
            m === 'cdf'
                ? {
                      '50': { textAnchor: 'start', dx: 7, dy: 0 },
                      '99': { textAnchor: 'end', dx: -7, dy: 0 },
                      '99.9': { textAnchor: 'start', dx: 7, dy: 9 },
                  }
                : {
                      '50': { textAnchor: 'start', dx: 7, dy: -8 },
                      '99': { textAnchor: 'start', dx: 7, dy: -8 },
                      '99.9': { textAnchor: 'start', dx: 7, dy: -8 },
                  };
        for (const level of ['50', '99', '99.9']) {
            marks.push(
                Plot.text(
                    markers.filter(k => k.level === level),
                    {
                        x: 'ms',
                        y: 'p',
                        text: (k: MarkerAt) => (labelled ? `p${k.level} ${formatMs(k.ms)}` : `p${k.level}`),
                        ...placement[level],
                        fill: FOREGROUND,
                        stroke: BACKGROUND,
                        strokeWidth: 3,
                        className: 'marker-labels',
                    },
                ),
            );
        }
    }
    // requirement lines: the bound, its verdict (above the frame, one row each) and the allowed probability
    requirementsDrawn.forEach((r, i) => {
        const colour = r.passed ? FOREGROUND : FAIL;
        marks.push(
            Plot.ruleX([r.ms!], {
                stroke: colour,
                strokeDasharray: '6 4',
                strokeWidth: 1.5,
                clip: true,
                className: 'requirement',
            }),
        );
        const right = (r.ms! - domain[0]) / (domain[1] - domain[0]) > 0.6;
        marks.push(
            Plot.text([r], {
                x: r.ms!,
                frameAnchor: 'top',
                dy: -6 - (requirementsDrawn.length - 1 - i) * 16,
                textAnchor: right ? 'end' : 'start',
                lineAnchor: 'bottom',
                text: () => `${r.text}: ${r.passed ? 'PASS' : 'FAIL'}`,
                fill: FOREGROUND,
                fontWeight: 'bold',
                className: 'requirement-label',
            }),
        );
        if (r.exceedance !== undefined && m !== 'pmf') {
            const p = m === 'cdf' ? 1 - r.exceedance : Math.max(r.exceedance, TAIL_FLOOR);
            marks.push(Plot.dot([r], { x: r.ms!, y: p, symbol: 'times', r: 6, stroke: colour, strokeWidth: 2 }));
        }
    });
    if (m === 'ccdf') marks.push(...lossMarks(d));
    if (m !== 'pmf') {
        // the values under the pointer: every curve at that latency
        const all = d.series.flatMap(s => curve(s, m, domain[0]).map(([ms, p]) => ({ ms, p, name: s.name })));
        marks.push(
            Plot.tip(
                all,
                Plot.pointerX({
                    x: 'ms',
                    y: 'p',
                    title: (q: CurvePoint) =>
                        `${q.name}\n${formatMs(q.ms)}: ${m === 'cdf' ? 'P(≤)' : 'P(>)'} ${formatProbability(q.p)}`,
                }),
            ),
        );
    }
    return marks;
}

/**
 * Loss requirements on the CCDF: a lost frame never arrives, so the tail can never fall below the loss
 * probability. The limit and the loss found are levels (horizontal lines) labelled at the left, where the tail
 * leaves room (the curve is near 1 there): the upper label above its line, the lower one below its line. A level
 * under the axis' 10⁻⁶ is named at the floor and not drawn.
 */
function lossMarks(d: LatencyPlotData): Plot.Markish[] {
    const marks: Plot.Markish[] = [];
    for (const r of d.requirements.filter(r => r.loss !== undefined)) {
        const { limit, value } = r.loss!;
        const lines = [
            {
                level: limit,
                text: `${r.text}: ${r.passed ? 'PASS' : 'FAIL'}`,
                stroke: r.passed ? FOREGROUND : FAIL,
                dash: '6 4',
                className: 'loss-limit',
            },
            {
                level: value,
                text: value > 0 ? `lost frames ${formatProbability(value)}` : 'no frame lost',
                stroke: FOREGROUND,
                dash: '1 3',
                className: 'loss-level',
            },
        ]
            .map(line => ({ ...line, y: Math.max(line.level, TAIL_FLOOR), under: line.level < TAIL_FLOOR }))
            .sort((a, b) => b.y - a.y);
        lines.forEach((line, i) => {
            const atFloor = line.y < TAIL_FLOOR * 1.5;
            const below = i > 0 && !atFloor;
            if (!line.under)
                marks.push(
                    Plot.ruleY([line.y], {
                        stroke: line.stroke,
                        strokeDasharray: line.dash,
                        strokeWidth: 1.5,
                        className: line.className,
                    }),
                );
            marks.push(
                Plot.text([line], {
                    y: line.y,
                    frameAnchor: 'left',
                    // a second label on the floor goes beside the first
                    dx: i > 0 && atFloor ? Math.round(chartWidth() / 2) : 6,
                    dy: below ? 10 : -8,
                    textAnchor: 'start',
                    text: () => (line.under ? `${line.text} (below the axis)` : line.text),
                    fill: FOREGROUND,
                    stroke: BACKGROUND,
                    strokeWidth: 3,
                    fontWeight: line.className === 'loss-limit' ? 'bold' : 'normal',
                    className: `${line.className}-label`,
                }),
            );
        });
    }
    return marks;
}

/** Marks the chart's own svg (not a legend's) with our classes: Plot takes one class name only. */
function tagged(chart: SVGSVGElement | HTMLElement, ...classes: string[]): SVGSVGElement | HTMLElement {
    const svg = chart instanceof SVGSVGElement ? chart : chart.querySelector(':scope > svg:not([class$="-ramp"])');
    svg?.classList.add('plot-chart', ...classes);
    return chart;
}

/** The wheel zooms the latency axis around the pointer (in log space on a log axis); a double click resets it. */
function zoomable(chart: SVGSVGElement | HTMLElement, log: boolean): void {
    const x = (
        chart as unknown as {
            scale(name: 'x'): { domain: number[]; apply(v: number): number; invert(px: number): number };
        }
    ).scale('x');
    const to = (v: number) => (log ? Math.log10(v) : v);
    const from = (v: number) => (log ? Math.pow(10, v) : v);
    chart.addEventListener(
        'wheel',
        (wheel: Event) => {
            const event = wheel as WheelEvent;
            event.preventDefault();
            const box = chart.getBoundingClientRect();
            const width = Number(chart.getAttribute('width')) || box.width;
            const at = to(x.invert(((event.clientX - box.left) * width) / box.width));
            const factor = event.deltaY < 0 ? 0.8 : 1.25;
            const [lo, hi] = x.domain.map(to);
            if (!Number.isFinite(at)) return;
            zoomed = [from(at - (at - lo) * factor), from(at + (hi - at) * factor)];
            if (!log) zoomed[0] = Math.max(0, zoomed[0]);
            render();
        },
        { passive: false },
    );
    chart.addEventListener('dblclick', () => {
        zoomed = undefined;
        render();
    });
}

/** The chart's height: what the panel leaves under the title, toolbar and tables, within reason. */
const chartHeight = (width: number, tables: number) =>
    Math.round(Math.max(300, Math.min(width * 0.62, 640, window.innerHeight - 150 - tables)));

function latencyChart(d: LatencyPlotData, m: Mode, log: boolean): SVGSVGElement | HTMLElement {
    const domain = zoomed ?? xDomain(d, log);
    const width = chartWidth();
    const xLabel = log ? 'latency (ms, log scale)' : 'latency (ms)';
    const yLabel =
        m === 'cdf'
            ? 'P(latency ≤ x)'
            : m === 'ccdf'
              ? 'P(latency > x)'
              : `probability per ${formatMs(pmfStep(domain))} bin`;
    const titles = { labelAnchor: 'center', labelArrow: 'none' } as const;
    // log axes get their ticks as marks with their own text: Plot would pass a log scale's labels through d3's
    // thinning, which drops 5 of the 1-2-5 ladder
    const logAxes: Plot.Markish[] = [];
    if (log)
        logAxes.push(
            Plot.axisX(logTicks(domain, Math.floor(width / 60)), { ...titles, label: xLabel, text: formatNumber }),
        );
    if (m === 'ccdf') {
        const decades = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1];
        logAxes.push(
            Plot.gridY(decades),
            Plot.axisY(decades, {
                ...titles,
                label: yLabel,
                text: (v: number) => (v === 1 ? '1' : powerOfTen(Math.round(Math.log10(v)))),
            }),
        );
    }
    const chart = Plot.plot({
        width,
        height: chartHeight(width, 24 * (d.requirements.length + d.stats.length) + 60),
        marginLeft: 72,
        marginRight: 24,
        marginTop: 14 + 16 * d.requirements.filter(r => r.ms !== undefined).length,
        marginBottom: 46,
        style: { color: FOREGROUND, background: 'transparent', fontSize: '12px' },
        x: log
            ? { type: 'log', domain, axis: null }
            : {
                  ...titles,
                  domain,
                  label: xLabel,
                  ticks: Math.max(3, Math.floor(width / 110)),
                  tickFormat: formatNumber,
              },
        y:
            m === 'ccdf'
                ? { type: 'log', domain: [TAIL_FLOOR, 1], axis: null }
                : m === 'cdf'
                  ? { ...titles, domain: [0, 1], label: yLabel, ticks: 5, tickFormat: formatNumber, grid: true }
                  : { ...titles, label: yLabel, ticks: 5, tickFormat: formatNumber, grid: true, nice: true },
        marks: [...logAxes, ...latencyMarks(d, m, domain), Plot.frame({ stroke: FOREGROUND, strokeOpacity: 0.35 })],
    });
    zoomable(chart, log);
    return tagged(chart, `plot-${m}`);
}

type Proposal = PeriodsPlotData['proposals'][number];

/**
 * Nearby periods (thesis 5.7): each analysed proposal by its number of latency trees (what an analysis costs; log
 * axis where they span decades) against its p99, the current count as a dashed line, the proposals' periods as
 * labels where they fit (the table names them all).
 */
function periodsChartElement(d: PeriodsPlotData): SVGSVGElement | HTMLElement | undefined {
    const analysed = d.proposals.filter(p => p.p99_ms !== undefined);
    if (!analysed.length) return undefined;
    const width = chartWidth();
    const roots = [d.current.roots, ...analysed.map(p => p.roots)];
    const log = Math.max(...roots) / Math.max(1, Math.min(...roots)) > 20;
    const chart = Plot.plot({
        width,
        height: Math.round(Math.min(420, Math.max(260, width * 0.42))),
        marginLeft: 72,
        marginRight: 24,
        marginTop: 28,
        marginBottom: 46,
        style: { color: FOREGROUND, background: 'transparent', fontSize: '12px' },
        x: {
            type: log ? 'log' : 'linear',
            label: 'latency trees (the cost of one exact analysis)',
            labelAnchor: 'center',
            labelArrow: 'none',
            grid: true,
            tickFormat: formatNumber,
            ...(log ? { ticks: logTicks([Math.min(...roots) / 1.5, Math.max(...roots) * 1.5], 8) } : { ticks: 6 }),
            domain: log ? [Math.min(...roots) / 1.5, Math.max(...roots) * 1.5] : undefined,
            nice: !log,
        },
        y: {
            label: 'p99 latency (ms)',
            labelAnchor: 'center',
            labelArrow: 'none',
            grid: true,
            nice: true,
            inset: 10, // a dot on the highest or lowest p99 stays inside the frame, clear of the "now" label
            ticks: 6,
            tickFormat: formatNumber,
        },
        marks: [
            Plot.ruleX([d.current.roots], { stroke: FOREGROUND, strokeDasharray: '6 4', className: 'current' }),
            Plot.text([d.current], {
                x: 'roots',
                frameAnchor: 'top',
                dy: -10,
                textAnchor: 'end',
                text: () => `now: ${formatCount(d.current.roots)} trees`,
                fill: FOREGROUND,
                className: 'current-label',
            }),
            Plot.dot(analysed, {
                x: 'roots',
                y: 'p99_ms',
                r: 5,
                fill: COLOURS[0],
                stroke: BACKGROUND,
                className: 'proposals',
                title: (p: Proposal) =>
                    `${p.label}\n${formatCount(p.roots)} trees, periods move ≤ ${formatNumber(p.change_pct)} %\np99 ${formatMs(p.p99_ms)}`,
            }),
            Plot.text(analysed, {
                x: 'roots',
                y: 'p99_ms',
                text: (p: Proposal) => p.label,
                dx: 9,
                textAnchor: 'start',
                fill: FOREGROUND,
                stroke: BACKGROUND,
                strokeWidth: 3,
                className: 'best-label', // left out by declutter() where it would meet another text
            }),
            Plot.frame({ stroke: FOREGROUND, strokeOpacity: 0.35 }),
        ],
    });
    return tagged(chart, 'plot-periods');
}

/** Every proposal with what its exact analysis gives and an *Apply* button (one edit of the model). */
function proposalsTable(d: PeriodsPlotData): HTMLElement {
    const table = element('table', { class: 'stats proposals' });
    table.append(
        element(
            'tr',
            {},
            ...['periods', 'latency trees', 'periods move', 'p99 ms', 'mean ms', 'loss', 'hyper-period ms', ''].map(h =>
                element('th', { scope: 'col' }, h),
            ),
        ),
    );
    for (const p of d.proposals) {
        const cells =
            p.error !== undefined
                ? [element('td', { colspan: '3' }, p.error)]
                : [p.p99_ms, p.mean_ms].map(v => element('td', {}, v === undefined ? '–' : formatNumber(v)));
        if (p.error === undefined)
            cells.push(element('td', {}, p.loss === undefined ? '–' : formatProbability(p.loss)));
        const apply = element(
            'td',
            {},
            button('Apply', () => post({ type: 'applyProposal', index: p.index })),
        );
        table.append(
            element(
                'tr',
                { 'data-index': String(p.index) },
                element('td', {}, p.label),
                element('td', {}, formatCount(p.roots)),
                element('td', {}, `≤ ${formatNumber(p.change_pct)} %`),
                ...cells,
                element('td', {}, formatNumber(p.hyperperiod_ms)),
                apply,
            ),
        );
    }
    return table;
}

function exploreChartElement(d: ExplorePlotData): SVGSVGElement | HTMLElement {
    const width = chartWidth();
    const valueFormat = (v: number) => (d.unit === 'ms' ? formatMs(v) : formatProbability(v));
    const tip = (p: { x: number; y?: number; value: number }) =>
        `${d.vary[0]} ${formatMs(p.x)}${d.vary[1] ? `, ${d.vary[1]} ${formatMs(p.y)}` : ''}\n${d.objective}: ${valueFormat(p.value)}`;
    const common = {
        width,
        marginLeft: 72,
        marginRight: 24,
        marginBottom: 46,
        style: { color: FOREGROUND, background: 'transparent', fontSize: '12px' },
    };
    const xAxis = {
        label: `offset of ${d.vary[0]} (ms)`,
        labelAnchor: 'center' as const,
        labelArrow: 'none' as const,
        tickFormat: formatNumber,
    };
    if (d.vary.length === 1) {
        const points = [...d.points].sort((a, b) => a.x - b.x);
        const values = points.map(p => p.value);
        const flat = Math.min(...values) === Math.max(...values) ? values[0] || 1 : undefined;
        const line = Plot.plot({
            ...common,
            height: Math.round(Math.min(460, Math.max(280, width * 0.45))),
            x: { ...xAxis, ticks: Math.max(3, Math.floor(width / 110)) },
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
                    text: (p: SweepPoint) => `best: ${formatMs(p.x)} → ${valueFormat(p.value)}`,
                    dy: 18,
                    fill: FOREGROUND,
                    stroke: BACKGROUND,
                    strokeWidth: 3,
                    className: 'best-label',
                }),
                Plot.tip(points, Plot.pointerX({ x: 'x', y: 'value', title: tip })),
                Plot.frame({ stroke: FOREGROUND, strokeOpacity: 0.35 }),
            ],
        });
        return tagged(line, 'plot-explore-line');
    }
    const xs = [...new Set(d.points.map(p => p.x))].sort((a, b) => a - b);
    const ys = [...new Set(d.points.map(p => p.y!))].sort((a, b) => a - b);
    // a band axis labels every offset: thin them to what fits
    const every = (values: number[], room: number) =>
        values.filter((_, i) => i % Math.ceil(values.length / room) === 0);
    const height = Math.round(Math.min(560, Math.max(300, width * 0.55)));
    const values = d.points.map(p => p.value).filter(v => v > 0);
    const logColour = d.unit === 'probability' && values.length > 0 && Math.max(...values) / Math.min(...values) > 100;
    const chart = Plot.plot({
        ...common,
        height,
        marginTop: 16,
        x: { ...xAxis, type: 'band', ticks: every(xs, Math.max(3, Math.floor(width / 70))) },
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
        color: {
            type: logColour ? 'log' : 'linear',
            scheme: 'viridis',
            reverse: true, // lower is better: the best is the brightest
        },
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
            Plot.tip(d.points, Plot.pointer({ x: 'x', y: 'y', title: tip })),
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

function legend(d: LatencyPlotData): HTMLElement {
    const list = element('div', { class: 'legend', role: 'list' });
    for (const s of d.series) {
        const ks = s.ks !== undefined && s.ks !== null ? ` — KS ${formatNumber(s.ks)} vs predicted` : '';
        const swatch = element('span', { class: `swatch swatch-${s.kind}` });
        swatch.style.borderColor = colourOf(d, s.name);
        list.append(
            element(
                'span',
                { class: 'legend-item', role: 'listitem', 'data-series': s.name },
                swatch,
                `${s.name}${ks}`,
            ),
        );
    }
    return list;
}

function verdicts(d: LatencyPlotData): HTMLElement | undefined {
    if (!d.requirements.length) return undefined;
    const table = element('table', { class: 'verdicts' });
    table.append(
        element(
            'tr',
            {},
            ...['requirement', 'found', 'verdict', 'margin'].map(h => element('th', { scope: 'col' }, h)),
        ),
    );
    for (const r of d.requirements) {
        const row = element(
            'tr',
            { class: r.passed ? 'pass' : 'fail', 'data-kind': r.kind },
            element('td', {}, r.text),
            element('td', {}, r.value),
            element('td', { class: 'verdict' }, r.passed ? '✓ PASS' : '✗ FAIL'),
            element('td', {}, r.margin),
        );
        table.append(row);
    }
    return table;
}

function stats(d: LatencyPlotData): HTMLElement {
    const table = element('table', { class: 'stats' });
    table.append(
        element(
            'tr',
            {},
            ...['', 'mean ms', 'p50 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'loss'].map(h => element('th', {}, h)),
        ),
    );
    for (const s of d.stats) {
        const row = element('tr', { 'data-series': s.name });
        for (const cell of [s.name, s.mean, s.p50, s.p99, s.p999, s.max])
            row.append(element('td', {}, typeof cell === 'string' ? cell : formatNumber(cell)));
        row.append(element('td', {}, s.loss === undefined ? '–' : formatProbability(s.loss)));
        table.append(row);
    }
    return table;
}

function button(label: string, onClick: () => void, attrs: Record<string, string> = {}): HTMLButtonElement {
    // the label in a span of its own: what is painted behind it is the button's background
    const b = element('button', { type: 'button', ...attrs }, element('span', {}, label));
    b.addEventListener('click', onClick);
    return b;
}

async function exportAs(format: ExportFormat): Promise<void> {
    if (!data) return;
    const svg = document.querySelector<SVGSVGElement>('#plot svg.plot-chart');
    const name = exportName(data.key, format);
    if (format === 'csv') return post({ type: 'export', format, name, content: plotCsv(data) });
    if (!svg) return;
    const text = svgOf(svg, getComputedStyle(document.body).backgroundColor);
    if (format === 'svg') return post({ type: 'export', format, name, content: text });
    post({
        type: 'export',
        format,
        name,
        content: await pngOf(text, svg.width.baseVal.value, svg.height.baseVal.value),
    });
}

function toolbar(d: PlotViewData): HTMLElement {
    const bar = element('div', { class: 'toolbar', role: 'toolbar' });
    if (d.view === 'latency') {
        const views = element('div', { class: 'views', role: 'group', 'aria-label': 'view' });
        for (const [m, label] of [
            ['cdf', 'CDF'],
            ['ccdf', 'CCDF (log tail)'],
            ['pmf', 'PMF'],
        ] as const) {
            views.append(
                button(
                    label,
                    () => {
                        mode = m;
                        render();
                    },
                    { 'data-mode': m, 'aria-pressed': String(mode === m) },
                ),
            );
        }
        const log = mode !== 'pmf' && (logX ?? spansDecades(d));
        const logToggle = button(
            'log latency axis',
            () => {
                logX = !log;
                zoomed = undefined;
                render();
            },
            { 'data-action': 'log-x', 'aria-pressed': String(log) },
        );
        logToggle.disabled = mode === 'pmf'; // a histogram's bins are linear
        bar.append(
            views,
            logToggle,
            button('Compare with…', () => post({ type: 'compare' }), { 'data-action': 'compare' }),
        );
        if (d.report)
            bar.append(button('Open report', () => post({ type: 'openReport' }), { 'data-action': 'report' }));
    } else if (d.view === 'explore') {
        bar.append(button('Apply best offsets', () => post({ type: 'applyBest' }), { 'data-action': 'apply' }));
    }
    const exports = element('div', { class: 'exports', role: 'group', 'aria-label': 'export' });
    for (const f of ['svg', 'png', 'csv'] as const)
        exports.append(button(`Export ${f.toUpperCase()}`, () => void exportAs(f), { 'data-export': f }));
    bar.append(exports);
    return bar;
}

function render(): void {
    const root = document.getElementById('plot')!;
    root.replaceChildren();
    if (!data) return;
    const d = data;
    const parts: Array<HTMLElement | SVGElement | undefined> = [element('h2', {}, d.title)];
    if (d.view === 'latency') {
        parts.push(
            ...(d.warnings ?? []).map(text => element('div', { class: 'warning', role: 'alert' }, `⚠ ${text}`)),
            toolbar(d),
            legend(d),
            element('figure', { class: 'chart' }, latencyChart(d, mode, mode !== 'pmf' && (logX ?? spansDecades(d)))),
            verdicts(d),
            stats(d),
        );
        if (d.notes?.length) parts.push(element('ul', { class: 'notes' }, ...d.notes.map(n => element('li', {}, n))));
    } else if (d.view === 'periods') {
        const chart = periodsChartElement(d);
        parts.push(
            element('p', { class: 'summary' }, d.summary),
            toolbar(d),
            chart ? element('figure', { class: 'chart' }, chart) : undefined,
            proposalsTable(d),
        );
    } else {
        parts.push(
            element('p', { class: 'summary' }, d.summary),
            toolbar(d),
            d.vary.length <= 2
                ? element('figure', { class: 'chart' }, exploreChartElement(d))
                : element('p', {}, `${d.vary.length} components: see the table in the output`),
        );
    }
    root.append(...parts.filter((p): p is HTMLElement | SVGElement => p !== undefined));
    declutter(root);
}

/**
 * Percentile labels of several curves meet (p99 of two runs at the same height), or leave the frame: such a label
 * goes to the other side of its dot, and where it meets a text there too it is left out (its dot stays, hover
 * names it); first curves first.
 */
function declutter(root: HTMLElement): void {
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

window.addEventListener('message', event => {
    const message = event.data as PlotViewData;
    if (message?.view !== 'latency' && message?.view !== 'explore' && message?.view !== 'periods') return;
    if (data?.key !== message.key) {
        logX = undefined;
        zoomed = undefined;
    }
    data = message;
    render();
});
// the panel's width changes the chart's: draw again when it settles
let resizing: ReturnType<typeof setTimeout> | undefined;
window.addEventListener('resize', () => {
    clearTimeout(resizing);
    resizing = setTimeout(render, 150);
});
post({ type: 'ready' });
