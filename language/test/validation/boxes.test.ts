/**
 * Image types and boxes: pixel types, kernels and their parameters, ports
 * that fit the kernel, row splitting and its dependency, costs and sources.
 */
import { describe, expect, test } from 'vitest';
import { check, issues, messages, PRELUDE } from './helpers.js';

/** `platform P` and `image F 64 x 64 of u8`: boxes start on line 3. */
const P = PRELUDE.slice(0, 2);

describe('image-size', () => {
    test('zero width: error at the width', async () => {
        const doc = await check('image F 0 x 64 of u8');
        expect(issues(doc)).toEqual(['error image-size 1:9..1:10 "0"']);
        expect(messages(doc, 'image-size')).toEqual(['Image width must be positive.']);
    });

    test('zero height: error at the height', async () => {
        const doc = await check('image F 64 x 0 of u8');
        expect(issues(doc)).toEqual(['error image-size 1:14..1:15 "0"']);
    });

    test('positive: a 1 x 1 image', async () => {
        expect(issues(await check('image F 1 x 1 of u8'))).toEqual([]);
    });
});

describe('unknown-pixel-type', () => {
    test('error at the pixel type, suggesting a close one', async () => {
        const doc = await check('image F 64 x 64 of u17', 'image G 64 x 64 of float');
        expect(issues(doc)).toEqual([
            'error unknown-pixel-type 1:20..1:23 "u17"',
            'error unknown-pixel-type 2:20..2:25 "float"',
        ]);
        expect(messages(doc, 'unknown-pixel-type')[0]).toBe(
            "Unknown pixel type 'u17'; did you mean 'u16'? known: u8, i8, u16, i16, u32, i32, int, f32, f64.",
        );
        expect(messages(doc, 'unknown-pixel-type')[1]).not.toContain('did you mean');
    });

    test('positive: every known pixel type', async () => {
        const doc = await check(
            ...['u8', 'i8', 'u16', 'i16', 'u32', 'i32', 'int', 'f32', 'f64'].map((p, i) => `image I${i} 8 x 8 of ${p}`),
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('missing-kernel', () => {
    test('a box without kernel or source: error at its name', async () => {
        const doc = await check(...P, 'box A { in i: F  out o: F  split none }');
        expect(issues(doc)).toEqual(['error missing-kernel 3:5..3:6 "A"']);
        expect(messages(doc, 'missing-kernel')[0]).toMatch(/^Box 'A' has no kernel \(one of source, gain, /);
    });

    test('positive: a kernel, or a source instead of a kernel', async () => {
        const doc = await check(
            ...P,
            'box A { in i: F  out o: F  kernel copy }',
            'box S { out o: F  source period 1 ms }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('unknown-kernel', () => {
    test('error at the kernel name, with a suggestion when one is close', async () => {
        const doc = await check(
            ...P,
            'box A { in i: F  out o: F  kernel gian(2) }',
            'box B { in i: F  out o: F  kernel blur(3) }',
        );
        expect(issues(doc)).toEqual([
            'error unknown-kernel 3:35..3:39 "gian"',
            'error unknown-kernel 4:35..4:39 "blur"',
        ]);
        expect(messages(doc, 'unknown-kernel')).toEqual([
            "Unknown kernel 'gian'; did you mean 'gain'? known kernels: source, gain, offset, add, mul, average, convolution, copy, dup, sink.",
            "Unknown kernel 'blur'; known kernels: source, gain, offset, add, mul, average, convolution, copy, dup, sink.",
        ]);
    });

    test('positive: the same boxes with known kernels', async () => {
        const doc = await check(
            ...P,
            'box A { in i: F  out o: F  kernel gain(2) }',
            'box B { in i: F  out o: F  kernel convolution(3) }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('kernel-parameters', () => {
    test('too many: error at the surplus arguments', async () => {
        const doc = await check(...P, 'box A { in i: F  out o: F  kernel gain(1, 2, 3) }');
        expect(issues(doc)).toEqual(['error kernel-parameters 3:43..3:47 "2, 3"']);
        expect(messages(doc, 'kernel-parameters')).toEqual([
            "Kernel 'gain' takes 1 parameter(s), 3 given: gain(factor).",
        ]);
    });

    test('too few (no parentheses, or empty ones): error at the kernel name', async () => {
        const doc = await check(
            ...P,
            'box A { in i: F  out o: F  kernel gain }',
            'box B { in i: F  out o: F  kernel gain() }',
        );
        expect(issues(doc)).toEqual([
            'error kernel-parameters 3:35..3:39 "gain"',
            'error kernel-parameters 4:35..4:39 "gain"',
        ]);
    });

    test('not a whole number: error at the argument', async () => {
        const doc = await check(...P, 'box A { in i: F  out o: F  kernel average(2.5) }');
        expect(issues(doc)).toEqual(['error kernel-parameters 3:43..3:46 "2.5"']);
        expect(messages(doc, 'kernel-parameters')).toEqual([
            "Parameter 'frames' of kernel 'average' must be a whole number (got 2.5).",
        ]);
    });

    test('below the minimum', async () => {
        const doc = await check(
            ...P,
            'box A { in i: F  out o: F  kernel average(0) }',
            'box B { in i: F  out o: F  kernel convolution(-3) }',
        );
        expect(issues(doc)).toEqual([
            'error kernel-parameters 3:43..3:44 "0"',
            'error kernel-parameters 4:47..4:49 "-3"',
        ]);
    });

    test('an even convolution size', async () => {
        const doc = await check(...P, 'box A { in i: F  out o: F  kernel convolution(4) }');
        expect(issues(doc)).toEqual(['error kernel-parameters 3:47..3:48 "4"']);
        expect(messages(doc, 'kernel-parameters')).toEqual([
            "Parameter 'k' of kernel 'convolution' must be odd (got 4).",
        ]);
    });

    test('positive: optional parameters may be left out; negative factors are fine', async () => {
        const doc = await check(
            ...P,
            'box A { in a: F  in b: F  out o: F  kernel mul }',
            'box B { in a: F  in b: F  out o: F  kernel mul(0.5) }',
            'box C { out o: F  kernel source(7) }',
            'box D { in i: F  out o: F  kernel gain(-1.5) }',
            'box E { in i: F  out o: F  kernel average(4) }',
            'box G { in i: F  out o: F  kernel convolution(5) }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('kernel-ports', () => {
    test('ports that do not fit the kernel: error at the kernel name (or `source`)', async () => {
        const doc = await check(
            ...P,
            'box A { in i: F  kernel gain(2) }',
            'box B { in a: F  out o: F  kernel add }',
            'box D { in i: F  out o: F  kernel dup }',
            'box S { in i: F  out o: F  source period 1 ms }',
        );
        expect(issues(doc)).toEqual([
            'error kernel-ports 3:25..3:29 "gain"',
            'error kernel-ports 4:35..4:38 "add"',
            'error kernel-ports 5:35..5:38 "dup"',
            'error kernel-ports 6:28..6:34 "source"',
        ]);
        expect(messages(doc, 'kernel-ports')).toEqual([
            "Kernel 'gain' needs 1 input(s) and 1 output(s); box 'A' has 1 input(s) and 0 output(s).",
            "Kernel 'add' needs 2 input(s) and 1 output(s); box 'B' has 1 input(s) and 1 output(s).",
            "Kernel 'dup' needs 1 input(s) and at least 2 output(s); box 'D' has 1 input(s) and 1 output(s).",
            "Kernel 'source' needs 0 input(s) and at least 1 output(s); box 'S' has 1 input(s) and 1 output(s).",
        ]);
    });

    test('positive: fan-out kernels take many ports', async () => {
        const doc = await check(
            ...P,
            'box D { in i: F  out a: F  out b: F  out c: F  kernel dup }',
            'box K { in a: F  in b: F  in c: F  kernel sink }',
            'box S { out a: F  out b: F  source period 1 ms }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('kernel-image-size', () => {
    test('a kernel that keeps the image size with ports of another size: error at the odd port type', async () => {
        const doc = await check(
            ...P,
            'image H 32 x 32 of u8',
            'box A { in i: F  out o: H  kernel copy }',
            'box B { in a: F  in b: H  out o: F  kernel add }',
        );
        expect(issues(doc)).toEqual([
            'error kernel-image-size 4:25..4:26 "H"',
            'error kernel-image-size 5:24..5:25 "H"',
        ]);
        expect(messages(doc, 'kernel-image-size')[0]).toBe(
            "Kernel 'copy' keeps the image size: port 'o' is 32 x 32 but 'i' is 64 x 64.",
        );
    });

    test('positive: the same size with another pixel type is fine', async () => {
        const doc = await check(...P, 'image W 64 x 64 of f32', 'box C { in i: F  out o: W  kernel gain(2) }');
        expect(issues(doc)).toEqual([]);
    });
});

describe('kernel-dependency', () => {
    test('split rows without depends: error at `split rows`', async () => {
        const doc = await check(...P, 'box A { in i: F  out o: F  kernel gain(2)  split rows }');
        expect(issues(doc)).toEqual(['error kernel-dependency 3:44..3:54 "split rows"']);
        expect(messages(doc, 'kernel-dependency')).toEqual([
            "Box 'A' splits into row slices but does not say what a slice depends on (depends pointwise | halo N | whole).",
        ]);
    });

    test('split rows with depends none: error at `depends none`', async () => {
        const doc = await check(...P, 'box A { in i: F  out o: F  kernel gain(2)  split rows  depends none }');
        expect(issues(doc)).toEqual(['error kernel-dependency 3:56..3:68 "depends none"']);
    });

    test('a halo smaller than the kernel reads: error at the dependency', async () => {
        const doc = await check(
            ...P,
            'box A { in i: F  out o: F  kernel convolution(5)  split rows  depends halo 1 }',
            'box B { in i: F  out o: F  kernel convolution(5)  split rows  depends pointwise }',
        );
        expect(issues(doc)).toEqual([
            'error kernel-dependency 3:63..3:77 "depends halo 1"',
            'error kernel-dependency 4:63..4:80 "depends pointwise"',
        ]);
        expect(messages(doc, 'kernel-dependency')[0]).toBe(
            "Kernel 'convolution' reads 2 row(s) around each output row: use 'depends halo 2' or more.",
        );
    });

    test('positive: enough halo, whole frames, or no split', async () => {
        const doc = await check(
            ...P,
            'box A { in i: F  out o: F  kernel convolution(5)  split rows  depends halo 2 }',
            'box B { in i: F  out o: F  kernel convolution(5)  split rows  depends whole }',
            'box C { in i: F  out o: F  kernel convolution(5)  split none }',
            'box D { in i: F  out o: F  kernel convolution(5)  split none  depends none }',
            'box E { in i: F  out o: F  kernel convolution(5)  split rows  depends halo 3 }',
            'box G { in i: F  out o: F  kernel gain(2)  split rows  depends pointwise }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('non-positive-cost', () => {
    test('a zero cost: error at the duration', async () => {
        const doc = await check(...P, 'box A { in i: F  out o: F  kernel gain(2)  cost 0 ms }');
        expect(issues(doc)).toEqual(['error non-positive-cost 3:49..3:53 "0 ms"']);
        expect(messages(doc, 'non-positive-cost')).toEqual(['A cost must be positive.']);
    });

    test('positive: 1 ns', async () => {
        expect(issues(await check(...P, 'box A { in i: F  out o: F  kernel gain(2)  cost 1 ns }'))).toEqual([]);
    });
});

describe('conflicting-kernel', () => {
    test('a periodic source with another kernel: error at the source spec', async () => {
        const doc = await check(...P, 'box A { out o: F  kernel gain(2)  source period 10 ms }');
        expect(issues(doc)).toEqual([
            'error kernel-ports 3:26..3:30 "gain"',
            'error conflicting-kernel 3:35..3:54 "source period 10 ms"',
        ]);
        expect(messages(doc, 'conflicting-kernel')).toEqual([
            "Box 'A' is a periodic source but its kernel is 'gain'; a source box has kernel source (or none).",
        ]);
    });

    test('positive: kernel source with a period, or a source without period', async () => {
        const doc = await check(
            ...P,
            'box A { out o: F  kernel source(3)  source period 10 ms }',
            'box B { out o: F  kernel source }',
            'box C { out o: F  source }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('non-positive-period (of a source box)', () => {
    test('a zero source period: error at the duration', async () => {
        const doc = await check(...P, 'box A { out o: F  source period 0 s }');
        expect(issues(doc)).toEqual(['error non-positive-period 3:33..3:36 "0 s"']);
        expect(messages(doc, 'non-positive-period')).toEqual(['A source period must be positive.']);
    });

    test('positive: 66.6 ms', async () => {
        expect(issues(await check(...P, 'box A { out o: F  source period 66.6 ms }'))).toEqual([]);
    });
});

describe('box ETPs are checked like component ETPs', () => {
    test('a pmf of a box that does not sum to 1', async () => {
        const doc = await check(...P, 'box A { in i: F  out o: F  kernel gain(2)  etp pmf { 1 ms: 0.5 } }');
        expect(issues(doc)).toEqual(['error pmf-sum 3:48..3:65 "pmf { 1 ms: 0.5 }"']);
    });
});
