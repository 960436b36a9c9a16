/**
 * The one time formatter and axis of the diagrams (box chain, plan, lanes, PTTS, timeline, popups): a reader
 * should never see µs in one view and ms in the next for the same kind of number. Values ≥ 1 s read in s,
 * ≥ 1 ms in ms, ≥ 1 µs in µs, else ns, with at most three significant decimals.
 */
import type { AxisFields, AxisTick } from '@chainlab/contract';

export type TimeUnit = AxisFields['unit'];

const FACTORS: ReadonlyArray<[TimeUnit, number]> = [
    ['s', 1e9],
    ['ms', 1e6],
    ['µs', 1e3],
    ['ns', 1],
];

/** The unit a value (or an axis whose largest value is `ns`) reads best in. */
export function unitFor(ns: number): TimeUnit {
    const abs = Math.abs(ns);
    return FACTORS.find(([, f]) => abs >= f)?.[0] ?? 'ns';
}

/** `ns` in `unit`, trimmed: 1.5 ms, 630 ms, 12.345 µs. */
export function formatIn(ns: number, unit: TimeUnit, decimals = 3): string {
    const factor = FACTORS.find(([u]) => u === unit)![1];
    return `${+(ns / factor).toFixed(decimals)} ${unit}`;
}

/** A duration or instant in the unit it reads best in. */
export function formatTime(ns: number): string {
    return formatIn(ns, unitFor(ns));
}

/** The tick step for a span: 1, 2 or 5 × 10^k, the smallest giving at most `maxTicks` intervals. */
export function niceStep(span: number, maxTicks = 8): number {
    if (!(span > 0)) return 1;
    const raw = span / maxTicks;
    const power = 10 ** Math.floor(Math.log10(raw));
    for (const m of [1, 2, 5, 10]) if (m * power >= raw) return m * power;
    return 10 * power;
}

/**
 * Ticks of the window [from, to] drawn over `width` px starting at `x0`: every multiple of the nice step, all
 * labelled in one unit (the step's, so 0.5 ms steps do not read 500 µs, 1 ms, 1.5 ms).
 */
export function axisTicks(
    from: number,
    to: number,
    x0: number,
    width: number,
    maxTicks = 8,
): { ticks: AxisTick[]; unit: TimeUnit; step: number } {
    const step = niceStep(to - from, maxTicks);
    const unit = unitFor(Math.max(Math.abs(from), Math.abs(to), step));
    const scale = width / (to - from || 1);
    const ticks: AxisTick[] = [];
    for (let t = Math.ceil(from / step) * step; t <= to + step * 1e-9; t += step) {
        const ns = Math.round(t / step) * step; // no 0.30000000000000004
        ticks.push({ x: x0 + (ns - from) * scale, ns, text: formatIn(ns, unit) });
    }
    return { ticks, unit, step };
}
