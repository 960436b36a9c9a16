/**
 * Syntax errors read as short sentences (syntax-error-messages.ts) instead of chevrotain's token lists,
 * at the same ranges: typical typos, each with its exact diagnostic.
 */
import { describe, expect, test } from 'vitest';
import { services } from '../test-utils.js';
import { SyntaxVocabulary } from '../../src/dsl/syntax-vocabulary.js';
import { check, lines, rangeOf } from './helpers.js';

/** Every syntax diagnostic as `l:c..l:c message`. */
async function syntaxErrors(...text: string[]): Promise<string[]> {
    const doc = await check(...text);
    return (doc.diagnostics ?? [])
        .filter(d => ['parsing-error', 'lexing-error'].includes((d.data as { code?: string } | undefined)?.code ?? ''))
        .map(d => `${rangeOf(d)} ${d.message}`);
}

describe('a block left open', () => {
    test('missing } at the end of the file: at the end, naming the platform', async () => {
        expect(await syntaxErrors('platform P { cores 4')).toEqual([
            "1:21..1:21 Expected '}' to close platform 'P' before the end of the file.",
        ]);
    });

    test('missing } before the next element: at that element', async () => {
        expect(
            await syntaxErrors(
                'image F 8 x 8 of u8',
                'box Gain { in i: F  out o: F  kernel gain(2)',
                'box Sink { in i: F  kernel sink }',
            ),
        ).toEqual(["3:1..3:4 Expected '}' to close box 'Gain' before 'box'."]);
    });

    test('a } too many', async () => {
        expect(await syntaxErrors('platform P { cores 4 } }')).toEqual([
            "1:24..1:25 Unexpected '}': no block is open here.",
        ]);
    });
});

describe('a missing or wrong token', () => {
    test('missing unit: the units, after the number', async () => {
        expect(await syntaxErrors('box A { out o: F  source period 10 }')).toEqual([
            "1:36..1:37 Expected a time unit ('s', 'ms', 'us' or 'ns') after '10', found '}'.",
        ]);
        expect(await syntaxErrors('platform P { cores 2 cache L2 256 }')).toEqual([
            "1:35..1:36 Expected a size unit ('B', 'KiB', 'MiB' or 'GiB') after '256', found '}'.",
        ]);
    });

    test('missing number: "a number", never NUMBER or INT', async () => {
        expect(await syntaxErrors('ptts T { component C period ms }')).toEqual([
            "1:29..1:31 Expected a number after 'period', found 'ms'.",
        ]);
        expect(await syntaxErrors('platform P { cores -1 }')).toEqual([
            "1:20..1:21 Expected a whole number after 'cores', found '-'.",
        ]);
    });

    test('missing name: "a name", never the keywords that may be names', async () => {
        expect(await syntaxErrors('box { kernel copy }')).toEqual(["1:5..1:6 Expected a name after 'box', found '{'."]);
        expect(
            await syntaxErrors(
                'image F 8 x 8 of u8',
                'box A { in i: F  out o: F  kernel copy }',
                'chain C { a: A  b: A  a.o -> }',
            ),
        ).toEqual(["3:30..3:31 Expected a name after '->', found '}'."]);
    });

    test('a missing colon or arrow', async () => {
        expect(await syntaxErrors('image F 8 x 8 of u8', 'box A { in i F  kernel sink }')).toEqual([
            "2:14..2:15 Expected ':' after 'i', found 'F'.",
        ]);
        expect(
            await syntaxErrors(
                'image F 8 x 8 of u8',
                'box A { in i: F  out o: F  kernel copy }',
                'chain C { a: A  b: A  a.o b.i }',
            ),
        ).toEqual(["3:27..3:28 Expected '->' after 'o', found 'b'."]);
    });

    test('an instance or a connection: what may follow the name', async () => {
        expect(
            await syntaxErrors(
                'image F 8 x 8 of u8',
                'box A { in i: F  out o: F  kernel copy }',
                'chain C { a: A  b: A  a b.i }',
            ),
        ).toEqual(["3:23..3:24 Expected ':' or '.' after 'a', found 'b'."]);
    });

    test('a keyword choice: its name and its keywords', async () => {
        expect(await syntaxErrors('chain C { schedule }')).toEqual([
            "1:20..1:21 Expected a schedule heuristic ('simple', 'barrier', 'fixed', 'predictable' or 'reduced') after 'schedule', found '}'.",
        ]);
        expect(await syntaxErrors('platform P { cores 4 smt maybe }')).toEqual([
            "1:26..1:31 Expected 'on' or 'off' after 'smt', found 'maybe'.",
        ]);
    });
});

describe('a stray token', () => {
    test('inside a box: what a box may hold, a few of it', async () => {
        expect(await syntaxErrors('box A { kernel copy  foo }')).toEqual([
            "1:22..1:25 Unexpected 'foo' in box 'A': expected 'in', 'out', 'kernel', … or '}' to close it.",
        ]);
    });

    test('inside a platform: all its settings', async () => {
        expect(await syntaxErrors('platform P { cores 4 4 }')).toEqual([
            "1:22..1:23 Unexpected '4' in platform 'P': expected 'cores', 'cache', 'smt' or '}' to close it.",
        ]);
    });

    test('inside a budget throttle: the budget settings', async () => {
        expect(await syntaxErrors('throttle X { budget periodd 10 ms }')).toEqual([
            "1:21..1:28 Unexpected 'periodd' in throttle 'X': expected 'counter', 'mechanism', 'period', … or '}' to close it. Did you mean 'period'?",
        ]);
    });

    test('a pmf entry without its comma', async () => {
        const errors = await syntaxErrors('ptts T { component A period 10 ms etp pmf { 1 ms: 0.5 2 ms: 0.5 } }');
        expect(errors[0]).toBe("1:55..1:56 Unexpected '2' in the pmf: expected ',' or '}' to close it.");
    });

    test('at the top level: the elements a file holds', async () => {
        expect(await syntaxErrors('foo')).toEqual([
            "1:1..1:4 Unexpected 'foo': a file holds only 'platform', 'image', 'box', 'chain', 'ptts', 'throttle' or 'target' elements.",
        ]);
    });

    test('a character outside the language', async () => {
        expect(await syntaxErrors('platform P { cores 4 § }')).toEqual(["1:22..1:23 Unexpected character '§'."]);
        expect(await syntaxErrors('platform P { cores 4 §§ }')).toEqual(["1:22..1:24 Unexpected characters '§§'."]);
    });
});

describe('an unterminated string', () => {
    test('one error at the quote, not one for each word after it', async () => {
        expect(await syntaxErrors('ptts T { component C period 10 ms etp histogram "lat.csv }')).toEqual([
            '1:49..1:50 Unterminated string: the closing " is missing.',
        ]);
        expect(await syntaxErrors("target t { ssh 'lab@host", '  port 22 }')).toEqual([
            "1:16..1:17 Unterminated string: the closing ' is missing.",
        ]);
    });
});

describe('no chevrotain wording left', () => {
    test('every syntax error of a broken sample is a sentence', async () => {
        const errors = await syntaxErrors(
            lines(
                'platform P { cores 4 cache L2 }',
                'image F 8 x of u8',
                'box A { in i: F out o F kernel gain(1.5 split rows depends halo }',
                'chain C on P { a: A a.o -> .i schedule fixed threads }',
                'ptts T { component X period 10 ms offset etp uniform 1 ms .. }',
                'throttle Th { duty-cycle sample 1 ms threshold 50 }',
                'target t { ssh "x" port rt-cores 0..1 }',
            ),
        );
        expect(errors.length).toBeGreaterThan(5);
        for (const error of errors) {
            expect(error).not.toMatch(
                /Expecting|Token sequences|token of type|-->|\bID\b|\bINT\b|\bNUMBER\b|\bSTRING\b|\[|\n/,
            );
            expect(error).toMatch(/^\d+:\d+\.\.\d+:\d+ (Expected|Unexpected|Unterminated) .*\.$/);
        }
    });
});

describe('the vocabulary', () => {
    const vocabulary = new SyntaxVocabulary(services.Chain.Grammar);

    test('spells keywords quoted and terminals in words', () => {
        expect(['ID', 'NUMBER', 'INT', 'STRING', '{', 'box'].map(t => vocabulary.spell(t))).toEqual([
            'a name',
            'a number',
            'a whole number',
            'a quoted string',
            "'{'",
            "'box'",
        ]);
    });

    test('keywords that may be names are covered by "a name"', () => {
        expect(vocabulary.nameKeywords).toContain('x');
        expect(vocabulary.nameKeywords).toContain('s');
        expect(vocabulary.nameKeywords).not.toContain('box');
        expect(vocabulary.choice(['ID', 's', 'x', 'ms'])).toBe('a name');
        expect(vocabulary.choice(['s', 'ms'])).toBe("'s' or 'ms'");
        expect(vocabulary.choice(['NUMBER', 'INT'])).toBe('a number');
    });

    test('a long choice keeps a few and says there is more', () => {
        expect(vocabulary.choice(['a', 'b', 'c', 'd', 'e'])).toBe("'a', 'b', 'c', 'd' or 'e'");
        expect(vocabulary.choice(['a', 'b', 'c', 'd', 'e', 'f'])).toBe("'a', 'b', 'c', 'd', …");
        expect(vocabulary.choice(['a', 'b', 'c', 'd', 'e', 'f'], '}')).toBe("'a', 'b', 'c', … or '}'");
    });
});
