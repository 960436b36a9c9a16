/**
 * What an exact PTTS analysis will cost, before running it: the time grid, the hyper-period, the latency
 * trees (thesis Table 5.2) and the operations of thesis eq. 5.15, computed exactly as the backend does
 * (backend/chainlab/ptts/grid.py and cost.py; tests/ptts-cost-vectors checks both sides). Nearby periods
 * are the backend's alone: the language server asks it (src/server/nearby-periods.ts).
 * Everything is exact integer nanoseconds.
 */
import type { Component, Etp, Ptts } from '../generated/ast.js';
import { componentEtp, componentOffset, componentPeriod, pttsComponents, pttsResolution } from './model-util.js';
import { decimalToNumber, durationNs, gcd, lcm, parseDecimal } from './units.js';

/** Latency trees above which the backend refuses an exact analysis (its DEFAULT_MAX_TREES). */
export const MAX_TREES = 10n ** 12n;

/** Smallest and largest point of an ETP and the gcd of its points, on the analysis resolution if any. */
export interface EtpSpan {
    readonly min: bigint;
    readonly max: bigint;
    readonly grid: bigint;
}

/** `resolution` rounds every point up onto it, as the backend bins ETPs (grid.py). */
const roundUp = (value: bigint, resolution: bigint | undefined): bigint =>
    resolution ? ((value + resolution - 1n) / resolution) * resolution : value;

function pointsSpan(points: bigint[]): EtpSpan | undefined {
    if (points.length === 0) return undefined;
    return {
        min: points.reduce((a, b) => (b < a ? b : a)),
        max: points.reduce((a, b) => (b > a ? b : a)),
        grid: points.reduce((a, b) => gcd(a, b), 0n),
    };
}

/** The gcd of min + k·step (k < count), each rounded up onto the resolution, without listing every point. */
function uniformGrid(min: bigint, step: bigint, count: bigint, resolution: bigint | undefined): bigint {
    if (!resolution || (min % resolution === 0n && step % resolution === 0n)) return gcd(min, step);
    // The rounded points repeat with period p = resolution / gcd(step, resolution), shifted by p·step;
    // every one is a multiple of the resolution, so the gcd cannot fall below it.
    const period = resolution / gcd(step, resolution);
    let grid = count > period ? period * step : 0n;
    for (let k = 0n; k < count && k < period && grid !== resolution; k++)
        grid = gcd(grid, roundUp(min + k * step, resolution));
    return grid;
}

/** The span of an ETP, or undefined where it is known only to the backend (histogram, chain) or invalid. */
export function etpSpan(etp: Etp | undefined, resolution?: bigint): EtpSpan | undefined {
    if (!etp) return undefined;
    switch (etp.kind) {
        case 'point': {
            const v = durationNs(etp.value);
            return v.ok ? pointsSpan([roundUp(v.value, resolution)]) : undefined;
        }
        case 'uniform': {
            const min = durationNs(etp.min),
                max = durationNs(etp.max);
            const step = etp.step ? durationNs(etp.step) : uniformDefaultStep(etp);
            if (!min.ok || !max.ok || !step.ok || step.value <= 0n || max.value < min.value) return undefined;
            const count = (max.value - min.value) / step.value + 1n;
            return {
                min: roundUp(min.value, resolution),
                max: roundUp(min.value + (count - 1n) * step.value, resolution),
                grid: uniformGrid(min.value, step.value, count, resolution),
            };
        }
        case 'pmf': {
            // The IR carries probabilities as floats: a point whose probability is 0 there is no point to the backend.
            const times = etp.entries
                .filter(e => {
                    const p = parseDecimal(e.probability);
                    return !p || decimalToNumber(p) !== 0;
                })
                .map(e => durationNs(e.time))
                .filter(t => t.ok)
                .map(t => roundUp((t as { value: bigint }).value, resolution));
            return pointsSpan(times);
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

/** Periods, offsets and ETP spans of a PTTS chain, or undefined while any period or the resolution is invalid. */
export function pttsTiming(ptts: Ptts): PttsTiming | undefined {
    const components = pttsComponents(ptts);
    if (components.length === 0) return undefined;
    const resolutionNode = pttsResolution(ptts);
    const resolution = resolutionNode ? durationNs(resolutionNode) : undefined;
    if (resolution && (!resolution.ok || resolution.value <= 0n)) return undefined;
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
    const spans = components.map((c: Component) =>
        etpSpan(componentEtp(c), resolution?.ok ? resolution.value : undefined),
    );
    return { names: components.map(c => c.name), periods, offsets, spans };
}

export interface PttsCost {
    readonly hyperperiod: bigint;
    /** Latency trees = roots = hyper-period / d0 (thesis Table 5.2). */
    readonly trees: bigint;
    /** ⌈(τ̂(i) − τ̌(i) + 1 grid unit) / d(i+1)⌉ per hop (eq. 5.15); 1 where the ETP is unknown here. */
    readonly branching: bigint[];
    /** Eq. 5.15: trees × Π branching. */
    readonly operations: bigint;
    /** The analysis grid: gcd of all periods, offsets and ETP points. */
    readonly grid: bigint;
    /** Every ETP was known, so grid, branching and operations are the backend's; else they are lower bounds. */
    readonly complete: boolean;
    /** The backend refuses the exact analysis: more than MAX_TREES latency trees. */
    readonly overTreeLimit: boolean;
}

export function pttsCost(timing: Pick<PttsTiming, 'periods' | 'offsets' | 'spans'>): PttsCost {
    const { periods, offsets, spans } = timing;
    const complete = spans.every(s => s !== undefined);
    const hyperperiod = periods.reduce((a, b) => lcm(a, b), 1n);
    let grid = periods.reduce((a, b) => gcd(a, b), 0n);
    for (const o of offsets) grid = gcd(grid, o);
    for (const s of spans) if (s) grid = gcd(grid, s.grid);
    if (grid === 0n) grid = 1n;
    // An unknown ETP may refine the grid: then one ns is the only "+1" that still gives a lower bound.
    const unit = complete ? grid : 1n;
    const trees = hyperperiod / periods[0];
    const branching = periods.slice(1).map((next, i) => {
        const span = spans[i];
        return span ? (span.max - span.min + unit + next - 1n) / next : 1n;
    });
    const operations = branching.reduce((a, b) => a * b, trees);
    return { hyperperiod, trees, branching, operations, grid, complete, overTreeLimit: trees > MAX_TREES };
}
