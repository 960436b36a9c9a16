#!/usr/bin/env node
/**
 * The parser under the size limit, whatever its tokens: token soups (language/test/fuzz/token-soup.js) of sizes
 * growing from 8 bytes to 400 KB, 10,000 of them by default, then a few of 1-3.5 MB (the limit is 4 MiB). Each is
 * parsed, linked and validated by the compiled language (language/out); what must hold for every one: no crashed check,
 * no overflowed stack, no exception, at most MAX_SYNTAX_ERRORS syntax errors (+ the one that says where it stopped).
 * Prints the failures with their seed and index, soups per second, the slowest soup and the time per MB. Not a test:
 * `npm test` runs 300 soups (language/test/fuzz/token-soup.test.ts).
 *
 *   cd language && npx tsc -b && cd ..      # the bench imports the compiled language/out/
 *   node bench/language/fuzz-token-soup.mjs [--count 10000] [--largest 400000] [--seed N] [--only INDEX]
 */
import { dirname, join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { prng } from '../../language/test/prng.js';
import { growingSizes, tokenSoup } from '../../language/test/fuzz/token-soup.js';

const out = resolve(dirname(fileURLToPath(import.meta.url)), '../../language/out');
const { createChainServices } = await import(pathToFileURL(join(out, 'dsl/chain-module.js')).href);
const { MAX_SYNTAX_ERRORS } = await import(pathToFileURL(join(out, 'dsl/syntax-error-cap.js')).href);
const { AstUtils, EmptyFileSystem, GrammarAST, URI } = await import('langium');

const option = (name, fallback) => {
    const i = process.argv.indexOf(`--${name}`);
    return i < 0 ? fallback : process.argv[i + 1];
};
const COUNT = Number(option('count', 10_000));
const LARGEST = Number(option('largest', 400_000));
const SEED = Number(option('seed', 20261127)) >>> 0;
const ONLY = option('only', undefined);
const LARGE = [1_000_000, 2_000_000, 3_500_000];

const { shared, Chain } = createChainServices(EmptyFileSystem);
const keywords = [
    ...new Set(
        AstUtils.streamAllContents(Chain.Grammar)
            .filter(GrammarAST.isKeyword)
            .map(k => k.value),
    ),
];

async function problemsOf(text, index) {
    const { LangiumDocumentFactory, LangiumDocuments, DocumentBuilder } = shared.workspace;
    const document = LangiumDocumentFactory.fromString(text, URI.parse(`file:///soup/${index}.chain`));
    LangiumDocuments.addDocument(document);
    try {
        await DocumentBuilder.build([document], { validation: true });
        const diagnostics = document.diagnostics ?? [];
        const problems = diagnostics
            .filter(d => /error occurred during validation|Maximum call stack|RangeError/.test(d.message))
            .map(d => `line ${d.range.start.line + 1}: ${d.message}`);
        const syntax = diagnostics.filter(d => d.data?.code === 'parsing-error').length;
        if (syntax > MAX_SYNTAX_ERRORS + 1) problems.push(`${syntax} syntax errors, above the cap`);
        return problems;
    } catch (error) {
        return [`threw: ${error?.stack ?? error}`];
    } finally {
        LangiumDocuments.deleteDocument(document.uri);
    }
}

const sizes = [...growingSizes(COUNT, LARGEST), ...LARGE];
const failures = [];
let slowest = { ms: 0 },
    bytes = 0,
    worstPerMb = 0;
const started = performance.now();
for (const [index, size] of sizes.entries()) {
    const random = prng((SEED + index * 7919) >>> 0); // each soup from its own seed: --only reproduces one
    if (ONLY !== undefined && Number(ONLY) !== index) continue;
    const text = tokenSoup(random, size, keywords);
    const t0 = performance.now();
    const problems = await problemsOf(text, index);
    const ms = performance.now() - t0;
    bytes += text.length;
    if (ms > slowest.ms) slowest = { ms, index, size: text.length };
    if (text.length > 100_000) worstPerMb = Math.max(worstPerMb, ms / (text.length / 1e6));
    if (problems.length)
        failures.push(`soup ${index} (${text.length} bytes, --seed ${SEED} --only ${index}): ${problems.join('; ')}`);
    if (index % 1000 === 999) process.stderr.write(`  ${index + 1} of ${sizes.length} soups\n`);
}
const seconds = (performance.now() - started) / 1000;
console.log(
    `token soups: ${sizes.length} (8 B to ${LARGEST / 1000} KB, then ${LARGE.map(b => `${b / 1e6} MB`).join(', ')}), seed ${SEED}`,
);
console.log(
    `  ${failures.length} failing   ${(sizes.length / seconds).toFixed(0)} soups/s, ${(bytes / 1e6 / seconds).toFixed(2)} MB/s over ${seconds.toFixed(0)} s`,
);
console.log(
    `  slowest: soup ${slowest.index} (${slowest.size} bytes) in ${slowest.ms.toFixed(0)} ms; worst above 100 KB: ${(worstPerMb / 1000).toFixed(2)} s per MB`,
);
for (const failure of failures.slice(0, 20)) console.log(`  FAIL ${failure.slice(0, 600)}`);
process.exitCode = failures.length ? 1 : 0;
