/**
 * The cost of an exact PTTS analysis (thesis eq. 5.15, Tables 5.1 and 5.2),
 * the slow-analysis warning that states it, and the nearby periods proposed
 * to shrink the hyper-period (thesis section 5.7).
 */
import { describe, expect, test } from 'vitest';
import { isPtts, type Ptts } from '../../src/generated/ast.js';
import { proposePeriods, pttsCost, pttsTiming, SLOW_ANALYSIS_OPERATIONS, type PttsTiming } from '../../src/dsl/ptts-cost.js';
import { check, issues, messages } from './helpers.js';

// Independent exact arithmetic (not the one of units.ts).
const gcd = (a: bigint, b: bigint): bigint => (b === 0n ? a : gcd(b, a % b));
const lcm = (a: bigint, b: bigint): bigint => (a / gcd(a, b)) * b;
const lcmAll = (values: bigint[]) => values.reduce(lcm);

/** Milliseconds written as a decimal, in integer nanoseconds, by string manipulation only. */
function msToNs(text: string): bigint {
    const [whole, fraction = ''] = text.split('.');
    return BigInt(whole + fraction.padEnd(6, '0'));
}

/** The case-study ETPs (thesis eqs. 5.16, 5.17 and Figure 5.10) on three components with the given periods (ms). */
function caseStudy(name: string, periods: readonly string[]): string[] {
    return [
        `ptts ${name} {`,
        `    component C0 period ${periods[0]} ms offset 0 ms etp uniform 30 ms .. 60 ms`,
        `    component C1 period ${periods[1]} ms offset 0 ms etp pmf { 11 ms: 0.9, 12 ms: 0.1 }`,
        `    component C2 period ${periods[2]} ms offset 0 ms etp point 8 ms`,
        '}',
    ];
}

async function timingOf(...text: string[]): Promise<PttsTiming> {
    const doc = await check(...text);
    const ptts = doc.parseResult.value.elements.find(isPtts) as Ptts;
    return pttsTiming(ptts)!;
}

const TABLE_5_1 = [
    { config: 'a', periods: ['66', '16', '17'], trees: 136n, hyperperiodMs: '8976' },
    { config: 'b', periods: ['66.6', '16.6', '16.7'], trees: 13861n, hyperperiodMs: '923142.6' },
    { config: 'c', periods: ['66.66', '16.66', '16.67'], trees: 1388611n, hyperperiodMs: '92564809.26' },
] as const;

describe('pttsCost', () => {
    test.each(TABLE_5_1)('Table 5.1 configuration $config: $trees latency trees (Table 5.2)', ({ periods, trees, hyperperiodMs }) => {
        const ns = periods.map(msToNs);
        const cost = pttsCost({ periods: ns, offsets: [0n, 0n, 0n], spans: [undefined, undefined, undefined] });
        expect(cost.trees).toBe(trees);
        expect(cost.hyperperiod).toBe(lcmAll(ns));
        expect(cost.hyperperiod).toBe(msToNs(hyperperiodMs));
        expect(cost.trees).toBe(cost.hyperperiod / ns[0]);
        // Without ETP widths the operations are the trees.
        expect(cost.operations).toBe(trees);
    });

    test('the sample configurations from their text: the same tree counts', async () => {
        for (const { periods, trees } of TABLE_5_1) {
            const timing = await timingOf(...caseStudy('T', periods));
            expect(timing.periods).toEqual(periods.map(msToNs));
            expect(pttsCost(timing).trees).toBe(trees);
        }
    });

    test('thesis Figure 5.2: hyper-period 40600 ms, 203 trees, eq. 5.15 operations', async () => {
        const timing = await timingOf(
            'ptts Fig52 {',
            '    component C0  period 200 ms  offset  0 ms  etp uniform 50 ms .. 149 ms',
            '    component C1  period  58 ms  offset 30 ms  etp uniform 25 ms .. 54 ms',
            '    component C2  period  56 ms  offset  8 ms  etp point 5 ms',
            '}');
        const cost = pttsCost(timing);
        expect(cost.hyperperiod).toBe(40_600_000_000n);
        expect(cost.trees).toBe(203n);
        expect(cost.grid).toBe(1_000_000n);
        // 203 x ceil((149 - 50 + 1) ms / 58 ms) x ceil((54 - 25 + 1) ms / 56 ms) = 203 x 2 x 1.
        expect(cost.operations).toBe(406n);
    });

    test('the first component fixes the tree count: trees = hyper-period / period of component 0', () => {
        const periods = [msToNs('16.6'), msToNs('66.6'), msToNs('16.7')];
        const cost = pttsCost({ periods, offsets: [0n, 0n, 0n], spans: [undefined, undefined, undefined] });
        expect(cost.trees).toBe(lcmAll(periods) / periods[0]);
    });
});

describe('proposePeriods', () => {
    const slow = ['66.666667', '16.666667', '16.7'];

    test('proposals shrink the tree count, move each period by at most 2 %, and make the analysis cheap', async () => {
        const timing = await timingOf(...caseStudy('T', slow));
        const before = pttsCost(timing);
        const proposals = proposePeriods(timing);
        expect(proposals.length).toBeGreaterThan(0);
        for (const proposal of proposals) {
            expect(proposal.cost.trees).toBeLessThan(before.trees);
            expect(proposal.cost.operations).toBeLessThanOrEqual(SLOW_ANALYSIS_OPERATIONS);
            expect(proposal.cost).toEqual(pttsCost({ ...timing, periods: proposal.periods }));
            proposal.periods.forEach((period, i) => {
                const original = timing.periods[i];
                const moved = period > original ? period - original : original - period;
                // |new - old| / old <= 2 %, exactly.
                expect(moved * 50n <= original).toBe(true);
                expect(period % proposal.step).toBe(0n);
            });
            expect(proposal.maxChangePercent).toBeLessThanOrEqual(2);
        }
        // Finest grid first.
        const steps = proposals.map(p => p.step);
        expect([...steps].sort((a, b) => (a < b ? -1 : 1))).toEqual(steps);
        expect(proposals[0].periods).toEqual([msToNs('66.67'), msToNs('16.67'), msToNs('16.7')]);
    });

    test('no proposal when every period may move by only a little', async () => {
        const timing = await timingOf(...caseStudy('T', slow));
        expect(proposePeriods(timing, SLOW_ANALYSIS_OPERATIONS, 0.001)).toEqual([]);
    });

    test('periods already on every grid give no proposals', async () => {
        const timing = await timingOf(...caseStudy('T', ['60', '20', '10']));
        expect(proposePeriods(timing)).toEqual([]);
    });
});

describe('slow-analysis', () => {
    test('66.666667 / 16.666667 / 16.7 ms: a warning at the ptts name stating the trees = hyper-period / period 0', async () => {
        const doc = await check(...caseStudy('Slow', ['66.666667', '16.666667', '16.7']));
        expect(issues(doc)).toEqual(['warning slow-analysis 1:6..1:10 "Slow"']);
        const [message] = messages(doc, 'slow-analysis');
        const periods = ['66.666667', '16.666667', '16.7'].map(msToNs);
        const trees = lcmAll(periods) / periods[0];
        expect(trees).toBe(278_333_338_900_000n);
        expect(message).toMatch(/^Exact analysis would build (\d+) latency trees \(hyper-period .+, about \d+ operations by thesis eq\. 5\.15\) and may take long\./);
        expect(BigInt(/build (\d+) latency trees/.exec(message)![1])).toBe(trees);
        expect(message).toContain('Nearby periods 66.67 ms, 16.67 ms, 16.7 ms need 2783890 trees.');
    });

    test('more digits (66.666 / 16.666 / 16.667 ms) warn too', async () => {
        const doc = await check(...caseStudy('T', ['66.666', '16.666', '16.667']));
        const periods = ['66.666', '16.666', '16.667'].map(msToNs);
        expect(issues(doc)).toEqual(['warning slow-analysis 1:6..1:7 "T"']);
        expect(BigInt(/build (\d+) latency trees/.exec(messages(doc, 'slow-analysis')[0])![1])).toBe(lcmAll(periods) / periods[0]);
    });

    test.each(TABLE_5_1)('positive: Table 5.1 configuration $config ($trees trees) does not warn', async ({ periods }) => {
        expect(issues(await check(...caseStudy('T', periods)))).toEqual([]);
    });

    test('positive: no warning while a period is invalid (the period error says enough)', async () => {
        const doc = await check(...caseStudy('T', ['66.666667', '0', '16.7']));
        expect(issues(doc)).toEqual(['error non-positive-period 3:25..3:29 "0 ms"']);
    });
});
