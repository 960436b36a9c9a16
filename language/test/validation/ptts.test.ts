/**
 * PTTS chains: components with positive periods and offsets below them, ETPs
 * that are probability distributions (pmf sums exact within 1e-9), measurement
 * files, requirements, and the slow-analysis warning of thesis eq. 5.15.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { URI } from 'langium';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { check, checkAt, issues, messages } from './helpers.js';

/** `ptts T { ...body }`: the body starts on line 2. */
const ptts = (...body: string[]) => ['ptts T {', ...body, '}'];
const POINT = 'component A period 10 ms etp point 1 ms';

describe('empty-ptts', () => {
    test('a ptts without components: error at its name', async () => {
        const doc = await check('ptts T { }', 'ptts U { require loss < 0.1 }');
        expect(issues(doc)).toEqual(['error empty-ptts 1:6..1:7 "T"', 'error empty-ptts 2:6..2:7 "U"']);
        expect(messages(doc, 'empty-ptts')[0]).toBe("PTTS chain 'T' has no components.");
    });

    test('positive: one component', async () => {
        expect(issues(await check(...ptts(`    ${POINT}`)))).toEqual([]);
    });
});

describe('missing-period and missing-etp', () => {
    test('errors at the component name', async () => {
        const doc = await check(...ptts('    component A etp point 1 ms', '    component B period 10 ms'));
        expect(issues(doc)).toEqual(['error missing-period 2:15..2:16 "A"', 'error missing-etp 3:15..3:16 "B"']);
        expect(messages(doc, 'missing-period')).toEqual(["Component 'A' has no period."]);
        expect(messages(doc, 'missing-etp')).toEqual([
            "Component 'B' has no execution-time profile (etp point | uniform | pmf | histogram | chain).",
        ]);
    });

    test('positive: settings in any order', async () => {
        expect(issues(await check(...ptts('    component A etp point 1 ms offset 2 ms period 10 ms')))).toEqual([]);
    });
});

describe('non-positive-period', () => {
    test('a zero period: error at the duration', async () => {
        const doc = await check(...ptts('    component A period 0 ms etp point 1 ms'));
        expect(issues(doc)).toEqual(['error non-positive-period 2:24..2:28 "0 ms"']);
        expect(messages(doc, 'non-positive-period')).toEqual(["The period of 'A' must be positive."]);
    });

    test('positive: 1 ns', async () => {
        expect(issues(await check(...ptts('    component A period 1 ns etp point 1 ns')))).toEqual([]);
    });
});

describe('offset-not-below-period', () => {
    test('an offset equal to or above the period: a warning at the offset', async () => {
        const doc = await check(
            ...ptts(
                '    component A period 10 ms offset 10 ms etp point 1 ms',
                '    component B period 10 ms offset 25 ms etp point 1 ms',
            ),
        );
        expect(issues(doc)).toEqual([
            'warning offset-not-below-period 2:37..2:42 "10 ms"',
            'warning offset-not-below-period 3:37..3:42 "25 ms"',
        ]);
        expect(messages(doc, 'offset-not-below-period')).toEqual([
            'Offset 10 ms is not below the period 10 ms; it acts as offset 0 ns.',
            'Offset 25 ms is not below the period 10 ms; it acts as offset 5 ms.',
        ]);
    });

    test('positive: an offset 1 ns below the period, and offset 0', async () => {
        const doc = await check(
            ...ptts(
                '    component A period 10 ms offset 9.999999 ms etp point 1 ms',
                '    component B period 10 ms offset 0 ms etp point 1 ms',
            ),
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('pmf-sum (exact, tolerance 1e-9)', () => {
    test('a sum below 1: error over the whole pmf', async () => {
        const doc = await check(...ptts('    component A period 20 ms etp pmf { 1 ms: 0.5, 2 ms: 0.4 }'));
        expect(issues(doc)).toEqual(['error pmf-sum 2:34..2:62 "pmf { 1 ms: 0.5, 2 ms: 0.4 }"']);
        expect(messages(doc, 'pmf-sum')).toEqual([
            'The probabilities of this pmf sum to 0.9, not 1 (off by -0.1; the tolerance is 1e-9).',
        ]);
    });

    test('a sum above 1, written over several lines', async () => {
        const doc = await check(
            ...ptts('    component A period 20 ms etp pmf {', '        1 ms: 0.6,', '        2 ms: 0.6', '    }'),
        );
        expect(issues(doc)).toEqual([
            'error pmf-sum 2:34..5:6 "pmf {\\n        1 ms: 0.6,\\n        2 ms: 0.6\\n    }"',
        ]);
        expect(messages(doc, 'pmf-sum')[0]).toContain('sum to 1.2, not 1');
    });

    test('off by 2e-9: error', async () => {
        const doc = await check(...ptts('    component A period 20 ms etp pmf { 1 ms: 0.5, 2 ms: 0.499999998 }'));
        expect(issues(doc)).toEqual(['error pmf-sum 2:34..2:70 "pmf { 1 ms: 0.5, 2 ms: 0.499999998 }"']);
        expect(messages(doc, 'pmf-sum')).toEqual([
            'The probabilities of this pmf sum to 0.999999998, not 1 (off by -2e-9; the tolerance is 1e-9).',
        ]);
    });

    test('off by 2e-9 above 1, with many digits: error', async () => {
        const doc = await check(
            ...ptts('    component A period 20 ms etp pmf { 1 ms: 0.5000000010000000000001, 2 ms: 0.500000001 }'),
        );
        expect(issues(doc, 'pmf-sum')).toHaveLength(1);
    });

    test('an empty pmf', async () => {
        const doc = await check(...ptts('    component A period 20 ms etp pmf { }'));
        expect(issues(doc)).toEqual(['error pmf-sum 2:34..2:41 "pmf { }"']);
        expect(messages(doc, 'pmf-sum')).toEqual(['A pmf needs at least one entry.']);
    });

    test.each([
        ['0.1 + 0.2 + 0.7 (a float sum would be 0.9999999999999999)', '1 ms: 0.1, 2 ms: 0.2, 3 ms: 0.7'],
        [
            '0.3333333333 x 3 + 0.0000000001 = 1 exactly',
            '1 ms: 0.3333333333, 2 ms: 0.3333333333, 3 ms: 0.3333333333, 4 ms: 0.0000000001',
        ],
        [
            '0.333333333 x 3: off by exactly 1e-9, within the tolerance',
            '1 ms: 0.333333333, 2 ms: 0.333333333, 3 ms: 0.333333333',
        ],
        ['1.000000001: off by exactly 1e-9 above', '1 ms: 0.500000001, 2 ms: 0.5'],
        ['exponents and a trailing comma', '1 ms: 5e-1, 2 ms: 0.5e0,'],
        ['a whole 1', '1 ms: 1'],
    ])('positive: %s', async (_what, entries) => {
        const doc = await check(...ptts(`    component A period 20 ms etp pmf { ${entries} }`));
        expect(issues(doc)).toEqual([]);
    });
});

describe('pmf-probability', () => {
    test('a probability of 0 or above 1: error at the probability', async () => {
        const doc = await check(
            ...ptts(
                '    component A period 20 ms etp pmf { 1 ms: 0, 2 ms: 1 }',
                '    component B period 20 ms etp pmf { 1 ms: 1.5, 2 ms: 0.5 }',
            ),
        );
        expect(issues(doc)).toEqual([
            'error pmf-probability 2:46..2:47 "0"',
            'error pmf-sum 3:34..3:62 "pmf { 1 ms: 1.5, 2 ms: 0.5 }"',
            'error pmf-probability 3:46..3:49 "1.5"',
        ]);
        expect(messages(doc, 'pmf-probability')).toEqual([
            'A probability must be in (0, 1], got 0.',
            'A probability must be in (0, 1], got 1.5.',
        ]);
    });

    test('positive: small probabilities (1e-400 is positive, though 0 as a float)', async () => {
        expect(
            issues(await check(...ptts('    component A period 20 ms etp pmf { 1 ms: 1e-6, 2 ms: 0.999999 }'))),
        ).toEqual([]);
        expect(issues(await check(...ptts('    component A period 20 ms etp pmf { 1 ms: 1e-400, 2 ms: 1 }')))).toEqual(
            [],
        );
    });
});

describe('pmf-duplicate-time', () => {
    test('one time twice (in different units): error at the later time', async () => {
        const doc = await check(...ptts('    component A period 20 ms etp pmf { 1 ms: 0.5, 1000 us: 0.5 }'));
        expect(issues(doc)).toEqual(['error pmf-duplicate-time 2:51..2:58 "1000 us"']);
        expect(messages(doc, 'pmf-duplicate-time')).toEqual(['Time 1 ms appears twice in this pmf (entries 1 and 2).']);
    });

    test('positive: 1 ms and 1001 us differ', async () => {
        expect(
            issues(await check(...ptts('    component A period 20 ms etp pmf { 1 ms: 0.5, 1001 us: 0.5 }'))),
        ).toEqual([]);
    });
});

describe('uniform-range', () => {
    test('min above max: error at `min .. max`', async () => {
        const doc = await check(...ptts('    component A period 100 ms etp uniform 60 ms .. 30 ms'));
        expect(issues(doc)).toEqual(['error uniform-range 2:43..2:57 "60 ms .. 30 ms"']);
        expect(messages(doc, 'uniform-range')).toEqual(['Empty range: 60 ms is above 30 ms.']);
    });

    test('a zero step: error at the step', async () => {
        const doc = await check(...ptts('    component A period 100 ms etp uniform 30 ms .. 60 ms step 0 ms'));
        expect(issues(doc)).toEqual(['error uniform-range 2:63..2:67 "0 ms"']);
    });

    test('not a whole number of steps: error at `min .. max step s`', async () => {
        const doc = await check(...ptts('    component A period 100 ms etp uniform 30 ms .. 60 ms step 7 ms'));
        expect(issues(doc)).toEqual(['error uniform-range 2:43..2:67 "30 ms .. 60 ms step 7 ms"']);
        expect(messages(doc, 'uniform-range')).toEqual([
            'The range 30 ms .. 60 ms is not a whole number of steps of 7 ms.',
        ]);
    });

    test('the implicit step is one unit of the unit of min', async () => {
        const doc = await check(...ptts('    component A period 100 ms etp uniform 1.5 ms .. 3 ms'));
        expect(issues(doc)).toEqual(['error uniform-range 2:43..2:57 "1.5 ms .. 3 ms"']);
        expect(messages(doc, 'uniform-range')).toEqual([
            "The range 1.5 ms .. 3 ms is not a whole number of steps of 1 ms (without 'step' the step is 1 ms).",
        ]);
    });

    test('positive: whole steps, an explicit finer step, a single point', async () => {
        const doc = await check(
            ...ptts(
                '    component A period 100 ms etp uniform 30 ms .. 60 ms',
                '    component B period 100 ms etp uniform 1.5 ms .. 3 ms step 0.5 ms',
                '    component C period 100 ms etp uniform 5 ms .. 5 ms',
                '    component D period 100 ms etp uniform 1500 us .. 3 ms',
            ),
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('etp-exceeds-period', () => {
    test('an ETP whose least value exceeds the period: a warning at the ETP', async () => {
        const doc = await check(
            ...ptts(
                '    component A period 10 ms etp point 12 ms',
                '    component B period 10 ms etp uniform 11 ms .. 20 ms',
                '    component C period 10 ms etp pmf { 11 ms: 0.5, 12 ms: 0.5 }',
            ),
        );
        expect(issues(doc)).toEqual([
            'warning etp-exceeds-period 2:34..2:45 "point 12 ms"',
            'warning etp-exceeds-period 3:34..3:56 "uniform 11 ms .. 20 ms"',
            'warning etp-exceeds-period 4:34..4:64 "pmf { 11 ms: 0.5, 12 ms: 0.5 }"',
        ]);
        expect(messages(doc, 'etp-exceeds-period')[0]).toBe(
            "Every execution of 'A' takes at least 12 ms, longer than its period 10 ms: a job is still running when the next one is triggered.",
        );
    });

    test('positive: an ETP equal to the period, or one that only sometimes exceeds it', async () => {
        const doc = await check(
            ...ptts(
                '    component A period 10 ms etp point 10 ms',
                '    component B period 10 ms etp uniform 5 ms .. 20 ms',
            ),
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('non-positive-resolution', () => {
    test('a zero resolution: error at the duration', async () => {
        const doc = await check(...ptts('    resolution 0 us', `    ${POINT}`));
        expect(issues(doc)).toEqual(['error non-positive-resolution 2:16..2:20 "0 us"']);
        expect(messages(doc, 'non-positive-resolution')).toEqual(['The time resolution must be positive.']);
    });

    test('positive: 10 us', async () => {
        expect(issues(await check(...ptts('    resolution 10 us  order consumption-first', `    ${POINT}`)))).toEqual(
            [],
        );
    });
});

describe('bad-percentile', () => {
    test('percentiles outside (0, 100) or misspelt: error at the percentile', async () => {
        const doc = await check(
            ...ptts(
                `    ${POINT}`,
                '    require latency p101 < 5 ms',
                '    require latency p0 < 5 ms',
                '    require latency q99 < 5 ms',
                '    require latency p100 < 5 ms',
            ),
        );
        expect(issues(doc)).toEqual([
            'error bad-percentile 3:21..3:25 "p101"',
            'error bad-percentile 4:21..4:23 "p0"',
            'error bad-percentile 5:21..5:24 "q99"',
            'error bad-percentile 6:21..6:25 "p100"',
        ]);
        expect(messages(doc, 'bad-percentile')[0]).toBe("'p101' is not a percentile; write p50, p99 or p99.9.");
    });

    test('positive: p99, p99.9, p50', async () => {
        const doc = await check(
            ...ptts(
                `    ${POINT}`,
                '    require latency p99 < 5 ms  require latency p99.9 < 6 ms  require latency p50 <= 2 ms',
            ),
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('bad-probability', () => {
    test('a deadline probability outside (0, 1] or (0, 100] %: error at the probability', async () => {
        const doc = await check(
            ...ptts(
                `    ${POINT}`,
                '    require latency <= 5 ms with probability >= 150 %',
                '    require latency <= 5 ms with probability >= 1.5',
                '    require latency <= 5 ms with probability >= 0',
            ),
        );
        expect(issues(doc)).toEqual([
            'error bad-probability 3:49..3:54 "150 %"',
            'error bad-probability 4:49..4:52 "1.5"',
            'error bad-probability 5:49..5:50 "0"',
        ]);
        expect(messages(doc, 'bad-probability')[0]).toBe('A probability must be in (0, 1] (or (0, 100] %).');
    });

    test('a loss limit outside (0, 1]: error at the limit', async () => {
        const doc = await check(...ptts(`    ${POINT}`, '    require loss < 0', '    require loss <= 2'));
        expect(issues(doc)).toEqual(['error bad-probability 3:20..3:21 "0"', 'error bad-probability 4:21..4:22 "2"']);
        expect(messages(doc, 'bad-probability')).toEqual([
            'A loss limit is a probability in (0, 1].',
            'A loss limit is a probability in (0, 1].',
        ]);
    });

    test('positive: 100 %, 0.999, loss 1e-4 and 1', async () => {
        const doc = await check(
            ...ptts(
                `    ${POINT}`,
                '    require latency <= 5 ms with probability >= 100 %',
                '    require latency <= 5 ms with probability >= 0.999',
                '    require loss < 1e-4  require loss <= 1',
            ),
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('non-positive-bound', () => {
    test('a latency bound of 0: error at the bound', async () => {
        const doc = await check(
            ...ptts(
                `    ${POINT}`,
                '    require latency p99 < 0 ms',
                '    require latency <= 0 s with probability >= 0.5',
            ),
        );
        expect(issues(doc)).toEqual([
            'error non-positive-bound 3:27..3:31 "0 ms"',
            'error non-positive-bound 4:24..4:27 "0 s"',
        ]);
        expect(messages(doc, 'non-positive-bound')[0]).toBe('A latency bound must be positive.');
    });

    test('positive: 1 ns', async () => {
        expect(issues(await check(...ptts(`    ${POINT}`, '    require latency p99 < 1 ns')))).toEqual([]);
    });
});

describe('histogram-file and histogram-option', () => {
    let dir: string;
    let models = 0;
    /** Each check is a new model file in `dir` (a workspace holds one document per URI). */
    const at = (...body: string[]) =>
        checkAt(URI.file(join(dir, `model${++models}.chain`)).toString(), ...ptts(...body));

    beforeAll(() => {
        dir = mkdtempSync(join(tmpdir(), 'chain-histogram-'));
        writeFileSync(join(dir, 'ok.txt'), '12.5\n13\n# a comment\n\n14.25\n');
        writeFileSync(join(dir, 'ok.csv'), 'run,latency\n1,12.5\n2,13\n');
        writeFileSync(join(dir, 'bad.txt'), '12\n\n# comment\nabc\n');
        writeFileSync(join(dir, 'empty.txt'), '# only a comment\n\n');
        mkdirSync(join(dir, 'sub'));
        writeFileSync(join(dir, 'sub', 'x.txt'), '1\n');
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    test('a file that does not exist: error at the file name', async () => {
        const doc = await at('    component A period 100 ms etp histogram "nope.txt"');
        expect(issues(doc)).toEqual(['error histogram-file 2:45..2:55 "\\"nope.txt\\""']);
        expect(messages(doc, 'histogram-file')).toEqual([`Measurement file not found: ${join(dir, 'nope.txt')}.`]);
    });

    test('files the export could not read: a bad value (with its line), no values, a directory, no name', async () => {
        const doc = await at(
            '    component A period 100 ms etp histogram "bad.txt"',
            '    component B period 100 ms etp histogram "empty.txt"',
            '    component C period 100 ms etp histogram "sub"',
            '    component D period 100 ms etp histogram ""',
        );
        expect(issues(doc)).toEqual([
            'error histogram-file 2:45..2:54 "\\"bad.txt\\""',
            'error histogram-file 3:45..3:56 "\\"empty.txt\\""',
            'error histogram-file 4:45..4:50 "\\"sub\\""',
            'error histogram-file 5:45..5:47 "\\"\\""',
        ]);
        expect(messages(doc, 'histogram-file')).toEqual([
            `${join(dir, 'bad.txt')}:4: 'abc' is not a latency.`,
            `Measurement file ${join(dir, 'empty.txt')} holds no latencies.`,
            `Measurement file ${join(dir, 'sub')} is not a file.`,
            'The histogram names no file.',
        ]);
    });

    test('an unknown column: error at the column name', async () => {
        const doc = await at('    component A period 100 ms etp histogram "ok.csv" column "lat"');
        expect(issues(doc)).toEqual(['error histogram-file 2:61..2:66 "\\"lat\\""']);
        expect(messages(doc, 'histogram-file')).toEqual([
            `Measurement file ${join(dir, 'ok.csv')} has no column 'lat' (columns: 'run', 'latency').`,
        ]);
    });

    test('a file changed after a check is read again', async () => {
        writeFileSync(join(dir, 'changing.txt'), '1\n');
        expect(issues(await at('    component A period 100 ms etp histogram "changing.txt"'))).toEqual([]);
        writeFileSync(join(dir, 'changing.txt'), '1\n2\nbad value\n');
        expect(issues(await at('    component A period 100 ms etp histogram "changing.txt"'))).toEqual([
            'error histogram-file 2:45..2:59 "\\"changing.txt\\""',
        ]);
    });

    test('a zero bin: error at the bin', async () => {
        const doc = await at('    component A period 100 ms etp histogram "ok.txt" bin 0 ms');
        expect(issues(doc)).toEqual(['error histogram-option 2:58..2:62 "0 ms"']);
        expect(messages(doc, 'histogram-option')).toEqual(['A histogram bin must be positive.']);
    });

    test('positive: files relative to the model, absolute paths, a CSV column, options', async () => {
        const doc = await at(
            '    component A period 100 ms etp histogram "ok.txt" unit ms bin 1 ms',
            '    component B period 100 ms etp histogram "ok.csv" column "latency"',
            `    component C period 100 ms etp histogram "${join(dir, 'sub', 'x.txt')}" unit us`,
            '    component D period 100 ms etp histogram "sub/x.txt"',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('chain-period-mismatch', () => {
    const CHAIN = [
        'platform P { cores 2 }',
        'image F 8 x 8 of u8',
        'box S { out o: F source period 33.3 ms }',
        'box K { in i: F kernel sink }',
        'chain C on P { s: S k: K s.o -> k.i }',
    ];

    test("a component running a chain at another rate than the chain's source: a warning at the ETP", async () => {
        const doc = await check(...CHAIN, 'ptts T { component A period 66.6 ms etp chain C }');
        expect(issues(doc)).toEqual(['warning chain-period-mismatch 6:41..6:48 "chain C"']);
        expect(messages(doc, 'chain-period-mismatch')).toEqual([
            "Component 'A' runs chain 'C' every 66.6 ms, but its source 's' (box S) has period 33.3 ms.",
        ]);
    });

    test('positive: the same period, or a free-running source', async () => {
        expect(issues(await check(...CHAIN, 'ptts T { component A period 33.3 ms etp chain C }'))).toEqual([]);
        const free = CHAIN.map(l => l.replace('source period 33.3 ms', 'source'));
        expect(issues(await check(...free, 'ptts T { component A period 66.6 ms etp chain C }'))).toEqual([]);
    });
});
