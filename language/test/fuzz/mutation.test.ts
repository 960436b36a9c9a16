/**
 * Mutation fuzzing of the .chain language services.
 *
 * Every sample (`samples/**\/*.chain`, plus texts embedded in fuzz-harness.ts so the test
 * never depends on the samples being present) is cut into rough tokens and
 * mutated with a seeded PRNG: tokens deleted, duplicated, swapped, inserted,
 * numbers replaced by extreme values, names by other names, the file truncated.
 * Each mutant goes through the real services (parse, link, validate) and the
 * LSP features (hover, document symbols, formatting, completion, quick fixes),
 * and, when it has no errors, through the IR exporter and the IR schema check.
 *
 * What must hold for every mutant: nothing throws, no check crashes (Langium
 * turns a crashing check into an 'An error occurred during validation'
 * diagnostic and a console.error, both are caught here), every diagnostic has
 * a non-empty message and a range inside the document, and the IR of an
 * error-free mutant matches the schema. The number of errors is not asserted:
 * a mutant may well stay valid.
 *
 * Defaults: seed 20240611, 3000 mutants in total shared among the sources, in two shard files
 * (this one and mutation-shard2.test.ts) that vitest runs in parallel: about 15-20 s on two idle cores.
 *   CHAINLAB_FUZZ_SEED=123 CHAINLAB_FUZZ_COUNT=20000 npx vitest run test/fuzz
 * A failure prints the seed, the source, the mutant index, the mutations and
 * the mutant text; `CHAINLAB_FUZZ_ONLY=<source>#<index>` re-runs just that one.
 */
import { describe, expect, test } from 'vitest';
import { check, defineMutationSuite, KEYWORDS, mutate, prng, SEED, SKETCH, SOURCES, tokenise } from './fuzz-harness.js';

describe('the mutation fuzzer itself', () => {
    test('the tokeniser and the mutator are deterministic', () => {
        expect(tokenise('a.b -> c.d 1.5 ms "x" 0..3').map(t => t.text)).toEqual([
            'a',
            '.',
            'b',
            '->',
            'c',
            '.',
            'd',
            '1.5',
            'ms',
            '"x"',
            '0',
            '..',
            '3',
        ]);
        expect(mutate(SKETCH, prng(7))).toEqual(mutate(SKETCH, prng(7)));
        expect(KEYWORDS).toContain('chain');
    });

    test('the unmutated sources do not crash', async () => {
        for (const source of SOURCES) {
            const outcome = await check(source.text, prng(SEED));
            expect(outcome.problems, source.name).toEqual([]);
        }
        const sketch = await check(SKETCH, prng(SEED));
        expect(sketch.errors).toBe(0);
        expect(sketch.exported).toBe(true);
    });
});

defineMutationSuite(0, 2);
