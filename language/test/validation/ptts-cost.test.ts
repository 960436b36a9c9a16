/**
 * The cost of an exact PTTS analysis (thesis eq. 5.15, Tables 5.1 and 5.2) and the
 * slow-analysis warning where the backend refuses it (more than MAX_TREES trees). The
 * backend's answers for the same models are pinned in tests/ptts-cost-vectors; the
 * nearby periods of the quick fix are the backend's (test/server/nearby-periods.test.ts).
 */
import { describe, expect, test } from 'vitest';
import { isPtts, type Ptts } from '../../src/generated/ast.js';
import { MAX_TREES, pttsCost, pttsTiming, type PttsTiming } from '../../src/dsl/ptts-cost.js';
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
    test.each(TABLE_5_1)(
        'Table 5.1 configuration $config: $trees latency trees (Table 5.2)',
        ({ periods, trees, hyperperiodMs }) => {
            const ns = periods.map(msToNs);
            const cost = pttsCost({ periods: ns, offsets: [0n, 0n, 0n], spans: [undefined, undefined, undefined] });
            expect(cost.trees).toBe(trees);
            expect(cost.hyperperiod).toBe(lcmAll(ns));
            expect(cost.hyperperiod).toBe(msToNs(hyperperiodMs));
            expect(cost.trees).toBe(cost.hyperperiod / ns[0]);
            // Without ETP widths the operations are the trees.
            expect(cost.operations).toBe(trees);
        },
    );

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
            '}',
        );
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

describe('slow-analysis', () => {
    test('66.666667 / 16.666667 / 16.7 ms: more trees than the backend accepts; a warning at the ptts name with eq. 5.15', async () => {
        const doc = await check(...caseStudy('Slow', ['66.666667', '16.666667', '16.7']));
        expect(issues(doc)).toEqual(['warning slow-analysis 1:6..1:10 "Slow"']);
        const [message] = messages(doc, 'slow-analysis');
        const periods = ['66.666667', '16.666667', '16.7'].map(msToNs);
        const trees = lcmAll(periods) / periods[0];
        expect(trees).toBe(278_333_338_900_000n);
        expect(trees > MAX_TREES).toBe(true);
        expect(message).toBe(
            `Exact analysis would build ${trees} latency trees (hyper-period 18555556019444.4463 s, about ${trees * 2n} operations by thesis eq. 5.15), ` +
                'more than the 1000000000000 the analysis accepts: use nearby periods or the simulator.',
        );
    });

    test('positive: 66.666 / 16.666 / 16.667 ms (138886111 trees) is below the limit: the backend analyses it, no warning', async () => {
        const periods = ['66.666', '16.666', '16.667'].map(msToNs);
        expect(lcmAll(periods) / periods[0]).toBe(138_886_111n);
        expect(issues(await check(...caseStudy('T', ['66.666', '16.666', '16.667'])))).toEqual([]);
    });

    test('a histogram or chain ETP leaves eq. 5.15 a lower bound ("at least"); the tree count alone decides', async () => {
        const [, ...components] = caseStudy('T', ['66.666667', '16.666667', '16.7']);
        const doc = await check(
            'chain X { }',
            'ptts T {',
            components[0].replace(/etp .*/, 'etp chain X'),
            ...components.slice(1),
        );
        const [message] = messages(doc, 'slow-analysis');
        // eq. 5.15 without C0's ETP width: its branching counts as 1
        expect(message).toMatch(
            /^Exact analysis would build 278333338900000 latency trees \(hyper-period .+, at least 278333338900000 operations by thesis eq\. 5\.15\)/,
        );
    });

    test.each(TABLE_5_1)(
        'positive: Table 5.1 configuration $config ($trees trees) does not warn',
        async ({ periods }) => {
            expect(issues(await check(...caseStudy('T', periods)))).toEqual([]);
        },
    );

    test('positive: no warning while a period is invalid (the period error says enough)', async () => {
        const doc = await check(...caseStudy('T', ['66.666667', '0', '16.7']));
        expect(issues(doc)).toEqual(['error non-positive-period 3:25..3:29 "0 ms"']);
    });
});
