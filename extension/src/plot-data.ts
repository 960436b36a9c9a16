/**
 * The data of the latency plot view, built from analysis and run replies (pure functions, no VS Code). Every
 * number comes from the backend's reply: the distributions, the histogram of a measurement, the percentiles, KS
 * and the requirements' verdicts; this module picks them, converts ns to ms and words the verdicts.
 */
import type { AnalyzeResult, LatencyStats, RequirementResult, RunReport } from '@chainlab/contract';
import { quantile, type Point } from './distribution';
import { formatLevel, formatMs, formatNumber, formatPercent, formatProbability } from './number-format';
import { runTables, type DetailTable } from './run-tables';

export interface PlotSeries {
    name: string;
    /** `compared`: a curve of another run, overlaid by *Compare with…*. */
    kind: 'predicted' | 'measured' | 'compared';
    /** The PMF: [ms, probability]. */
    points: Point[];
    /** Kolmogorov–Smirnov distance of a measurement to the prediction, from the reply. */
    ks?: number | null;
}

export const MARKERS = ['50', '99', '99.9'] as const;
export type MarkerLevel = (typeof MARKERS)[number];

/** A percentile of one series, drawn on its curve. */
export interface PlotMarker {
    series: string;
    level: MarkerLevel;
    ms: number;
}

/** A requirement of the model with the analysis' verdict, ready to draw and to read. */
export interface RequirementVerdict {
    kind: RequirementResult['kind'];
    /** As written in the model: `p99 < 160 ms`. */
    text: string;
    /** What was found: `p99 = 128 ms`. */
    value: string;
    passed: boolean;
    /** How far from the bound, and on which side. */
    margin: string;
    /** Where it is drawn: the latency bound (absent for loss). */
    ms?: number;
    /** The largest allowed P(latency > ms): its point on the CCDF. */
    exceedance?: number;
    /** A loss requirement: the limit and the loss found, drawn as levels of the CCDF (a lost frame never arrives:
     *  it is the part of the tail beyond every latency). */
    loss?: { limit: number; value: number };
    /** The series it was judged on (a run judges the chain's requirements on the prediction and each scenario). */
    series?: string;
}

export interface StatsRow {
    name: string;
    mean: number;
    p50: number;
    p99: number;
    p999?: number;
    max: number;
    loss?: number;
}

export interface LatencyPlotData {
    view: 'latency';
    /** One panel per key: the element or run shown. */
    key: string;
    title: string;
    series: PlotSeries[];
    markers: PlotMarker[];
    requirements: RequirementVerdict[];
    stats: StatsRow[];
    /** What makes these numbers misleading (an overloaded run), shown above the plot. */
    warnings?: string[];
    /** What the numbers point to (the run's diagnosis), under the plot. */
    notes?: string[];
    /** The run's report.html. */
    report?: string;
    /** A run's scenarios and phases, under the plot. */
    tables?: DetailTable[];
}
type AnalysisReply = Pick<
    AnalyzeResult,
    'name' | 'distribution' | 'mean_ms' | 'max_ms' | 'percentiles' | 'loss_probability' | 'requirements'
> &
    Partial<Pick<AnalyzeResult, 'source'>>;

const percentileName = (p: number) => `p${formatLevel(p)}`;

/** The verdict of one requirement of an analysis, with its margin, in the one number format. */
export function requirementVerdict(r: RequirementResult, distribution: readonly Point[]): RequirementVerdict {
    const op = r.op === '<=' ? '≤' : '<';
    if (r.kind === 'percentile') {
        const bound = r.bound_ms!,
            value = r.value_ms ?? r.value;
        const name = percentileName(r.percentile ?? NaN);
        return {
            kind: r.kind,
            text: `latency ${name} ${op} ${formatMs(bound)}`,
            value: `${name} = ${formatMs(value)}`,
            passed: r.passed,
            margin: r.passed
                ? `${formatMs(bound - value)} (${formatPercent((bound - value) / bound)}) below the bound`
                : `${formatMs(value - bound)} (${formatPercent((value - bound) / bound)}) over the bound`,
            ms: bound,
            exceedance: 1 - (r.percentile ?? 0) / 100,
        };
    }
    if (r.kind === 'deadline') {
        const bound = r.bound_ms!,
            required = r.required_probability ?? 1;
        const allowed = 1 - required;
        const miss = Math.max(0, 1 - (r.probability ?? r.value));
        // the latency margin: where the distribution's tail crosses the allowed miss probability
        const level = quantile(distribution, required);
        const levelName = percentileName(required * 100);
        return {
            kind: r.kind,
            text: `latency ${op} ${formatMs(bound)} with probability ≥ ${formatLevel(required * 100)} %`,
            value: `P(> ${formatMs(bound)}) ${/^</.test(formatProbability(miss)) ? '' : '= '}${formatProbability(miss)}, allowed ${formatProbability(allowed)}`,
            passed: r.passed,
            margin: Number.isFinite(level)
                ? level <= bound
                    ? `${levelName} = ${formatMs(level)}: ${formatMs(bound - level)} below the deadline`
                    : `${levelName} = ${formatMs(level)}: ${formatMs(level - bound)} over the deadline`
                : '–',
            ms: bound,
            exceedance: allowed,
        };
    }
    const limit = r.limit ?? NaN,
        loss = r.value;
    return {
        kind: r.kind,
        text: `loss ${op} ${formatProbability(limit)}`,
        value: `loss = ${formatProbability(loss)}`,
        passed: r.passed,
        margin:
            loss === 0
                ? 'no frame lost'
                : r.passed
                  ? `${formatNumber(limit / loss)}× below the limit`
                  : `${formatNumber(loss / limit)}× over the limit`,
        loss: { limit, value: loss },
    };
}

/** An `Analyze latency` result: the exact end-to-end distribution, its percentiles and the requirements' verdicts. */
export function analysisPlot(result: AnalysisReply): LatencyPlotData {
    return {
        view: 'latency',
        // one panel per ptts of a file: a ptts of the same name in another file gets its own
        key: `ptts ${result.name}${result.source ? ` (${result.source.split(/[\\/]/).at(-1)})` : ''}`,
        title: `ptts ${result.name}: end-to-end latency (exact analysis)`,
        series: [{ name: 'predicted', kind: 'predicted', points: result.distribution }],
        markers: MARKERS.map(level => ({ series: 'predicted', level, ms: result.percentiles[level] })),
        requirements: result.requirements.map(r => requirementVerdict(r, result.distribution)),
        stats: [
            {
                name: 'predicted',
                mean: result.mean_ms,
                p50: result.percentiles['50'],
                p99: result.percentiles['99'],
                p999: result.percentiles['99.9'],
                max: result.max_ms,
                loss: result.loss_probability,
            },
        ],
    };
}

/** Latency statistics as the backend reports them (ns); `samples` is 0 where nothing was measured. */
type NsStats = LatencyStats;

/** What the plot reads of a run's report (`Run on target`: the backend's deploy/run reply, or a report.json). */
export type RunReply = Pick<RunReport, 'scenarios' | 'predicted' | 'diagnosis'> &
    Partial<Pick<RunReport, 'files' | 'out_dir' | 'summary' | 'phases_s' | 'checksums_equal'>>;

const ms = (ns: number | undefined) => (ns ?? NaN) / 1e6;
const statsRow = (name: string, s: NsStats, p999?: number | null) => ({
    name,
    mean: ms(s.mean_ns),
    p50: ms(s.p50_ns),
    p99: ms(s.p99_ns),
    ...(p999 !== undefined && p999 !== null ? { p999 } : {}),
    max: ms(s.max_ns),
});

/** The report.html of a run, as its reply names it: among its files, else on the summary's `report:` line. */
export function reportOf(reply: RunReply): string | undefined {
    return (
        reply.files?.find(f => /(^|[\\/])report\.html$/.test(f)) ??
        /^report: (.+\.html)$/m.exec(reply.summary ?? '')?.[1]
    );
}

/** A `Run on target` reply: the plan's prediction and every scenario that measured something. */
export function runPlot(chain: string, target: string, reply: RunReply, when = ''): LatencyPlotData {
    const run = reply.out_dir?.split(/[\\/]/).at(-1);
    const plot: LatencyPlotData = {
        view: 'latency',
        key: `run ${run ?? `${chain} ${target} ${when}`}`,
        title: `chain ${chain} on ${target}${run ? ` (run ${run.split('-').slice(0, 2).join('-')})` : ''}: measured vs predicted`,
        series: [],
        markers: [],
        requirements: [],
        stats: [],
    };
    const report = reportOf(reply);
    if (report) plot.report = report;
    if (reply.diagnosis.length) plot.notes = [...reply.diagnosis];
    const predicted = reply.predicted;
    // the percentiles of the prediction the backend compared with (the same in every scenario)
    const predictedAt = reply.scenarios.find(s => s.quantiles_ms)?.quantiles_ms;
    if (predicted.points.length) {
        plot.series.push({
            name: 'predicted',
            kind: 'predicted',
            points: predicted.points.map(([ns, p]) => [ns / 1e6, p]),
        });
        plot.stats.push(statsRow('predicted', predicted.stats, predictedAt?.['99.9'].predicted));
        for (const level of MARKERS) {
            const at = predictedAt?.[level].predicted ?? (level === '50' ? ms(predicted.stats.p50_ns) : undefined);
            if (at !== undefined && at !== null && Number.isFinite(at))
                plot.markers.push({ series: 'predicted', level, ms: at });
        }
    }
    const overloaded = reply.scenarios.filter(s => s.overloaded).map(s => s.scenario);
    if (overloaded.length > 0) {
        plot.warnings = [
            `Overloaded: ${overloaded.join(', ')}. The latency grew through the run (a backlog), so these numbers ` +
                'measure queueing, not the chain; give it a longer period or more rt-cores.',
        ];
    }
    for (const s of reply.scenarios) {
        if (!s.measured.samples || !s.histogram_ms?.length) continue;
        const name = `measured ${s.scenario}`;
        plot.series.push({ name, kind: 'measured', points: s.histogram_ms, ks: s.ks ?? null });
        plot.stats.push(statsRow(name, s.measured, s.quantiles_ms?.['99.9'].measured));
        for (const level of MARKERS) {
            const at = s.quantiles_ms?.[level].measured;
            if (at !== undefined) plot.markers.push({ series: name, level, ms: at });
        }
    }
    plot.requirements = runRequirements(reply);
    plot.tables = runTables(reply);
    return plot;
}

/** The chain's requirements as the backend judged them on the prediction and on each measured scenario. */
function runRequirements(reply: RunReply): RequirementVerdict[] {
    const predicted = reply.predicted.points.map(([ns, p]): Point => [ns / 1e6, p]);
    return [
        ...(reply.predicted.requirements ?? []).map(r => ({
            ...requirementVerdict(r, predicted),
            series: 'predicted',
        })),
        ...reply.scenarios.flatMap(s =>
            (s.requirements ?? []).map(r => ({
                ...requirementVerdict(r, s.histogram_ms ?? []),
                series: `measured ${s.scenario}`,
            })),
        ),
    ];
}

/** Whether a run measured anything the ETP could be updated from. */
export function measuredSomething(reply: RunReply): boolean {
    return reply.scenarios.some(s => (s.measured.samples ?? 0) > 0);
}

/**
 * Another panel's curves overlaid on this one (*Compare with…*): its series, named after it, each with its row of
 * statistics.
 */
export function withComparison(plot: LatencyPlotData, other: LatencyPlotData): LatencyPlotData {
    const base = withoutComparison(plot),
        theirs = withoutComparison(other);
    const label = other.key.replace(/^(run|ptts) /, '');
    return {
        ...base,
        series: [
            ...base.series,
            ...theirs.series.map(s => ({ name: `${label}: ${s.name}`, kind: 'compared' as const, points: s.points })),
        ],
        stats: [...base.stats, ...theirs.stats.map(s => ({ ...s, name: `${label}: ${s.name}` }))],
    };
}

/** A panel without the curves of *Compare with…* and their statistics. */
export function withoutComparison(plot: LatencyPlotData): LatencyPlotData {
    const compared = new Set(plot.series.filter(s => s.kind === 'compared').map(s => s.name));
    return {
        ...plot,
        series: plot.series.filter(s => !compared.has(s.name)),
        stats: plot.stats.filter(s => !compared.has(s.name)),
    };
}
