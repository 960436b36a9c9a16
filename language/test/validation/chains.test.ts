/**
 * Box chains: connections (direction, image type, one writer per input),
 * unconnected ports, cycles, sources, schedules that fit the platform, halos
 * that fit a slice, iterations and requirements.
 */
import { describe, expect, test } from 'vitest';
import { CHAIN, check, issues, messages, PRELUDE } from './helpers.js';

/** The prelude and `chain C on P { ...body }`: the body starts on line 7. */
const chain = (...body: string[]) => [...PRELUDE, 'chain C on P {', ...body, '}'];
const INSTANCES = '    s: Src  g: Gain  k: Sink';
const CONNECTIONS = '    s.o -> g.i  g.o -> k.i';

describe('a clean chain', () => {
    test('the prelude chain has no diagnostics', async () => {
        expect(issues(await check(...PRELUDE, ...CHAIN))).toEqual([]);
    });
});

describe('boxes used in a chain', () => {
    test('an instance of a box without kernel: the box reports missing-kernel once, the chain adds nothing', async () => {
        const doc = await check(
            ...PRELUDE,
            'box Nothing { in i: F  out o: F }',
            'chain C on P {',
            '    s: Src  n: Nothing  k: Sink',
            '    s.o -> n.i  n.o -> k.i',
            '}',
        );
        expect(issues(doc)).toEqual(['error missing-kernel 6:5..6:12 "Nothing"']);
    });
});

describe('connection-direction', () => {
    test('a connection from an input: error at its source port', async () => {
        const doc = await check(...chain(INSTANCES, '    s.o -> g.i  g.i -> k.i'));
        expect(issues(doc)).toEqual([
            'warning unconnected-output 7:13..7:14 "g"',
            'error connection-direction 8:17..8:20 "g.i"',
        ]);
        expect(messages(doc, 'connection-direction')).toEqual([
            "'g.i' is an input; a connection starts at an output port.",
        ]);
    });

    test('a connection to an output: error at its target port', async () => {
        const doc = await check(...chain(INSTANCES, '    s.o -> g.o  g.o -> k.i'));
        expect(issues(doc)).toEqual([
            'error unconnected-input 7:13..7:14 "g"',
            'error connection-direction 8:12..8:15 "g.o"',
        ]);
        expect(messages(doc, 'connection-direction')).toEqual([
            "'g.o' is an output; a connection ends at an input port.",
        ]);
    });

    test('positive: output to input', async () => {
        expect(issues(await check(...chain(INSTANCES, CONNECTIONS)))).toEqual([]);
    });
});

describe('port-type-mismatch', () => {
    const withSink = (image: string) => [
        ...PRELUDE,
        image,
        'box SinkH { in i: H  kernel sink }',
        'chain C on P {',
        INSTANCES.replace('Sink', 'SinkH'),
        CONNECTIONS,
        '}',
    ];

    test('another size: error at the whole connection', async () => {
        const doc = await check(...withSink('image H 32 x 32 of u8'));
        expect(issues(doc)).toEqual(['error port-type-mismatch 10:17..10:27 "g.o -> k.i"']);
        expect(messages(doc, 'port-type-mismatch')).toEqual([
            'Port type mismatch: F (64 x 64 of u8) does not fit H (32 x 32 of u8).',
        ]);
    });

    test('another pixel type', async () => {
        const doc = await check(...withSink('image H 64 x 64 of u16'));
        expect(issues(doc)).toEqual(['error port-type-mismatch 10:17..10:27 "g.o -> k.i"']);
    });

    test('positive: an image type of another name but the same shape fits', async () => {
        expect(issues(await check(...withSink('image H 64 x 64 of u8')))).toEqual([]);
    });
});

describe('two-writers', () => {
    test('a second writer into one input: error at the target port of the later connection', async () => {
        const doc = await check(...chain(INSTANCES, '    s.o -> g.i  g.o -> k.i  s.o -> k.i'));
        expect(issues(doc)).toEqual(['error two-writers 8:36..8:39 "k.i"']);
        expect(messages(doc, 'two-writers')).toEqual([
            "Input 'k.i' already has a writer ('g.o' on line 8); an input takes one connection (use a dup box to fan out).",
        ]);
    });

    test('the same connection twice', async () => {
        const doc = await check(...chain(INSTANCES, CONNECTIONS, '    g.o -> k.i'));
        expect(issues(doc)).toEqual(['error two-writers 9:12..9:15 "k.i"']);
        expect(messages(doc, 'two-writers')).toEqual(["The connection 'g.o -> k.i' is given twice (first on line 8)."]);
    });

    test('positive: one output may feed several inputs; a dup box fans out', async () => {
        const doc = await check(
            ...PRELUDE,
            'box Dup { in i: F  out a: F  out b: F  kernel dup }',
            'box Sink2 { in a: F  in b: F  kernel sink }',
            'chain C on P {',
            '    s: Src  d: Dup  k: Sink2  g: Gain  h: Gain  m: Sink  n: Sink',
            '    s.o -> d.i  d.a -> k.a  d.b -> k.b',
            '    s.o -> g.i  s.o -> h.i  g.o -> m.i  h.o -> n.i',
            '}',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('unconnected-input and unconnected-output', () => {
    test('an input without writer: error at the instance name', async () => {
        const doc = await check(...chain(INSTANCES, '    s.o -> g.i'));
        expect(issues(doc)).toEqual([
            'warning unconnected-output 7:13..7:14 "g"',
            'error unconnected-input 7:22..7:23 "k"',
        ]);
        expect(messages(doc, 'unconnected-input')).toEqual(["Input 'k.i' is not connected."]);
        expect(messages(doc, 'unconnected-output')).toEqual([
            "Output 'g.o' is not connected; its frames are discarded.",
        ]);
    });

    test('an output nobody reads: a warning at the instance name', async () => {
        const doc = await check(...chain(INSTANCES, '    s.o -> g.i  s.o -> k.i'));
        expect(issues(doc)).toEqual(['warning unconnected-output 7:13..7:14 "g"']);
    });

    test('positive: every port connected', async () => {
        expect(issues(await check(...chain(INSTANCES, CONNECTIONS)))).toEqual([]);
    });
});

describe('cycle', () => {
    test('a box feeding itself: error at the connection closing the cycle', async () => {
        const doc = await check(...chain(INSTANCES, '    s.o -> k.i  g.o -> g.i'));
        expect(issues(doc)).toEqual(['error cycle 8:17..8:27 "g.o -> g.i"']);
        expect(messages(doc, 'cycle')).toEqual(['Cycle without delay: g -> g.']);
    });

    test('a cycle through three boxes is reported once', async () => {
        const doc = await check(
            ...PRELUDE,
            'box Add { in a: F  in b: F  out o: F  kernel add }',
            'box Dup { in i: F  out a: F  out b: F  kernel dup }',
            'chain C on P {',
            '    s: Src  a: Add  g: Gain  d: Dup  k: Sink',
            '    s.o -> a.a  a.o -> g.i  g.o -> d.i  d.a -> a.b  d.b -> k.i',
            '}',
        );
        expect(issues(doc)).toEqual(['error cycle 10:41..10:51 "d.a -> a.b"']);
        expect(messages(doc, 'cycle')).toEqual(['Cycle without delay: a -> g -> d -> a.']);
    });

    test('positive: a diamond (two paths, no cycle)', async () => {
        const doc = await check(
            ...PRELUDE,
            'box Add { in a: F  in b: F  out o: F  kernel add }',
            'box Dup { in i: F  out a: F  out b: F  kernel dup }',
            'chain C on P {',
            '    s: Src  d: Dup  g: Gain  h: Gain  a: Add  k: Sink',
            '    s.o -> d.i  d.a -> g.i  d.b -> h.i  g.o -> a.a  h.o -> a.b  a.o -> k.i',
            '}',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('no-source and empty-chain', () => {
    test('instances but no source box: error at the chain name', async () => {
        const doc = await check(...chain('    g: Gain  k: Sink', '    g.o -> k.i'));
        expect(issues(doc)).toEqual(['error no-source 6:7..6:8 "C"', 'error unconnected-input 7:5..7:6 "g"']);
        expect(messages(doc, 'no-source')).toEqual(["Chain 'C' has no source box; nothing feeds it."]);
    });

    test('an unresolved box may be the source: only the linking errors', async () => {
        const doc = await check(...chain('    s: Source  g: Gain  k: Sink', CONNECTIONS));
        expect(issues(doc)).toEqual(['error linking-error 7:8..7:14 "Source"']);
    });

    test('a chain without instances: error at the chain name', async () => {
        const doc = await check(...PRELUDE, 'chain C on P { schedule fixed threads 2 }');
        expect(issues(doc)).toEqual(['error empty-chain 6:7..6:8 "C"']);
        expect(messages(doc, 'empty-chain')).toEqual(["Chain 'C' has no box instances ('name: Box')."]);
    });

    test('positive: a source and a sink are a chain', async () => {
        expect(issues(await check(...chain('    s: Src  k: Sink', '    s.o -> k.i')))).toEqual([]);
    });
});

describe('threads-exceed-cores and non-positive-threads', () => {
    test('more threads than the platform has cores: error at `threads N`', async () => {
        const doc = await check(...chain(INSTANCES, CONNECTIONS, '    schedule fixed threads 5'));
        expect(issues(doc)).toEqual(['error threads-exceed-cores 9:20..9:29 "threads 5"']);
        expect(messages(doc, 'threads-exceed-cores')).toEqual([
            "5 threads exceed the 4 core(s) of platform 'P'; pinned threads need a core each.",
        ]);
    });

    test('more threads than the chosen cores (a core named twice counts once)', async () => {
        for (const cores of ['0..1', '0, 1, 1']) {
            const doc = await check(...chain(INSTANCES, CONNECTIONS, `    schedule fixed threads 3 cores ${cores}`));
            expect(issues(doc)).toEqual(['error threads-exceed-cores 9:20..9:29 "threads 3"']);
            expect(messages(doc, 'threads-exceed-cores')).toEqual([
                '3 threads exceed the 2 core(s) of the chosen cores; pinned threads need a core each.',
            ]);
        }
    });

    test('zero threads', async () => {
        const doc = await check(...chain(INSTANCES, CONNECTIONS, '    schedule fixed threads 0'));
        expect(issues(doc)).toEqual(['error non-positive-threads 9:20..9:29 "threads 0"']);
        expect(messages(doc, 'non-positive-threads')).toEqual(['A schedule needs at least one thread.']);
    });

    test('positive: as many threads as cores, or fewer', async () => {
        expect(
            issues(await check(...chain(INSTANCES, CONNECTIONS, '    schedule fixed threads 4 cores 0..3'))),
        ).toEqual([]);
        expect(
            issues(await check(...chain(INSTANCES, CONNECTIONS, '    schedule fixed threads 2 cores 0..3'))),
        ).toEqual([]);
        expect(issues(await check(...chain(INSTANCES, CONNECTIONS, '    schedule reduced threads 1')))).toEqual([]);
    });
});

describe('core-out-of-range (schedule)', () => {
    test('cores the platform lacks: an error at each range that names them', async () => {
        const doc = await check(...chain(INSTANCES, CONNECTIONS, '    schedule fixed cores 0..1, 4, 6..9'));
        expect(issues(doc)).toEqual([
            'error core-out-of-range 9:32..9:33 "4"',
            'error core-out-of-range 9:35..9:39 "6..9"',
        ]);
        expect(messages(doc, 'core-out-of-range')).toEqual([
            "Core(s) 4 do not exist on platform 'P' (cores 0..3).",
            "Core(s) 6..9 do not exist on platform 'P' (cores 0..3).",
        ]);
    });

    test('a range given backwards is empty', async () => {
        const doc = await check(...chain(INSTANCES, CONNECTIONS, '    schedule fixed cores 3..1'));
        expect(issues(doc)).toEqual(['error core-out-of-range 9:26..9:30 "3..1"']);
        expect(messages(doc, 'core-out-of-range')).toEqual(['Empty core range 3..1.']);
    });

    test('positive: cores 0..3 and 1, 3 on four cores', async () => {
        expect(issues(await check(...chain(INSTANCES, CONNECTIONS, '    schedule fixed cores 0..3')))).toEqual([]);
        expect(issues(await check(...chain(INSTANCES, CONNECTIONS, '    schedule fixed cores 1, 3')))).toEqual([]);
    });
});

describe('halo-exceeds-slice', () => {
    /** A 5x5 convolution (halo 2) on a frame `height` rows high. */
    const haloChain = (height: number, ...schedule: string[]) => [
        ...PRELUDE,
        `image T 64 x ${height} of u8`,
        'box SrcT { out o: T  source period 10 ms }',
        'box Conv { in i: T  out o: T  kernel convolution(5)  split rows  depends halo 2 }',
        'box SinkT { in i: T  kernel sink }',
        'chain C on P {',
        '    s: SrcT  c: Conv  k: SinkT',
        '    s.o -> c.i  c.o -> k.i',
        ...schedule,
        '}',
    ];

    test("a halo of 2 rows with 1-row slices: error at the instance's box", async () => {
        const doc = await check(...haloChain(6, '    schedule reduced threads 4'));
        expect(issues(doc)).toEqual(['error halo-exceeds-slice 11:17..11:21 "Conv"']);
        expect(messages(doc, 'halo-exceeds-slice')).toEqual([
            "The halo of box 'Conv' (2 rows) is larger than a slice (6 rows / 4 threads = 1 row(s)); use fewer threads or 'split none'.",
        ]);
    });

    test('the thread count follows from the chosen cores, or from the platform', async () => {
        expect(issues(await check(...haloChain(6, '    schedule reduced cores 0..3')))).toEqual([
            'error halo-exceeds-slice 11:17..11:21 "Conv"',
        ]);
        expect(issues(await check(...haloChain(6)))).toEqual(['error halo-exceeds-slice 11:17..11:21 "Conv"']);
    });

    test('positive: a halo as large as a slice, or a single thread', async () => {
        expect(issues(await check(...haloChain(8, '    schedule reduced threads 4')))).toEqual([]);
        expect(issues(await check(...haloChain(6, '    schedule reduced threads 3')))).toEqual([]);
        expect(issues(await check(...haloChain(6, '    schedule reduced threads 1')))).toEqual([]);
    });
});

describe('missing-platform', () => {
    test('a chain without `on P`: a warning at the chain name', async () => {
        const doc = await check(...PRELUDE, 'chain C {', INSTANCES, CONNECTIONS, '}');
        expect(issues(doc)).toEqual(['warning missing-platform 6:7..6:8 "C"']);
        expect(messages(doc, 'missing-platform')).toEqual([
            "Chain 'C' names no platform ('chain C on P'); the planner then assumes one core per thread.",
        ]);
    });

    test('positive: `chain C on P`', async () => {
        expect(issues(await check(...chain(INSTANCES, CONNECTIONS)))).toEqual([]);
    });
});

describe('non-positive-iterations', () => {
    test('zero iterations: error at the number', async () => {
        const doc = await check(...chain(INSTANCES, CONNECTIONS, '    iterations 0'));
        expect(issues(doc)).toEqual(['error non-positive-iterations 9:16..9:17 "0"']);
        expect(messages(doc, 'non-positive-iterations')).toEqual(['A chain runs at least one iteration.']);
    });

    test('positive: 1000 iterations', async () => {
        expect(issues(await check(...chain(INSTANCES, CONNECTIONS, '    iterations 1000')))).toEqual([]);
    });
});

describe('requirement-kind', () => {
    test('a loss requirement on a box chain: error at the requirement', async () => {
        const doc = await check(...chain(INSTANCES, CONNECTIONS, '    require loss < 1e-4'));
        expect(issues(doc)).toEqual(['error requirement-kind 9:5..9:24 "require loss < 1e-4"']);
        expect(messages(doc, 'requirement-kind')).toEqual([
            'A box chain does not lose frames; loss requirements belong to a ptts.',
        ]);
    });

    test('positive: latency requirements on a box chain', async () => {
        const doc = await check(
            ...chain(
                INSTANCES,
                CONNECTIONS,
                '    require latency p99 < 20 ms  require latency <= 30 ms with probability >= 99.9 %',
            ),
        );
        expect(issues(doc)).toEqual([]);
    });
});
