/** Hover: normalised values, sizes, slices, buffers, hyper-period and tree count. */
import { describe, test } from 'vitest';
import { expectHover, parseDocument, textDocumentPositionParams } from 'langium/test';
import { services } from '../test-utils.js';
import { SKETCH, THESIS } from './lsp-fixtures.js';

const hover = expectHover(services.Chain);

/** The sketch with a cursor `<|>` placed before the `nth` occurrence of `needle`. */
function at(needle: string, text = SKETCH, nth = 0): string {
    let index = -1;
    for (let i = 0; i <= nth; i++) index = text.indexOf(needle, index + 1);
    if (index < 0) throw new Error(`'${needle}' not in model`);
    return `${text.slice(0, index)}<|>${text.slice(index)}`;
}

async function check(text: string, expected: string | RegExp | undefined): Promise<void> {
    await hover({ text, index: 0, hover: expected, disposeAfterCheck: true });
}

describe('quantities', () => {
    test('durations are shown in nanoseconds', async () => {
        await check(at('66.6 ms'), '66.6 ms = 66600000 ns');
        await check(at('ms }'), '66.6 ms = 66600000 ns'); // on the unit too
        await check(at('0.4 ms'), '0.4 ms = 400 µs = 400000 ns');
        await check(at('100 us'), '100 µs = 100000 ns');
        await check(at('0 ms  etp'), '0 ms = 0 ns');
        await check(at('2 s', 'box A { cost 2 s }'), '2 s = 2000000000 ns');
        await check(at('12 ns', 'box A { cost 12 ns }'), '12 ns');
    });

    test('a duration finer than a nanosecond says why it has no value', async () => {
        await check(at('0.0000001', 'box A { cost 0.0000001 ms }'), /finer than 1 ns/);
    });

    test('sizes are shown in bytes', async () => {
        await check(at('8 MiB'), '8 MiB = 8388608 B');
        await check(at('512 B', 'platform P { cache L1 512 B }'), '512 B');
        await check(at('1.5 KiB', 'platform P { cache L1 1.5 KiB }'), '1.5 KiB = 1536 B');
    });

    test('a probability in percent is shown as a fraction', async () => {
        await check(at('99.9 %'), 'probability 0.999');
    });

    test('core sets are expanded', async () => {
        await check(at('0..3'), 'cores 0, 1, 2, 3 (4)');
        await check(at('rt-cores 0..1'), 'cores 0, 1 (2)');
    });
});

describe('declarations and references', () => {
    test('image: dimensions and bytes per frame', async () => {
        await check(
            at('Frame 1024'),
            '**image Frame**: 1024 × 1024 of u16 (2 B per pixel), 2 MiB (2097152 B) per frame',
        );
        await check(at('Frame  source'), /^\*\*image Frame\*\*/); // a reference to it
        await check(at('u16'), 'pixel type u16: 2 B per pixel');
        await check(at('u17', 'image X 2 x 2 of u17'), /unknown pixel type u17 \(known: u8, /);
    });

    test('platform: cores and caches', async () => {
        await check(at('LabPC {'), '**platform LabPC**: 4 cores, SMT off\n\n- cache L3: 8 MiB (8388608 B), shared');
        await check(SKETCH.replace('on LabPC', 'on <|>LabPC'), /^\*\*platform LabPC\*\*/);
    });

    test('box: kernel, ports with frame bytes, split and cost', async () => {
        await check(
            at('Gain     {'),
            [
                '**box Gain**: kernel gain(1.5)',
                'Multiplies every pixel by a factor.',
                '- in i: Frame, 2 MiB (2097152 B)',
                '- out o: Frame, 2 MiB (2097152 B)',
                'split rows, depends pointwise',
                'cost 0.4 ms (400000 ns)',
            ].join('\n\n'),
        );
        await check(
            at('Detector  g'),
            /^\*\*box Detector\*\*: kernel source\n\nProduces a deterministic synthetic frame/,
        );
    });

    test('kernel: signature, documentation and port shape', async () => {
        await check(
            at('gain(1.5)'),
            '**kernel gain(factor)**\n\nMultiplies every pixel by a factor.\n\ninputs: 1, outputs: 1',
        );
        await check(at('sink'), /^\*\*kernel sink\*\*[\s\S]*inputs: 1 or more, outputs: 0$/);
        await check(at('blur', 'box A { kernel blur }'), '**kernel blur**: unknown kernel');
    });

    test('port: its image and frame bytes, at the declaration and at `inst.port`', async () => {
        await check(
            at('img:'),
            '**out img** of box Detector: image Frame, 1024 × 1024 of u16, 2 MiB (2097152 B) per frame',
        );
        await check(at('img ->'), /^\*\*out img\*\* of box Detector/);
        await check(at('i   g.o'), /^\*\*in i\*\* of box Gain/);
    });

    test('depends: what the rows need', async () => {
        await check(at('halo 2'), '**depends halo 2**: each output row reads 2 input rows above and below it');
        await check(at('pointwise'), /^\*\*depends pointwise\*\*/);
    });

    test('instance: slice sizes of a split box', async () => {
        await check(
            at('g: Gain'),
            '**g**: box Gain, kernel gain\n\nsplit into 4 sub-boxes of up to 256 of 1024 rows: 512 KiB (524288 B) of output each',
        );
        await check(
            at('s: Spatial'),
            [
                '**s**: box Spatial, kernel convolution',
                'split into 4 sub-boxes of up to 256 of 1024 rows: 512 KiB (524288 B) of output each',
                'each reads up to 260 input rows (halo 2): 520 KiB (532480 B)',
            ].join('\n\n'),
        );
        await check(at('d: Detector'), '**d**: box Detector, kernel source\n\n1 sub-box (not split)');
        await check(at('d.img'), /^\*\*d\*\*: box Detector/); // a reference to it
    });

    test('instance: without a thread count the platform cores decide, and uneven splits say "up to"', async () => {
        const model =
            'platform P { cores 3 }\nimage F 10 x 100 of f32\nbox A { out o: F kernel copy split rows }\nchain C on P { a: A }';
        await check(
            at('a: A', model),
            /split into 3 sub-boxes of up to 34 of 100 rows: 1\.328 KiB \(1360 B\) of output each/,
        );
        await check(at('a: A', model.replace('on P ', '')), /split into 1 sub-box of up to 100 of 100 rows/);
    });

    test('instance of an unknown box', async () => {
        await check(at('a: Nope', 'chain C { a: Nope }'), '**a**: unknown box');
    });

    test('chain: buffer bytes per connection and in total', async () => {
        await check(
            at('XRay on'),
            [
                '**chain XRay** on LabPC: 4 boxes, 3 connections',
                'buffers: 6 MiB (6291456 B) in total without reuse (memory reuse)',
                '- d.img → g.i: 2 MiB (2097152 B)',
                '- g.o → s.i: 2 MiB (2097152 B)',
                '- s.o → out.i: 2 MiB (2097152 B)',
                'schedule reduced, 4 threads, cores 0, 1, 2, 3',
            ].join('\n\n'),
        );
        await check(at('XRay      //'), /^\*\*chain XRay\*\*/); // `etp chain XRay`
        await check(at('chain XRay'), /^\*\*chain XRay\*\*/); // on the leading keyword
    });

    test('connection: the buffer behind `->`', async () => {
        await check(at('-> s.i'), '**buffer g.o → s.i**: image Frame, 2 MiB (2097152 B)');
    });

    test('ptts: hyper-period and number of latency trees (thesis example)', async () => {
        await check(
            at('Thesis', THESIS),
            [
                '**ptts Thesis**: Camera → Filter → Screen',
                'hyper-period 40.6 s = lcm of the periods 200 ms, 58 ms, 56 ms',
                '203 latency trees (roots) = hyper-period / period of Camera',
                'about 203 operations for exact analysis (thesis eq. 5.15); time grid 1 ms',
            ].join('\n\n'),
        );
    });

    test('ptts: the sketch has a long hyper-period', async () => {
        await check(at('System'), /hyper-period 923 s = [^\n]*\n[\s\S]*13861 latency trees/);
    });

    test('ptts with a missing period', async () => {
        await check(
            at('P', 'ptts P { component A etp point 1 ms }'),
            '**ptts P**: 1 components; periods incomplete, no hyper-period',
        );
    });

    test('component: period, offset and etp', async () => {
        await check(
            at('Sensor'),
            '**component Sensor** (1 of 4 in ptts System)\n\nperiod 66.6 ms (66600000 ns), offset 0 ms\n\netp uniform: 30 ms .. 60 ms',
        );
        await check(
            at('Process'),
            /offset 5 ms \(5000000 ns\)\n\netp chain XRay \(the chain's latency distribution\)$/,
        );
        await check(at('GPU'), /etp pmf: 11 ms .. 12 ms$/);
    });

    test('throttle and target: settings with exact values', async () => {
        await check(
            at('BestEffort {'),
            '**throttle BestEffort**: duty-cycle\n\n- counter llc-misses\n\n- sample 100 µs (100000 ns)\n\n- suspend 900 µs (900000 ns)\n\n- threshold 25 %',
        );
        await check(
            at('lab1'),
            /^\*\*target lab1\*\*\n\n- ssh xray@10\.200\.0\.2\n\n- port 22[\s\S]*- rt-cores: cores 0, 1 \(2\)\n\n- be-cores: cores 2, 3 \(2\)\n\n- throttle Budget$/,
        );
    });

    test('nothing to say about punctuation; a keyword inside a member says what it means', async () => {
        await check(at('{ cores'), undefined);
        await check(at('schedule'), /^\*\*schedule\*\*: How the chain is scheduled onto threads/);
        // a keyword with a meaning per rule: a component's period is not a budget's
        await check(at('period', 'ptts P { component X period 1 ms }'), "**period**: The component's period.");
        await check(at('period', 'throttle T { budget period 1 ms }'), '**period**: The period of the budget.');
    });
});

describe('robustness', () => {
    test('hover on every offset of a broken document never throws', async () => {
        const text =
            'box A { in i: F kernel gain( split rows }\nchain C { a: A a. -> b.i schedule }\nptts P { component X period 0 ms etp pmf { 1 ms: } }';
        const document = await parseDocument(services.Chain, text);
        for (let offset = 0; offset <= text.length; offset++) {
            await services.Chain.lsp.HoverProvider!.getHoverContent(
                document,
                textDocumentPositionParams(document, offset),
            );
        }
    });
});
