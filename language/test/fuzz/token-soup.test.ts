/**
 * The parser under the size limit, whatever the tokens: token soups of growing size (up to 3.5 MB, under the 4 MiB
 * limit) either parse or get syntax errors, never a crashed check or an overflowed stack, and at most
 * MAX_SYNTAX_ERRORS syntax errors, after which the parser stops reading. 10,000 and more soups:
 * bench/language/fuzz-token-soup.mjs.
 */
import { describe, expect, test } from 'vitest';
import { AstUtils, GrammarAST, URI } from 'langium';
import { MAX_SYNTAX_ERRORS } from '../../src/dsl/syntax-error-cap.js';
import { codeOf, prng, services } from '../test-utils.js';
import { growingSizes, tokenSoup } from './token-soup.js';

const SEED = Number(process.env.CHAINLAB_SOUP_SEED ?? 20261127) >>> 0;
const KEYWORDS = [
    ...new Set(
        AstUtils.streamAllContents(services.Chain.Grammar)
            .filter(GrammarAST.isKeyword)
            .map(k => k.value),
    ),
];

let counter = 0;
async function diagnose(text: string) {
    const { LangiumDocumentFactory, LangiumDocuments, DocumentBuilder } = services.shared.workspace;
    const document = LangiumDocumentFactory.fromString(text, URI.parse(`file:///soup/${counter++}.chain`));
    LangiumDocuments.addDocument(document);
    try {
        await DocumentBuilder.build([document], { validation: true });
        return document.diagnostics ?? [];
    } finally {
        LangiumDocuments.deleteDocument(document.uri);
    }
}

/** What must not happen to any soup; empty when all holds. */
async function problemsOf(text: string): Promise<string[]> {
    const diagnostics = await diagnose(text);
    const problems = diagnostics
        .filter(d => /error occurred during validation|Maximum call stack|RangeError/.test(d.message))
        .map(d => `line ${d.range.start.line + 1}: ${d.message}`);
    const syntax = diagnostics.filter(d => codeOf(d) === 'parsing-error').length;
    if (syntax > MAX_SYNTAX_ERRORS + 1) problems.push(`${syntax} syntax errors, above the cap`);
    return problems;
}

describe('token soups under the size limit', () => {
    test('growing soups parse or get syntax errors', async () => {
        const random = prng(SEED);
        const failures: string[] = [];
        for (const [i, bytes] of growingSizes(300, 200_000).entries()) {
            const problems = await problemsOf(tokenSoup(random, bytes, KEYWORDS));
            if (problems.length) failures.push(`soup ${i} (${bytes} bytes, seed ${SEED}): ${problems.join('; ')}`);
        }
        expect(failures).toEqual([]);
    }, 120_000);

    test('a 3.5 MB soup and a 200,000-entry pmf are read within seconds', async () => {
        const started = performance.now();
        expect(await problemsOf(tokenSoup(prng(SEED + 1), 3_500_000, KEYWORDS))).toEqual([]);
        const pmf =
            'box B { etp pmf { ' + Array.from({ length: 200_000 }, (_, i) => `${i} ms: 0.1`).join(', ') + ' } }';
        expect(await problemsOf(pmf)).toEqual([]);
        expect(performance.now() - started).toBeLessThan(60_000);
    }, 120_000);

    test('the parser stops after the cap and says where', async () => {
        const diagnostics = await diagnose('chain C { a' + '.o'.repeat(5_000) + ' }');
        const syntax = diagnostics.filter(d => codeOf(d) === 'parsing-error');
        expect(syntax.length).toBe(MAX_SYNTAX_ERRORS + 1);
        expect(syntax.at(-1)!.message).toMatch(/^Too many syntax errors \(100\): the rest of the file is not read/);
        const fewer = await diagnose('chain C { a' + '.o'.repeat(50) + ' }');
        expect(fewer.some(d => d.message.startsWith('Too many'))).toBe(false);
    });
});
