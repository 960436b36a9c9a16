/**
 * The time formatter and axis of the diagrams (box chain, plan, lanes, PTTS, timeline, popups), on the contract's
 * one number format: 3 significant digits, in the unit the source used when the caller knows it, else the unit
 * that reads best, in s from 10 s on. An axis keeps one unit for all its ticks.
 */
import { bestDurationUnit, formatDuration, formatDurationIn, type AxisFields, type AxisTick } from '@chainlab/contract';

export type TimeUnit = AxisFields['unit'];

/** The unit a value (or an axis whose largest value is `ns`) reads best in. */
export function unitFor(ns: number): TimeUnit {
    return bestDurationUnit(ns);
}

/** `ns` in `unit`, 3 significant digits: 1.5 ms, 630 ms, 12.3 µs. */
export function formatIn(ns: number, unit: TimeUnit): string {
    return formatDurationIn(ns, unit);
}

/** A duration or instant in the unit it reads best in (one parameter: `times.map(formatTime)` stays right). */
export function formatTime(ns: number): string {
    return formatDuration(ns);
}

/** A duration the source wrote in `unit` (`ms`, `us`, ...), read in that unit: `cost 0.6 ms` is 0.6 ms. */
export function formatAsWritten(ns: number, unit: string | undefined): string {
    return formatDuration(ns, { unit });
}

const NS_PER: Readonly<Record<TimeUnit, number>> = { s: 1e9, ms: 1e6, µs: 1e3, ns: 1 };

/** A tick in its axis' unit with every digit it needs: 3 significant digits would write 10050 ms as 10100 ms. */
function tickText(ns: number, unit: TimeUnit): string {
    return `${+(ns / NS_PER[unit]).toFixed(3)} ${unit}`;
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
        ticks.push({ x: x0 + (ns - from) * scale, ns, text: tickText(ns, unit) });
    }
    return { ticks, unit, step };
}
