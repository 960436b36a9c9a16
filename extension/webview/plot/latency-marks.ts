/**
 * The marks of the latency chart: each series as a CDF or tail step line (or a PMF histogram), percentile markers
 * on the curves, the requirements, and the values under the pointer.
 */
import * as Plot from '@observablehq/plot';
import { ccdf, cdf, histogram, type Point } from '../../src/distribution';
import { formatMs, formatProbability } from '../../src/number-format';
import type { LatencyPlotData, PlotMarker, PlotSeries } from '../../src/plot-data';
import { lossMarks, requirementMarks, requirementRegions } from './requirement-marks';
import { pmfStep, type Mode } from './scales';
import { BACKGROUND, FOREGROUND, TAIL_FLOOR, colourOf } from './theme';

/** A percentile marker where it is drawn; a point of a curve under the pointer. */
type MarkerAt = PlotMarker & { p: number };
type CurvePoint = { ms: number; p: number; name: string };

/** The curve of one series in the mode: steps of the CDF or tail, starting from the left of the frame. */
function curve(s: PlotSeries, m: 'cdf' | 'ccdf', left: number): Point[] {
    const points = m === 'cdf' ? cdf(s.points) : ccdf(s.points);
    if (!points.length) return [];
    const start: Point = [Math.min(left, points[0][0]), m === 'cdf' ? 0 : 1];
    // a tail that reaches 0 is drawn through the floor (a log axis has no 0)
    return [start, ...points].map(([ms, p]) => [ms, m === 'ccdf' ? Math.max(p, TAIL_FLOOR / 100) : p]);
}

function pmfMarks(d: LatencyPlotData, domain: [number, number]): Plot.Markish[] {
    const step = pmfStep(domain);
    return d.series.map(s => {
        const colour = colourOf(d, s.name);
        return Plot.rectY(histogram(s.points, step), {
            x1: (b: Point) => b[0],
            x2: (b: Point) => b[0] + step,
            y: (b: Point) => b[1],
            fill: colour,
            fillOpacity: 0.25,
            stroke: colour,
            strokeDasharray: s.kind === 'compared' ? '4 3' : undefined,
            clip: true,
            className: `series-${s.kind}`,
        });
    });
}

function curveMarks(d: LatencyPlotData, m: 'cdf' | 'ccdf', domain: [number, number]): Plot.Markish[] {
    return d.series.map(s =>
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
}

/** p99 and p99.9 nearly meet on a linear CDF: one label left of its dot (above the curve), one below-right. */
const PLACEMENT: Record<'cdf' | 'ccdf', Record<string, { textAnchor: 'start' | 'end'; dx: number; dy: number }>> = {
    cdf: {
        '50': { textAnchor: 'start', dx: 7, dy: 0 },
        '99': { textAnchor: 'end', dx: -7, dy: 0 },
        '99.9': { textAnchor: 'start', dx: 7, dy: 9 },
    },
    ccdf: {
        '50': { textAnchor: 'start', dx: 7, dy: -8 },
        '99': { textAnchor: 'start', dx: 7, dy: -8 },
        '99.9': { textAnchor: 'start', dx: 7, dy: -8 },
    },
};

/** Percentile markers on their curves, labelled with their latency where few curves leave room. */
function markerMarks(d: LatencyPlotData, m: 'cdf' | 'ccdf'): Plot.Markish[] {
    const markers = d.markers.map(k => ({ ...k, p: m === 'cdf' ? Number(k.level) / 100 : 1 - Number(k.level) / 100 }));
    const labelled = d.series.filter(s => s.kind !== 'compared').length <= 2;
    const marks: Plot.Markish[] = [
        Plot.dot(markers, {
            x: 'ms',
            y: 'p',
            r: 3.5,
            fill: (k: MarkerAt) => colourOf(d, k.series),
            stroke: BACKGROUND,
            className: 'markers',
            title: (k: MarkerAt) => `${k.series}: p${k.level} = ${formatMs(k.ms)}`,
        }),
    ];
    for (const level of ['50', '99', '99.9'])
        marks.push(
            Plot.text(
                markers.filter(k => k.level === level),
                {
                    x: 'ms',
                    y: 'p',
                    text: (k: MarkerAt) => (labelled ? `p${k.level} ${formatMs(k.ms)}` : `p${k.level}`),
                    ...PLACEMENT[m][level],
                    fill: FOREGROUND,
                    stroke: BACKGROUND,
                    strokeWidth: 3,
                    className: 'marker-labels',
                },
            ),
        );
    return marks;
}

/** The values under the pointer: every curve at that latency. */
function pointerTip(d: LatencyPlotData, m: 'cdf' | 'ccdf', domain: [number, number]): Plot.Markish {
    const all = d.series.flatMap(s => curve(s, m, domain[0]).map(([ms, p]) => ({ ms, p, name: s.name })));
    return Plot.tip(
        all,
        Plot.pointerX({
            x: 'ms',
            y: 'p',
            title: (q: CurvePoint) =>
                `${q.name}\n${formatMs(q.ms)}: ${m === 'cdf' ? 'P(≤)' : 'P(>)'} ${formatProbability(q.p)}`,
        }),
    );
}

export function latencyMarks(d: LatencyPlotData, m: Mode, domain: [number, number], width: number): Plot.Markish[] {
    // requirement regions first, under the curves
    const marks: Plot.Markish[] = m === 'ccdf' ? requirementRegions(d, domain) : [];
    if (m === 'pmf') marks.push(...pmfMarks(d, domain));
    else marks.push(...curveMarks(d, m, domain), ...markerMarks(d, m));
    marks.push(...requirementMarks(d, m, domain));
    if (m === 'ccdf') marks.push(...lossMarks(d, width));
    if (m !== 'pmf') marks.push(pointerTip(d, m, domain));
    return marks;
}
