/**
 * What a nearby-periods exploration (`chainlab/nearbyPeriods`, the backend's ptts/periods) tells the user: each
 * proposal's periods, its latency trees against the current count, how far the periods move, and what its exact
 * analysis gives (pure functions, no VS Code). The numbers are the reply's.
 */
import type { PeriodProposal, PeriodsResult } from '@chainlab/contract';
import { formatMs as ms, formatProbability as probability } from './number-format';

export function periodsText(periods: Record<string, number>): string {
    return Object.entries(periods)
        .map(([name, value]) => `${name} ${Number(value.toPrecision(6))} ms`)
        .join(', ');
}

/** What the exact analysis of a proposal gives, or why there is none. */
export function analysisText(p: PeriodProposal): string {
    if (!p.analysis) return p.analysis_error ? `not analysed: ${p.analysis_error}` : 'not analysed';
    const { percentiles, mean_ms, loss_probability } = p.analysis;
    const p99 = percentiles['99'];
    return `p99 ${p99 === null || p99 === undefined ? '-' : ms(p99)}, mean ${ms(mean_ms)}, loss ${probability(loss_probability)}`;
}

/** One entry per proposal, fewest latency trees first: what the quick pick shows. */
export function proposalItems(
    result: PeriodsResult,
): Array<{ label: string; description: string; detail: string; proposal: PeriodProposal }> {
    return [...result.proposals]
        .sort((a, b) => a.roots - b.roots || a.max_relative_change - b.max_relative_change)
        .map(proposal => ({
            label: periodsText(proposal.periods_ms),
            description: `${proposal.roots} latency trees (now ${result.current.roots}), periods move ≤ ${Number((proposal.max_relative_change * 100).toPrecision(3))} %`,
            detail: `${analysisText(proposal)}; hyper-period ${ms(proposal.hyperperiod_ms)} (now ${ms(result.current.hyperperiod_ms)}); ${proposal.kind}`,
            proposal,
        }));
}

/** The exploration as a table for the Output channel. */
export function periodsTable(result: PeriodsResult): string[] {
    return [
        `nearby periods of ${result.name}: now ${periodsText(result.current.periods_ms)}, ${result.current.roots} latency trees, hyper-period ${ms(result.current.hyperperiod_ms)}`,
        ...proposalItems(result).map(i => `  ${i.label}: ${i.description}; ${i.detail}`),
    ];
}
