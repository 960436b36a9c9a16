/**
 * What a nearby-periods exploration (`chainlab/nearbyPeriods`, the backend's ptts/periods) tells the user: each
 * proposal's periods, its latency trees against the current count, how far the periods move, and what its exact
 * analysis gives (pure functions, no VS Code). The numbers are the reply's.
 */
import type { PeriodProposal, PeriodsResult } from '@chainlab/contract';
import { formatCount, formatMs as ms, formatPercent, formatProbability as probability } from './number-format';

/** The periods a proposal would write into the source: 6 digits, as a period is written, not 3 as a measurement. */
export function periodsText(periods: Record<string, number>): string {
    return Object.entries(periods)
        .map(([name, value]) => `${name} ${Number(value.toPrecision(6))} ms`)
        .join(', ');
}

const trees = (n: number) => `${formatCount(n)} latency tree${n === 1 ? '' : 's'}`;

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
            description: `${trees(proposal.roots)} (now ${formatCount(result.current.roots)}), periods move ≤ ${formatPercent(proposal.max_relative_change)}`,
            detail: `${analysisText(proposal)}; hyper-period ${ms(proposal.hyperperiod_ms)} (now ${ms(result.current.hyperperiod_ms)}); ${proposal.kind}`,
            proposal,
        }));
}

/** How far the editor lets each period move: the backend's default, which Nearby periods asks with. */
export const NEARBY = 0.02;

/** "no period set within 2 % shortens the hyper-period": what an exploration without proposals found. */
export function noProposalText(within = NEARBY): string {
    return `no period set within ${formatPercent(within)} shortens the hyper-period: the current periods stay`;
}

/** The exploration as a table for the Output channel. */
export function periodsTable(result: PeriodsResult): string[] {
    return [
        `nearby periods of ${result.name}: now ${periodsText(result.current.periods_ms)}, ${trees(result.current.roots)}, hyper-period ${ms(result.current.hyperperiod_ms)}`,
        ...(result.proposals.length
            ? proposalItems(result).map(i => `  ${i.label}: ${i.description}; ${i.detail}`)
            : [`  ${noProposalText()}`]),
    ];
}

/** What the nearby-periods chart draws: each analysed proposal by its latency trees and p99, the current count. */
export interface PeriodsPlotData {
    view: 'periods';
    key: string;
    title: string;
    /** The current periods in words. */
    summary: string;
    /** Why there is nothing to propose, in words (no proposals): the panel says it where the table would be. */
    note?: string;
    current: { roots: number; hyperperiod_ms: number };
    /** In the order of the reply's proposals (`index` is what *Apply* names). */
    proposals: Array<{
        index: number;
        label: string;
        roots: number;
        /** How far the periods move, in % of the current ones. */
        change_pct: number;
        hyperperiod_ms: number;
        kind: string;
        p99_ms?: number;
        mean_ms?: number;
        loss?: number;
        /** Why it was not analysed. */
        error?: string;
    }>;
}

/** The exploration as a chart and table: one row per proposal, fewest latency trees first. */
export function periodsChart(result: PeriodsResult, within = NEARBY): PeriodsPlotData {
    const proposals = result.proposals
        .map((p, index) => {
            const p99 = p.analysis?.percentiles['99'];
            return {
                index,
                label: periodsText(p.periods_ms),
                roots: p.roots,
                change_pct: p.max_relative_change * 100,
                hyperperiod_ms: p.hyperperiod_ms,
                kind: p.kind,
                ...(p99 !== null && p99 !== undefined ? { p99_ms: p99 } : {}),
                ...(p.analysis ? { mean_ms: p.analysis.mean_ms, loss: p.analysis.loss_probability } : {}),
                ...(!p.analysis ? { error: analysisText(p) } : {}),
            };
        })
        .sort((a, b) => a.roots - b.roots || a.change_pct - b.change_pct);
    return {
        view: 'periods',
        key: `periods ${result.name}`,
        title: `ptts ${result.name}: nearby periods with fewer latency trees (thesis 5.7)`,
        summary: `now ${periodsText(result.current.periods_ms)}: ${trees(result.current.roots)}, hyper-period ${ms(result.current.hyperperiod_ms)}`,
        current: { roots: result.current.roots, hyperperiod_ms: result.current.hyperperiod_ms },
        proposals,
        ...(proposals.length ? {} : { note: noProposalText(within) }),
    };
}
