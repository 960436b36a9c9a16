/** The data of the latency plot view, built from analysis and run results (pure functions, no VS Code). */
import type { AnalyzeResult } from '@chainlab/contract';

export interface PlotSeries { name: string; kind: 'predicted' | 'measured'; points: Array<[number, number]> }
export interface PlotData {
    title: string;
    series: PlotSeries[];
    requirements: Array<{ label: string; ms: number }>;
    stats: Array<{ name: string; mean: number; p50: number; p99: number; max: number; loss?: number }>;
}

/** Percentile of a pmf given as [value, probability] points. */
export function percentile(points: Array<[number, number]>, q: number): number {
    const sorted = [...points].sort((a, b) => a[0] - b[0]);
    const total = sorted.reduce((s, [, p]) => s + p, 0);
    let cum = 0;
    for (const [v, p] of sorted) {
        cum += p;
        if (cum >= q * total - 1e-12) return v;
    }
    return sorted[sorted.length - 1]?.[0] ?? NaN;
}

export function summary(name: string, points: Array<[number, number]>, loss?: number): PlotData['stats'][number] {
    const total = points.reduce((s, [, p]) => s + p, 0) || 1;
    const mean = points.reduce((s, [v, p]) => s + v * p, 0) / total;
    return { name, mean, p50: percentile(points, 0.5), p99: percentile(points, 0.99), max: Math.max(...points.map(([v]) => v)), loss };
}

/** An `Analyze latency` result: the exact end-to-end distribution and its requirement lines. */
export function analysisPlot(result: Pick<AnalyzeResult, 'name' | 'distribution' | 'loss_probability' | 'requirements'>): PlotData {
    return {
        title: `ptts ${result.name}: end-to-end latency (exact analysis)`,
        series: [{ name: 'predicted', kind: 'predicted', points: result.distribution }],
        requirements: result.requirements.filter(r => r.bound_ms !== undefined)
            .map(r => ({ label: `${r.kind === 'percentile' ? `p${r.percentile}` : 'deadline'} ${r.op ?? '<'} ${r.bound_ms} ms`, ms: r.bound_ms! })),
        stats: [summary('predicted', result.distribution, result.loss_probability)],
    };
}

/** Measured latencies (ns) as a pmf in ms on `binMs` bins. */
export function measuredPoints(latenciesNs: number[], binMs = 0.05): Array<[number, number]> {
    const counts = new Map<number, number>();
    for (const ns of latenciesNs) {
        const bin = Math.round(ns / 1e6 / binMs) * binMs;
        counts.set(bin, (counts.get(bin) ?? 0) + 1);
    }
    return [...counts.entries()].sort((a, b) => a[0] - b[0]).map(([v, n]) => [+v.toFixed(6), n / latenciesNs.length]);
}
