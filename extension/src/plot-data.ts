/**
 * The data of the latency plot view, built from analysis and run replies (pure functions, no VS Code). Every
 * number comes from the backend's reply: the distributions, the histogram of a measurement and the statistics;
 * this module only picks them and converts ns to ms.
 */
import type { AnalyzeResult, DeployResult, DistributionStats, LatencyStats } from '@chainlab/contract';

export interface PlotSeries {
    name: string;
    kind: 'predicted' | 'measured';
    points: Array<[number, number]>;
}
export interface PlotData {
    title: string;
    series: PlotSeries[];
    requirements: Array<{ label: string; ms: number }>;
    stats: Array<{ name: string; mean: number; p50: number; p99: number; max: number; loss?: number }>;
    /** What makes these numbers misleading (an overloaded run), shown above the plot. */
    warnings?: string[];
}

/** An `Analyze latency` result: the exact end-to-end distribution, its statistics and requirement lines. */
export function analysisPlot(
    result: Pick<
        AnalyzeResult,
        'name' | 'distribution' | 'mean_ms' | 'max_ms' | 'percentiles' | 'loss_probability' | 'requirements'
    >,
): PlotData {
    return {
        title: `ptts ${result.name}: end-to-end latency (exact analysis)`,
        series: [{ name: 'predicted', kind: 'predicted', points: result.distribution }],
        requirements: result.requirements
            .filter(r => r.bound_ms !== undefined)
            .map(r => ({
                label: `${r.kind === 'percentile' ? `p${r.percentile}` : 'deadline'} ${r.op ?? '<'} ${r.bound_ms} ms`,
                ms: r.bound_ms!,
            })),
        stats: [
            {
                name: 'predicted',
                mean: result.mean_ms,
                p50: result.percentiles['50'],
                p99: result.percentiles['99'],
                max: result.max_ms,
                loss: result.loss_probability,
            },
        ],
    };
}

/** Latency statistics as the backend reports them (ns); `samples` is 0 where nothing was measured. */
type NsStats = LatencyStats | DistributionStats;

/** What the plot reads of a `Run on target` reply (the backend's deploy/run). */
export type RunReply = Pick<DeployResult, 'results'>;

const ms = (ns: number | undefined) => (ns ?? NaN) / 1e6;
const statsRow = (name: string, s: NsStats) => ({
    name,
    mean: ms(s.mean_ns),
    p50: ms(s.p50_ns),
    p99: ms(s.p99_ns),
    max: ms(s.max_ns),
});

/** A `Run on target` reply: the plan's prediction and every scenario that measured something. */
export function runPlot(chain: string, target: string, reply: RunReply): PlotData {
    const plot: PlotData = {
        title: `chain ${chain} on ${target}: measured vs predicted`,
        series: [],
        requirements: [],
        stats: [],
    };
    const predicted = reply.results.predicted;
    if (predicted.points.length) {
        plot.series.push({
            name: 'predicted',
            kind: 'predicted',
            points: predicted.points.map(([ns, p]) => [ns / 1e6, p]),
        });
        plot.stats.push(statsRow('predicted', predicted.stats));
    }
    const overloaded = reply.results.scenarios.filter(s => s.overloaded).map(s => s.scenario);
    if (overloaded.length > 0) {
        plot.warnings = [
            `Overloaded: ${overloaded.join(', ')}. The latency grew through the run (a backlog), so these numbers ` +
                'measure queueing, not the chain; give it a longer period or more rt-cores.',
        ];
    }
    for (const s of reply.results.scenarios) {
        if (!s.measured.samples || !s.histogram_ms?.length) continue;
        plot.series.push({ name: `measured ${s.scenario}`, kind: 'measured', points: s.histogram_ms });
        plot.stats.push(statsRow(`measured ${s.scenario}`, s.measured));
    }
    return plot;
}

/** Whether a run measured anything the ETP could be updated from. */
export function measuredSomething(reply: RunReply): boolean {
    return reply.results.scenarios.some(s => (s.measured.samples ?? 0) > 0);
}
