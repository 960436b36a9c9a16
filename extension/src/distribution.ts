/**
 * Arithmetic on a latency distribution as the replies carry it ([ms, probability] points, a PMF): sorted
 * cumulative and tail sums, quantiles, and a histogram on a common bin width so that distributions on
 * different grids are drawn the same way. Pure, shared by the extension and the plot webview.
 */

export type Point = [number, number];

/** The points by latency with probabilities summing to one (a histogram's fractions may not quite). */
export function normalised(points: readonly Point[]): Point[] {
    const total = points.reduce((sum, [, p]) => sum + p, 0) || 1;
    return [...points].sort((a, b) => a[0] - b[0]).map(([ms, p]) => [ms, p / total]);
}

/** [ms, P(latency ≤ ms)] at every point. */
export function cdf(points: readonly Point[]): Point[] {
    let sum = 0;
    return normalised(points).map(([ms, p]) => [ms, Math.min(1, (sum += p))]);
}

/** [ms, P(latency > ms)] at every point, summed from the tail so that 10⁻⁹ is not lost next to 1. */
export function ccdf(points: readonly Point[]): Point[] {
    const sorted = normalised(points);
    const out: Point[] = new Array<Point>(sorted.length);
    let tail = 0;
    for (let i = sorted.length - 1; i >= 0; i--) {
        out[i] = [sorted[i][0], tail];
        tail += sorted[i][1];
    }
    return out;
}

/** The smallest latency with P(latency ≤ it) ≥ q (q in 0..1). */
export function quantile(points: readonly Point[], q: number): number {
    const sorted = normalised(points);
    const tails = ccdf(sorted);
    // compare the tail, not the cumulative sum: q = 0.9999 needs the tail's precision
    const found = tails.find(([, tail]) => tail <= 1 - q + 1e-15);
    return found ? found[0] : (sorted.at(-1)?.[0] ?? NaN);
}

/** A bin width on the 1-2-5 ladder giving about `bins` bins over `span`. */
export function niceStep(span: number, bins: number): number {
    if (!(span > 0)) return 1;
    const raw = span / bins;
    const decade = Math.pow(10, Math.floor(Math.log10(raw)));
    const step = [1, 2, 5, 10].find(f => f * decade >= raw)! * decade;
    return Number(step.toPrecision(1));
}

/** The probability per bin of width `step` ([bin start, probability]), empty bins left out. */
export function histogram(points: readonly Point[], step: number): Point[] {
    const bins = new Map<number, number>();
    for (const [ms, p] of normalised(points)) {
        const start = Math.floor(ms / step + 1e-9) * step;
        bins.set(start, (bins.get(start) ?? 0) + p);
    }
    return [...bins].sort((a, b) => a[0] - b[0]).map(([start, p]) => [Number(start.toPrecision(12)), p]);
}
