/**
 * Names and references: duplicate names, settings given twice, references
 * that do not resolve (Langium's linking-error) and syntax errors.
 */
import { describe, expect, test } from 'vitest';
import { CHAIN, check, issues, messages, PRELUDE } from './helpers.js';

describe('duplicate-name', () => {
    test('two elements with one name: error at the second name, naming the line of the first', async () => {
        const doc = await check(...PRELUDE, 'box Gain { in i: F  out o: F  kernel copy }');
        expect(issues(doc)).toEqual(['error duplicate-name 6:5..6:9 "Gain"']);
        expect(messages(doc, 'duplicate-name')).toEqual(["Duplicate name 'Gain' (first defined on line 4)."]);
    });

    test('elements of different kinds share one namespace', async () => {
        const doc = await check(...PRELUDE, 'image Gain 8 x 8 of u8');
        expect(issues(doc)).toEqual(['error duplicate-name 6:7..6:11 "Gain"']);
    });

    test('two ports of one box', async () => {
        const doc = await check(...PRELUDE, 'box Two { in i: F  in i: F  out o: F  kernel add }');
        expect(issues(doc)).toEqual(['error duplicate-name 6:23..6:24 "i"']);
        expect(messages(doc, 'duplicate-name')[0]).toBe("Duplicate port 'i' in box 'Two' (first defined on line 6).");
    });

    test('two instances of one chain', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Gain  k: Sink  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
        );
        expect(issues(doc)).toEqual(['error duplicate-name 7:31..7:32 "k"']);
    });

    test('two components of one ptts', async () => {
        const doc = await check(
            'ptts T {',
            '    component A period 10 ms etp point 1 ms',
            '    component A period 20 ms etp point 1 ms',
            '}',
        );
        expect(issues(doc)).toEqual(['error duplicate-name 3:15..3:16 "A"']);
    });

    test('two caches of one level', async () => {
        const doc = await check('platform Q { cores 2  cache L2 256 KiB private  cache L2 512 KiB private }');
        expect(issues(doc)).toEqual(['error duplicate-name 1:55..1:57 "L2"']);
        expect(messages(doc, 'duplicate-name')).toEqual([
            "Duplicate cache level 'L2' in platform 'Q' (first defined on line 1).",
        ]);
    });

    test('positive: one name may be reused in different scopes', async () => {
        // Port `i` in several boxes, instance `s` in two chains, a component named like a box, caches of different
        // levels.
        const doc = await check(
            ...PRELUDE,
            'box Copy { in i: F  out o: F  kernel copy }',
            ...CHAIN,
            'chain D on P {',
            '    s: Src  g: Copy  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
            'ptts T { component Src period 10 ms etp point 1 ms }',
            'platform Q { cores 2 cache L2 256 KiB cache L3 8 MiB shared }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('repeated-setting', () => {
    test.each([
        ['platform', ['platform Q { cores 2  smt on  cores 4 }'], 'error repeated-setting 1:31..1:38 "cores 4"'],
        [
            'box',
            [...PRELUDE, 'box G2 { in i: F  out o: F  kernel gain(2)  split rows  depends pointwise  split none }'],
            'error repeated-setting 6:76..6:86 "split none"',
        ],
        [
            'box kernel',
            [...PRELUDE, 'box G2 { in i: F  out o: F  kernel gain(2)  kernel copy }'],
            'error repeated-setting 6:45..6:56 "kernel copy"',
        ],
        [
            'schedule option',
            [
                ...PRELUDE,
                'chain C on P {',
                '    s: Src  g: Gain  k: Sink',
                '    s.o -> g.i  g.o -> k.i',
                '    schedule fixed threads 2 threads 3',
                '}',
            ],
            'error repeated-setting 9:30..9:39 "threads 3"',
        ],
        [
            'component',
            ['ptts T { component A period 10 ms etp point 1 ms period 20 ms }'],
            'error repeated-setting 1:50..1:62 "period 20 ms"',
        ],
        [
            'ptts',
            ['ptts T { resolution 1 ms  component A period 10 ms etp point 1 ms  resolution 2 ms }'],
            'error repeated-setting 1:68..1:83 "resolution 2 ms"',
        ],
        [
            'duty-cycle throttle',
            ['throttle T { duty-cycle sample 100 us threshold 20 % sample 200 us }'],
            'error repeated-setting 1:54..1:67 "sample 200 us"',
        ],
        [
            'budget throttle',
            ['throttle T { budget period 10 ms misses 10 period 20 ms }'],
            'error repeated-setting 1:44..1:56 "period 20 ms"',
        ],
        [
            'target',
            [
                'throttle B { budget period 10 ms misses 10 }',
                'target t { local rt-cores 0 be-cores 1 throttle B rt-cores 2 }',
            ],
            'error repeated-setting 2:51..2:61 "rt-cores 2"',
        ],
    ])('%s: error at the repeated setting', async (_what, text, expected) => {
        const doc = await check(...text);
        expect(issues(doc)).toEqual([expected]);
    });

    test('chain: each repeated chain setting', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Gain  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '    memory reuse  schedule fixed  memory simple  schedule simple',
            '}',
        );
        expect(issues(doc)).toEqual([
            'error repeated-setting 9:35..9:48 "memory simple"',
            'error repeated-setting 9:50..9:65 "schedule simple"',
        ]);
        expect(messages(doc, 'repeated-setting')[0]).toBe(
            "'memory' is given more than once in chain 'C'; only the first counts.",
        );
    });

    test('histogram option', async () => {
        const doc = await check('ptts T { component A period 10 ms etp histogram "missing.csv" unit ms unit us }');
        expect(issues(doc, 'repeated-setting')).toEqual(['error repeated-setting 1:71..1:78 "unit us"']);
    });

    test('positive: several caches and several requirements are not repeats', async () => {
        const doc = await check(
            'platform Q { cores 2 cache L2 256 KiB cache L3 8 MiB shared }',
            'ptts T { component A period 10 ms etp point 1 ms require latency p99 < 5 ms require latency p50 < 2 ms require loss < 0.1 }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('linking-error (Langium): references that do not resolve', () => {
    test('unknown box of an instance', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Gian  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
        );
        // The ports of `g` cannot resolve either while its box is unknown: only the box is reported.
        expect(issues(doc)).toEqual(['error linking-error 7:16..7:20 "Gian"']);
        expect(messages(doc, 'linking-error')[0]).toBe("Unknown box 'Gian'; did you mean 'Gain'?");
    });

    test('unknown instance of a connection', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Gain  k: Sink',
            '    s.o -> g.i  h.o -> k.i',
            '}',
        );
        expect(issues(doc, 'linking-error')).toEqual(['error linking-error 8:17..8:18 "h"']);
        expect(messages(doc, 'linking-error')[0]).toBe("Unknown instance 'h'; known instances: s, g, k.");
    });

    test('unknown port of a known instance', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on P {',
            '    s: Src  g: Gain  k: Sink',
            '    s.o -> g.in  g.o -> k.i',
            '}',
        );
        expect(issues(doc)).toEqual(['error unconnected-input 7:13..7:14 "g"', 'error linking-error 8:14..8:16 "in"']);
        expect(messages(doc, 'linking-error')).toEqual([
            "Box 'Gain' (instance 'g') has no port 'in'; did you mean 'i'?",
        ]);
    });

    test('connection to a box without ports', async () => {
        const doc = await check(
            ...PRELUDE,
            'box Empty { kernel copy }',
            'chain C on P {',
            '    s: Src  e: Empty  k: Sink',
            '    s.o -> e.i  e.o -> k.i',
            '}',
        );
        expect(issues(doc)).toEqual([
            'error kernel-ports 6:20..6:24 "copy"',
            'error linking-error 9:14..9:15 "i"',
            'error linking-error 9:19..9:20 "o"',
        ]);
    });

    test('instances of another chain are not visible', async () => {
        const doc = await check(...PRELUDE, ...CHAIN, 'chain D on P {', '    t: Src  k: Sink', '    s.o -> k.i', '}');
        expect(issues(doc, 'linking-error')).toEqual(['error linking-error 12:5..12:6 "s"']);
    });

    test('unknown image type of a port', async () => {
        const doc = await check(...PRELUDE, 'box G2 { in i: Frame  out o: F  kernel copy }');
        expect(issues(doc)).toEqual(['error linking-error 6:16..6:21 "Frame"']);
        expect(messages(doc, 'linking-error')).toEqual(["Unknown image type 'Frame'; known image types: F."]);
    });

    test('unknown platform of a chain', async () => {
        const doc = await check(
            ...PRELUDE,
            'chain C on Q {',
            '    s: Src  g: Gain  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
        );
        expect(issues(doc)).toEqual(['error linking-error 6:12..6:13 "Q"']);
    });

    test('unknown throttle and platform of a target', async () => {
        const doc = await check('target t { local rt-cores 0 be-cores 1 throttle Nope platform Q }');
        expect(issues(doc)).toEqual(['error linking-error 1:49..1:53 "Nope"', 'error linking-error 1:63..1:64 "Q"']);
    });

    test('a chain ETP must name a box chain (not a ptts)', async () => {
        const doc = await check(
            'ptts T { component A period 10 ms etp chain Nope }',
            'ptts U { component B period 10 ms etp chain T }',
        );
        expect(issues(doc)).toEqual(['error linking-error 1:45..1:49 "Nope"', 'error linking-error 2:45..2:46 "T"']);
        expect(messages(doc, 'linking-error')[1]).toBe("Unknown chain 'T'; there are no chains here.");
    });

    test('positive: references resolve in any order (a chain before its boxes, a chain ETP)', async () => {
        const doc = await check(
            'chain C on P {',
            '    s: Src  g: Gain  k: Sink',
            '    s.o -> g.i  g.o -> k.i',
            '}',
            ...PRELUDE,
            'ptts T { component A period 10 ms etp chain C }',
            'throttle B { budget period 10 ms misses 10 }',
            'target t { local platform P rt-cores 0 be-cores 1 throttle B }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('syntax errors (Langium): parsing-error and lexing-error', () => {
    test('a missing colon in a port', async () => {
        const doc = await check('image F 64 x 64 of u8', 'box A { in i F  kernel sink }');
        expect(issues(doc)).toEqual(['error parsing-error 2:14..2:15 "F"']);
    });

    test('a missing closing brace at the end of the file', async () => {
        const doc = await check('platform P { cores 4');
        expect(issues(doc)).toEqual(['error parsing-error 1:21..1:21 ""']);
    });

    test('a negative core count', async () => {
        const doc = await check('platform P { cores -1 }');
        expect(issues(doc)).toEqual(['error parsing-error 1:20..1:21 "-"']);
    });

    test('a character outside the language', async () => {
        const doc = await check('platform P { cores 4 § }');
        expect(issues(doc)).toEqual(['error lexing-error 1:22..1:23 "§"']);
    });

    test('an etp without a profile: the parse error, and the component lacks its etp', async () => {
        const doc = await check('ptts T { component A period 10 ms etp }');
        expect(issues(doc)).toEqual(['error missing-etp 1:20..1:21 "A"', 'error parsing-error 1:39..1:40 "}"']);
    });

    test('positive: comments and free layout', async () => {
        const doc = await check(
            '// a platform',
            'platform P { /* four */ cores 4 }',
            'image F 64 x 64 of u8 box Src { out o: F source period 10 ms } box Sink { in i: F kernel sink }',
            'chain C on P { s: Src k: Sink s.o -> k.i }',
        );
        expect(issues(doc)).toEqual([]);
    });
});
