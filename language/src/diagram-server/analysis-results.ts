/**
 * The latest analysis result per document and element, kept by the language server so that the diagrams
 * (and hovers) can show what was computed last: a PTTS chain's p99 and loss, its distribution.
 */
import type { AnalyzeResult } from '@chainlab/contract';

/** The part of a `chainlab/analyze` result (the backend's ptts/analyze reply) the diagrams and hovers show. */
export type AnalysisSummary = Pick<
    AnalyzeResult,
    'distribution' | 'mean_ms' | 'percentiles' | 'loss_probability' | 'requirements'
>;

export class AnalysisResults {
    private readonly results = new Map<string, AnalysisSummary>();
    private readonly listeners: Array<(uri: string, element: string) => void> = [];

    set(uri: string, element: string, result: AnalysisSummary): void {
        this.results.set(`${uri}#${element}`, result);
        for (const listener of this.listeners) listener(uri, element);
    }

    get(uri: string, element: string): AnalysisSummary | undefined {
        return this.results.get(`${uri}#${element}`);
    }

    onChange(listener: (uri: string, element: string) => void): void {
        this.listeners.push(listener);
    }
}

/** Keeps a `chainlab/analyze` result of a ptts; true when one was kept. */
export function rememberAnalysis(
    results: AnalysisResults,
    request: string,
    uri: string,
    params: { ptts?: unknown } | object,
    result: unknown,
): boolean {
    const ptts = (params as { ptts?: unknown }).ptts;
    if (request !== 'chainlab/analyze' || typeof ptts !== 'string' || !result || typeof result !== 'object')
        return false;
    const r = result as Partial<AnalysisSummary>;
    if (!Array.isArray(r.distribution) || !r.percentiles) return false;
    results.set(uri, ptts, {
        distribution: r.distribution,
        mean_ms: r.mean_ms ?? NaN,
        percentiles: r.percentiles,
        loss_probability: r.loss_probability ?? 0,
        requirements: r.requirements ?? [],
    });
    return true;
}
