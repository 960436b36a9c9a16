/** The axes of the latency chart: the latency range, when it needs a log axis, 1-2-5 ticks, the PMF's bins. */
import { niceStep } from '../../src/distribution';
import { formatNumber, powerOfTen } from '../../src/number-format';
import type { LatencyPlotData } from '../../src/plot-data';

/** The latency chart's views: the distribution, its tail on log axes, the histogram. */
export type Mode = 'cdf' | 'ccdf' | 'pmf';

function latencies(d: LatencyPlotData): number[] {
    const values = d.series.flatMap(s => s.points.map(([ms]) => ms));
    values.push(...d.requirements.filter(r => r.ms !== undefined).map(r => r.ms!));
    return values;
}

/** Whether the data spans decades: then a linear axis squashes the short curves into a line at 0. */
export function spansDecades(d: LatencyPlotData): boolean {
    const positive = latencies(d).filter(v => v > 0);
    return positive.length > 0 && Math.max(...positive) / Math.min(...positive) > 100;
}

export function xDomain(d: LatencyPlotData, log: boolean): [number, number] {
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
export function logTicks([lo, hi]: [number, number], room: number): number[] {
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
export const pmfStep = (domain: [number, number]) => niceStep(domain[1] - domain[0], 100);

/** The width a chart gets: its container's, so no half of it stays empty. */
export const chartWidth = (root: HTMLElement) => Math.max(360, Math.min(1400, (root.clientWidth || 720) - 4));

/** The chart's height: what the panel leaves under the title, toolbar and tables, within reason. */
export const chartHeight = (width: number, tables: number) =>
    Math.round(Math.max(300, Math.min(width * 0.62, 640, window.innerHeight - 150 - tables)));

/**
 * A linear axis over [lo, hi]: its 1-2-5 ticks, the domain they round it to, and a tick format with the digits the
 * step needs (the one number format's 3 significant digits where they tell the ticks apart; 200.002 and 200.004
 * otherwise, never five ticks that all read 200).
 */
export function linearAxis(lo: number, hi: number, count: number): AxisTicks {
    const step = niceStep(hi - lo, count);
    const first = Math.floor(lo / step + 1e-9) * step;
    const last = Math.ceil(hi / step - 1e-9) * step;
    const ticks: number[] = [];
    for (let i = 0; first + i * step <= last + step / 2; i++) ticks.push(Number((first + i * step).toPrecision(12)));
    const readable = ticks.map(v => formatNumber(v));
    if (new Set(readable).size === ticks.length) return { domain: [first, last], ticks, format: formatNumber };
    const top = Math.max(...ticks.map(Math.abs));
    const digits = Math.floor(Math.log10(top)) - Math.floor(Math.log10(step)) + 1;
    return { domain: [first, last], ticks, format: (v: number) => precise(v, digits) };
}

export interface AxisTicks {
    domain: [number, number];
    ticks: number[];
    format: (value: number) => string;
}

/** `value` with `digits` significant digits, in the one number format's style (no trailing zeros, ·10ⁿ below 10⁻³). */
function precise(value: number, digits: number): string {
    if (value === 0) return '0';
    if (Math.abs(value) >= 1e-3) return String(Number(value.toPrecision(Math.min(digits, 15))));
    const [mantissa, exponent] = value.toExponential(Math.min(digits, 15) - 1).split('e');
    return `${Number(mantissa)}·${powerOfTen(Number(exponent))}`;
}
