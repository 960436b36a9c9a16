/** The latency chart: axes with units (log ones with 1-2-5 ticks, the CCDF down to 10⁻⁶), its marks, wheel zoom. */
import * as Plot from '@observablehq/plot';
import { formatMs, formatNumber, powerOfTen } from '../../src/number-format';
import type { LatencyPlotData } from '../../src/plot-data';
import { tagged } from './dom';
import { latencyMarks } from './latency-marks';
import { drawnRequirements } from './requirement-marks';
import { chartHeight, logTicks, pmfStep, xDomain, type Mode } from './scales';
import { FOREGROUND, TAIL_FLOOR } from './theme';

export interface LatencyChartOptions {
    mode: Mode;
    /** A log latency axis. */
    log: boolean;
    width: number;
    /** The latency range zoomed into; undefined: all of it. */
    zoomed?: [number, number];
    /** The wheel zoomed to `range` (a double click: back to all, undefined). */
    onZoom: (range: [number, number] | undefined) => void;
}

const TITLES = { labelAnchor: 'center', labelArrow: 'none' } as const;

function yLabel(m: Mode, domain: [number, number]): string {
    if (m === 'cdf') return 'P(latency ≤ x)';
    if (m === 'ccdf') return 'P(latency > x)';
    return `probability per ${formatMs(pmfStep(domain))} bin`;
}

/**
 * Log axes get their ticks as marks with their own text: Plot would pass a log scale's labels through d3's
 * thinning, which drops 5 of the 1-2-5 ladder.
 */
function logAxes(m: Mode, log: boolean, domain: [number, number], width: number, xLabel: string): Plot.Markish[] {
    const axes: Plot.Markish[] = [];
    if (log)
        axes.push(
            Plot.axisX(logTicks(domain, Math.floor(width / 60)), { ...TITLES, label: xLabel, text: formatNumber }),
        );
    if (m === 'ccdf') {
        const decades = [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1];
        axes.push(
            Plot.gridY(decades),
            Plot.axisY(decades, {
                ...TITLES,
                label: yLabel(m, domain),
                text: (v: number) => (v === 1 ? '1' : powerOfTen(Math.round(Math.log10(v)))),
            }),
        );
    }
    return axes;
}

function yScale(m: Mode, domain: [number, number]): Plot.ScaleOptions {
    if (m === 'ccdf') return { type: 'log', domain: [TAIL_FLOOR, 1], axis: null };
    const common = { ...TITLES, label: yLabel(m, domain), ticks: 5, tickFormat: formatNumber, grid: true };
    return m === 'cdf' ? { ...common, domain: [0, 1] } : { ...common, nice: true };
}

export function latencyChart(d: LatencyPlotData, o: LatencyChartOptions): SVGSVGElement | HTMLElement {
    const { mode: m, log, width } = o;
    const domain = o.zoomed ?? xDomain(d, log);
    const xLabel = log ? 'latency (ms, log scale)' : 'latency (ms)';
    const chart = Plot.plot({
        width,
        height: chartHeight(width, 24 * (d.requirements.length + d.stats.length) + 60),
        marginLeft: 72,
        marginRight: 24,
        marginTop: 14 + 16 * drawnRequirements(d).length,
        marginBottom: 46,
        style: { color: FOREGROUND, background: 'transparent', fontSize: '12px' },
        x: log
            ? { type: 'log', domain, axis: null }
            : {
                  ...TITLES,
                  domain,
                  label: xLabel,
                  ticks: Math.max(3, Math.floor(width / 110)),
                  tickFormat: formatNumber,
              },
        y: yScale(m, domain),
        marks: [
            ...logAxes(m, log, domain, width, xLabel),
            ...latencyMarks(d, m, domain, width),
            Plot.frame({ stroke: FOREGROUND, strokeOpacity: 0.35 }),
        ],
    });
    zoomable(chart, log, o.onZoom);
    return tagged(chart, `plot-${m}`);
}

/** The wheel zooms the latency axis around the pointer (in log space on a log axis); a double click resets it. */
function zoomable(chart: SVGSVGElement | HTMLElement, log: boolean, onZoom: LatencyChartOptions['onZoom']): void {
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
            const range: [number, number] = [from(at - (at - lo) * factor), from(at + (hi - at) * factor)];
            if (!log) range[0] = Math.max(0, range[0]);
            onZoom(range);
        },
        { passive: false },
    );
    chart.addEventListener('dblclick', () => onZoom(undefined));
}
