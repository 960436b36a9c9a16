/**
 * Context-aware completion: settings an element may give only once are not offered again once it has them
 * (a box's kernel, a chain's schedule, a component's period, a target's ssh …); repeatable ones still are.
 */
import { describe, expect, test } from 'vitest';
import { expectCompletion } from 'langium/test';
import type { CompletionList } from 'vscode-languageserver';
import { services } from '../test-utils.js';

const complete = expectCompletion(services.Chain);
const IMAGE = 'image F 4 x 4 of u8\n';

/** The keyword labels offered at `<|>`, sorted. */
async function keywords(text: string): Promise<string[]> {
    let offered: string[] = [];
    await complete({
        text,
        index: 0,
        disposeAfterCheck: true,
        assert: (list: CompletionList) => {
            offered = list.items
                .filter(i => i.kind === 14 /* Keyword */)
                .map(i => i.label)
                .sort();
        },
    });
    return offered;
}

describe('a box', () => {
    test('an empty box offers every member', async () => {
        expect(await keywords('box A { <|> }')).toEqual(
            ['cost', 'depends', 'etp', 'in', 'kernel', 'out', 'source', 'split'].sort(),
        );
    });

    test('members it has are not offered again, nor ports its kernel has no room for', async () => {
        // copy takes one input and one output: both are there
        expect(await keywords(`${IMAGE}box A { in i: F  out o: F  kernel copy  split rows  <|> }`)).toEqual([
            'cost',
            'depends',
            'etp',
        ]);
        expect(await keywords(`${IMAGE}box A { in i: F  <|>  kernel copy  cost 1 ms  depends pointwise }`)).toEqual([
            'etp',
            'out',
            'split',
        ]);
    });

    test('a box with everything offers only the ports it may still have', async () => {
        // a source has no inputs and any number of outputs
        expect(
            await keywords(
                `${IMAGE}box A { out o: F  source period 1 ms  kernel source  split none  depends none  cost 1 ms  etp point 1 ms  <|> }`,
            ),
        ).toEqual(['out']);
    });

    test('retyping the keyword of a member it has still offers that keyword', async () => {
        await complete({
            text: `${IMAGE}box A { in i: F  ker<|>nel copy }`,
            index: 0,
            expectedItems: ['kernel'],
            disposeAfterCheck: true,
        });
    });

    test('another box is not affected', async () => {
        expect(await keywords(`${IMAGE}box A { kernel copy cost 1 ms }\nbox B { <|> }`)).toContain('kernel');
    });
});

describe('what fits a box', () => {
    test('a kernel other than source and `source` exclude each other', async () => {
        const offered = await keywords(`${IMAGE}box A { in i: F  kernel gain(2)  <|> }`);
        expect(offered).not.toContain('source');
        expect(offered).toContain('out');
        const source = await keywords(`${IMAGE}box A { source period 1 ms  <|> }`);
        expect(source).not.toContain('kernel');
        expect(source).not.toContain('in'); // a source reads nothing
        expect(source).toContain('out');
    });

    test('a kernel source leaves `source` (its period) open; ports follow the kernel', async () => {
        expect(await keywords(`${IMAGE}box A { kernel source  <|> }`)).toContain('source');
        const dup = await keywords(`${IMAGE}box A { in i: F  out a: F  out b: F  kernel dup  <|> }`);
        expect(dup).toContain('out'); // dup has any number of outputs
        expect(dup).not.toContain('in');
        expect(await keywords(`${IMAGE}box A { in i: F  in j: F  kernel sink  <|> }`)).toContain('in');
    });

    test('the member being written does not count', async () => {
        // a half-typed word after the kernel is no member yet: the kernel still rules `source` out
        expect(await keywords(`${IMAGE}box A { kernel gain(2)  so<|> }`)).not.toContain('source');
        expect(await keywords(`${IMAGE}box A { ker<|>nel gain(2) }`)).toContain('kernel');
    });
});

describe('a chain', () => {
    const boxes = `${IMAGE}box S { out o: F  source period 10 ms }\nbox K { in i: F  kernel sink }\n`;

    test('schedule, memory and iterations once; requirements again and again', async () => {
        expect(
            await keywords(
                `${boxes}chain C { s: S  k: K  schedule fixed  memory reuse  require latency p99 < 5 ms  <|> }`,
            ),
        ).toEqual(['iterations', 'require']);
    });

    test('schedule options once each', async () => {
        expect(await keywords(`${boxes}chain C { s: S  k: K  schedule fixed threads 2 <|> }`)).toEqual([
            'cores',
            'iterations',
            'memory',
            'require',
        ]);
    });
});

describe('ptts, components, platforms, targets and throttles', () => {
    test('a component: period, offset and etp once each, while other components may follow', async () => {
        expect(await keywords('ptts P { component A period 10 ms <|> }')).toEqual([
            'component',
            'etp',
            'offset',
            'order',
            'require',
            'resolution',
        ]);
        expect(
            await keywords('ptts P { resolution 1 us  component A period 10 ms offset 1 ms etp point 1 ms <|> }'),
        ).toEqual(['component', 'order', 'require']);
    });

    test('a platform: cores and smt once, caches again', async () => {
        expect(await keywords('platform P { cores 4  smt off  cache L2 256 KiB <|> }')).toEqual([
            'cache',
            'private',
            'shared',
        ]);
    });

    test('a target: each setting once', async () => {
        expect(await keywords('target t { ssh "lab@host"  port 22  rt-cores 0..1 <|> }')).toEqual([
            'be-cores',
            'key',
            'local',
            'platform',
            'root',
            'throttle',
            'workload',
        ]);
    });

    test('a throttle: each setting of its mode once', async () => {
        expect(await keywords('throttle T { budget period 10 ms  misses 10 <|> }')).toEqual([
            'counter',
            'distribution',
            'mechanism',
            'per',
            'shared',
        ]);
    });

    test('a histogram: each option once', async () => {
        expect(await keywords('ptts P { component A period 10 ms etp histogram "l.csv" unit us <|> }')).toEqual([
            'bin',
            'column',
            'component',
            'offset',
            'order',
            'require',
            'resolution',
        ]);
    });

    test('a setting of one element does not hide the top-level keyword of the same spelling', async () => {
        expect(await keywords('target t { local platform P }\n<|>')).toContain('platform');
    });
});
