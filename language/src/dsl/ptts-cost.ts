/**
 * What an exact PTTS analysis will cost, before running it (thesis eq. 5.15),
 * and nearby periods that shrink the hyper-period (thesis section 5.7).
 * Everything is exact integer nanoseconds.
 */
import type { Component, Etp, Ptts } from '../generated/ast.js';
import { componentEtp, componentOffset, componentPeriod, pttsComponents } from './model-util.js';
import { durationNs, gcd, lcm } from './units.js';

/** Above this many operations (eq. 5.15) the language warns that exact analysis may take long. */
export const SLOW_ANALYSIS_OPERATIONS = 50_000_000n;

export interface EtpSpan { readonly min: bigint; readonly max: bigint; readonly grid: bigint }

/** Smallest and largest value of an ETP, and the gcd of its points; undefined if unknown (chain, histogram). */
export function etpSpan(etp: Etp | undefined): EtpSpan | undefined {
    if (!etp) return undefined;
    switch (etp.kind) {
        case 'point': {
            const v = durationNs(etp.value);
            return v.ok ? { min: v.value, max: v.value, grid: v.value } : undefined;
        }
        case 'uniform': {
            const min = durationNs(etp.min), max = durationNs(etp.max);
            const step = etp.step ? durationNs(etp.step) : uniformDefaultStep(etp);
            if (!min.ok || !max.ok || !step.ok) return undefined;
            return { min: min.value, max: max.value, grid: gcd(min.value, step.value) };
        }
        case 'pmf': {
            const times = etp.entries.map(e => durationNs(e.time)).filter(t => t.ok).map(t => (t as { value: bigint }).value);
            if (times.length === 0) return undefined;
            return {
                min: times.reduce((a, b) => (b < a ? b : a)),
                max: times.reduce((a, b) => (b > a ? b : a)),
                grid: times.reduce((a, b) => gcd(a, b), 0n),
            };
        }
        default:
            return undefined;
    }
}

/** `uniform 30 ms .. 60 ms` steps by one unit of the unit `min` is written in. */
export function uniformDefaultStep(etp: Extract<Etp, { kind: 'uniform' }>): ReturnType<typeof durationNs> {
    return durationNs({ $type: 'Duration', value: '1', unit: etp.min?.unit } as never);
}

export interface PttsTiming {
    readonly names: string[];
    readonly periods: bigint[];
    readonly offsets: bigint[];
    readonly spans: (EtpSpan | undefined)[];
}

/** Periods, offsets and ETP spans of a PTTS chain, or undefined while any period is invalid. */
export function pttsTiming(ptts: Ptts): PttsTiming | undefined {
    const components = pttsComponents(ptts);
    if (components.length === 0) return undefined;
    const periods: bigint[] = [];
    const offsets: bigint[] = [];
    for (const c of components) {
        const period = durationNs(componentPeriod(c));
        if (!period.ok || period.value <= 0n) return undefined;
        periods.push(period.value);
        const offsetNode = componentOffset(c);
        const offset = offsetNode ? durationNs(offsetNode) : { ok: true as const, value: 0n };
        offsets.push(offset.ok ? offset.value : 0n);
    }
    return { names: components.map((c: Component) => c.name), periods, offsets, spans: components.map(c => etpSpan(componentEtp(c))) };
}

export interface PttsCost {
    readonly hyperperiod: bigint;
    /** Latency trees = roots = hyper-period / d0 (thesis Table 5.2). */
    readonly trees: bigint;
    /** Eq. 5.15: trees × Π ⌈(τ̂(i) − τ̌(i) + 1) / d(i+1)⌉ (unknown ETP widths count as 1). */
    readonly operations: bigint;
    readonly grid: bigint;
}

export function pttsCost(timing: Pick<PttsTiming, 'periods' | 'offsets' | 'spans'>): PttsCost {
    const { periods, offsets, spans } = timing;
    const hyperperiod = periods.reduce((a, b) => lcm(a, b), 1n);
    let grid = periods.reduce((a, b) => gcd(a, b), 0n);
    for (const o of offsets) grid = gcd(grid, o);
    for (const s of spans) if (s) grid = gcd(gcd(grid, s.grid), s.min);
    if (grid === 0n) grid = 1n;
    const trees = hyperperiod / periods[0];
    let operations = trees;
    for (let i = 0; i + 1 < periods.length; i++) {
        const span = spans[i];
        if (!span) continue;
        const width = span.max - span.min + grid;
        operations *= (width + periods[i + 1] - 1n) / periods[i + 1];
    }
    return { hyperperiod, trees, operations, grid };
}

export interface PeriodProposal {
    readonly step: bigint;
    readonly periods: bigint[];
    readonly cost: PttsCost;
    /** Largest relative change of any period, in percent. */
    readonly maxChangePercent: number;
}

const PROPOSAL_STEPS = [1_000n, 10_000n, 100_000n, 1_000_000n, 10_000_000n];

/**
 * Nearby periods (each rounded to a coarser grid, at most `maxChangePercent` away)
 * whose hyper-period makes the analysis cheaper than `limit` operations; finest grid first.
 */
export function proposePeriods(timing: PttsTiming, limit = SLOW_ANALYSIS_OPERATIONS, maxChangePercent = 2): PeriodProposal[] {
    const proposals: PeriodProposal[] = [];
    for (const step of PROPOSAL_STEPS) {
        const periods = timing.periods.map(p => {
            const rounded = ((p + step / 2n) / step) * step;
            return rounded === 0n ? step : rounded;
        });
        if (periods.every((p, i) => p === timing.periods[i])) continue;
        const change = Math.max(...periods.map((p, i) => Math.abs(Number(p - timing.periods[i])) / Number(timing.periods[i]) * 100));
        if (change > maxChangePercent) break;
        const cost = pttsCost({ ...timing, periods });
        if (cost.operations <= limit) proposals.push({ step, periods, cost, maxChangePercent: change });
        if (proposals.length >= 3) break;
    }
    return proposals;
}
