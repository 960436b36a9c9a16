/**
 * The mutation fuzzer of the .chain language services, shared by the shard
 * files mutation.test.ts and mutation-shard2.test.ts (two files so that
 * vitest runs them in two forks, one per core). See mutation.test.ts.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, test, vi } from 'vitest';
import { AstUtils, EmptyFileSystem, GrammarAST, TextDocument, URI, type LangiumDocument } from 'langium';
import type { Diagnostic, Hover, HoverParams, Range } from 'vscode-languageserver';
import { createChainServices } from '../../src/dsl/chain-module.js';
import type { Model } from '../../src/generated/ast.js';
import { exportIr } from '../../src/ir/ir-export.js';
import { irSchemaErrors } from '../../src/ir/ir-schema.js';

// ------------------------------------------------------------------ configuration
export const SEED = Number(process.env.CHAINLAB_FUZZ_SEED ?? 20240611) >>> 0;
const TOTAL = Math.max(1, Number(process.env.CHAINLAB_FUZZ_COUNT ?? 3000));
const ONLY = process.env.CHAINLAB_FUZZ_ONLY; // `<source>#<index>`
/** CHAINLAB_FUZZ_STRICT=1: also fail on 'undefined'/'NaN' in messages of models with syntax errors. */
const STRICT = process.env.CHAINLAB_FUZZ_STRICT === '1';
/** Stop collecting after this many failures per source (the first ones are the useful ones). */
const MAX_FAILURES = 8;

const REPO = fileURLToPath(new URL('../../../', import.meta.url));

// ------------------------------------------------------------------ sources
/** The one-line sketch of every feature (shared with the language-server tests). */
export { SKETCH } from '../lsp/lsp-fixtures.js';
import { SKETCH } from '../lsp/lsp-fixtures.js';

/** A model full of errors, so that mutants also walk the error paths of every check. */
const BROKEN = `platform P { cores 2 }
image F 64 x 64 of u17
image G 32 x 32 of u8
box Src { out o: F source period 0 ms }
box A { in i: F out o: F kernel gain(1, 2) split rows }
box B { in i: G out o: G kernel blur(3) }
box C { in i: F out o: F kernel convolution(5) split rows depends halo 1 cost 0.0000001 ns }
box D { in a: F in b: F out o: F kernel add  split rows depends whole  etp histogram "lat.csv" unit us bin 1 us column "t" }
box E { in i: F out o1: F out o2: F kernel dup }
chain X on P {
  s: Src a: A b: B c: C d: D e: E
  s.o -> a.i  a.o -> b.i  a.o -> c.i  c.o -> a.i  b.i -> c.o  q.o -> a.i  e.o1 -> d.a  e.o2 -> d.b
  schedule fixed threads 3 cores 0..2, 7   iterations 10  memory simple
  require loss < 0.1
}
ptts T {
  resolution 1 us  order consumption-first
  component A period 0 ms offset 0 ms etp pmf { 1 ms: 0.5, 1 ms: 0.4, }
  component B period 10 ms offset 12 ms etp uniform 5 ms .. 2 ms step 0 ms
  component C period 16.666667 ms etp point 1 ms
  component D period 66.666661 ms etp point 1 ms
  component H period 3 ms etp histogram "missing.txt"
  require latency p101 < 5 ms
  require latency p99.9 < 5 s
}
throttle Q { budget misses 0 shared distribution dynamic mechanism sigstop counter raw "r01" }
throttle R { duty-cycle proportional read-threshold 10 MB/s write-threshold 0 GiB/s threshold 120 % sample 1 ms suspend 10 us mechanism freeze counter cooperative }
target t { local ssh "a;b" rt-cores 0..1 be-cores 1..2 port 70000 platform P throttle Q workload "stress --cpu 2" root "/opt" }
`;

interface Source {
    readonly name: string;
    readonly text: string;
}

function sampleFiles(): Source[] {
    const dir = join(REPO, 'samples');
    if (!existsSync(dir)) return [];
    return (readdirSync(dir, { recursive: true }) as string[])
        .filter(f => f.endsWith('.chain'))
        .sort()
        .map(f => ({ name: relative(REPO, join(dir, f)), text: readFileSync(join(dir, f), 'utf-8') }));
}

export const SOURCES: Source[] = [
    { name: 'embedded:sketch', text: SKETCH },
    { name: 'embedded:broken', text: BROKEN },
    ...sampleFiles(),
];

// ------------------------------------------------------------------ PRNG
export { prng } from '../test-utils.js';
import { prng } from '../test-utils.js';

function hash(text: string): number {
    let h = 2166136261;
    for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619);
    return h >>> 0;
}

/** The seed of one mutant: a function of the run seed, the source and the index only. */
const mutantSeed = (source: string, index: number) => (hash(`${SEED}:${source}:${index}`) ^ SEED) >>> 0;

// ------------------------------------------------------------------ tokens
type TokenKind = 'ws' | 'comment' | 'string' | 'number' | 'word' | 'punct' | 'other';
interface Token {
    readonly kind: TokenKind;
    readonly text: string;
    readonly start: number;
    readonly end: number;
}

const TOKEN =
    /(\s+)|(\/\/[^\n\r]*|\/\*[\s\S]*?\*\/)|("(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?)|(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)|([A-Za-z_]\w*(?:-[A-Za-z_]\w*)*)|(->|\.\.|<=|>=|[{}():,.<>%\-/;=])|([\s\S])/g;

export function tokenise(text: string): Token[] {
    const tokens: Token[] = [];
    const kinds: TokenKind[] = ['ws', 'comment', 'string', 'number', 'word', 'punct', 'other'];
    for (const match of text.matchAll(TOKEN)) {
        const group = match.findIndex((g, i) => i > 0 && g !== undefined);
        tokens.push({ kind: kinds[group - 1], text: match[0], start: match.index, end: match.index + match[0].length });
    }
    return tokens.filter(t => t.kind !== 'ws');
}

// ------------------------------------------------------------------ mutations
const services = createChainServices(EmptyFileSystem);
const Chain = services.Chain;

/** Every keyword of the grammar, read from the grammar itself so the list follows it. */
export const KEYWORDS: string[] = [
    ...new Set(
        AstUtils.streamAllContents(Chain.Grammar)
            .filter(GrammarAST.isKeyword)
            .map(k => k.value)
            .toArray(),
    ),
].sort();

const EXTRA_TOKENS = [
    '{',
    '}',
    '(',
    ')',
    ':',
    ',',
    '.',
    '..',
    '->',
    '<',
    '<=',
    '>=',
    '%',
    '-',
    '"',
    "'",
    '"x"',
    '/*',
    '*/',
    '//',
    '\n',
    '@',
    '#',
    '\u00e9',
    '\u{1F600}',
    'u8',
    'f64',
    'source',
    'sink',
    'dup',
    'add',
    '0',
    '1',
    '-1',
    '1e300',
];

const NUMBERS = [
    '0',
    '-1',
    '1',
    '1e300',
    '99999999999999999999999999999999',
    '4294967296',
    '9007199254740993',
    '0.0000000001',
    '1e-300',
    '0.5',
    '3.0',
    '1e3',
    '00',
    '0e0',
    '2147483648',
    '65536',
    '-0',
    '1.5e-9',
    '999999999999.999999999',
    '1e-999999999',
    '1e999999999',
    '1' + '0'.repeat(400),
];

interface Mutant {
    readonly text: string;
    readonly steps: string[];
}

export function mutate(original: string, random: () => number): Mutant {
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)];
    let text = original;
    const steps: string[] = [];
    const rounds = random() < 0.7 ? 1 : random() < 0.6 ? 2 : 3 + Math.floor(random() * 4);
    for (let round = 0; round < rounds; round++) {
        const tokens = tokenise(text);
        if (tokens.length === 0) {
            text = pick(KEYWORDS) + ' ' + text;
            steps.push('insert into empty text');
            continue;
        }
        const token = pick(tokens);
        const splice = (start: number, end: number, insert: string) => {
            text = text.slice(0, start) + insert + text.slice(end);
        };
        const show = (t: Token) => `'${t.text}'@${t.start}`;
        const kind = Math.floor(random() * 12);
        switch (kind) {
            case 0: // delete a token
                splice(token.start, token.end, '');
                steps.push(`delete ${show(token)}`);
                break;
            case 1: // duplicate a token
                splice(token.end, token.end, ' ' + token.text);
                steps.push(`duplicate ${show(token)}`);
                break;
            case 2: {
                // swap two tokens (mostly nearby ones)
                const i = tokens.indexOf(token);
                const j =
                    random() < 0.7
                        ? Math.min(tokens.length - 1, Math.max(0, i + Math.floor(random() * 11) - 5))
                        : Math.floor(random() * tokens.length);
                const [a, b] = i < j ? [tokens[i], tokens[j]] : [tokens[j], tokens[i]];
                if (a === b) continue;
                text = text.slice(0, a.start) + b.text + text.slice(a.end, b.start) + a.text + text.slice(b.end);
                steps.push(`swap ${show(a)} and ${show(b)}`);
                break;
            }
            case 3: {
                // insert a token of the file
                const other = pick(tokens);
                const at = random() < 0.5 ? token.start : token.end;
                splice(at, at, ` ${other.text} `);
                steps.push(`insert '${other.text}' at ${at}`);
                break;
            }
            case 4: {
                // insert a keyword or punctuation
                const insert = random() < 0.6 ? pick(KEYWORDS) : pick(EXTRA_TOKENS);
                const at = random() < 0.5 ? token.start : token.end;
                splice(at, at, random() < 0.8 ? ` ${insert} ` : insert);
                steps.push(`insert ${JSON.stringify(insert)} at ${at}`);
                break;
            }
            case 5: {
                // truncate (anywhere, also inside a token)
                const at = Math.floor(random() * text.length);
                text = text.slice(0, at);
                steps.push(`truncate at ${at}`);
                break;
            }
            case 6: {
                // replace a number by an extreme one
                const numbers = tokens.filter(t => t.kind === 'number');
                if (numbers.length === 0) continue;
                const target = pick(numbers);
                const value = pick(NUMBERS);
                splice(target.start, target.end, value);
                steps.push(`number ${show(target)} -> ${value}`);
                break;
            }
            case 7: {
                // replace a name by another name (or a keyword)
                const words = tokens.filter(t => t.kind === 'word');
                if (words.length === 0) continue;
                const target = pick(words);
                const value = random() < 0.75 ? pick(words).text : pick(KEYWORDS);
                splice(target.start, target.end, value);
                steps.push(`name ${show(target)} -> ${value}`);
                break;
            }
            case 8: {
                // delete a run of tokens
                const i = tokens.indexOf(token);
                const last = tokens[Math.min(tokens.length - 1, i + 1 + Math.floor(random() * 8))];
                splice(token.start, last.end, ' ');
                steps.push(`delete ${show(token)}..${show(last)}`);
                break;
            }
            case 9: {
                // duplicate a line (repeated settings, duplicate names, second writers)
                const lines = text.split('\n');
                const line = Math.floor(random() * lines.length);
                lines.splice(line, 0, lines[line]);
                text = lines.join('\n');
                steps.push(`duplicate line ${line + 1}`);
                break;
            }
            case 10: {
                // replace any token by a keyword
                const value = pick(KEYWORDS);
                splice(token.start, token.end, value);
                steps.push(`replace ${show(token)} -> ${value}`);
                break;
            }
            default: {
                // move a line elsewhere (references before definitions, members across blocks)
                const lines = text.split('\n');
                const [moved] = lines.splice(Math.floor(random() * lines.length), 1);
                const to = Math.floor(random() * (lines.length + 1));
                lines.splice(to, 0, moved);
                text = lines.join('\n');
                steps.push(`move a line to ${to + 1}`);
            }
        }
    }
    return { text, steps };
}

// ------------------------------------------------------------------ checks of one mutant
const CRASH_MARKERS = ['An error occurred', 'An unexpected error'];
/** Words that give away a message built from a missing value. */
const SUSPICIOUS = /\bundefined\b|\bNaN\b|\[object Object\]/;
/** Suspicious messages on models with syntax errors (reported as a count, see SUSPICIOUS). */
const cosmetic: string[] = [];

function lineLengths(text: string): number[] {
    return text.split(/\r\n|\r|\n/).map(l => l.length);
}

function rangeProblem(range: Range | undefined, lengths: number[]): string | undefined {
    if (!range) return 'no range';
    const ok = (p: { line: number; character: number } | undefined) =>
        !!p &&
        Number.isInteger(p.line) &&
        Number.isInteger(p.character) &&
        p.line >= 0 &&
        p.character >= 0 &&
        p.line < lengths.length &&
        p.character <= lengths[p.line];
    if (!ok(range.start) || !ok(range.end))
        return `range ${JSON.stringify(range)} is outside the document (${lengths.length} lines)`;
    const before =
        range.start.line < range.end.line ||
        (range.start.line === range.end.line && range.start.character <= range.end.character);
    if (!before) return `range ${JSON.stringify(range)} ends before it starts`;
    return undefined;
}

/**
 * The hover of the services. The provider may catch its own exceptions (a hover must never break the
 * server); the fuzzer calls the unguarded `computeHover` where there is one so that a crash still shows.
 */
function hoverUnguarded(
    document: LangiumDocument,
    params: HoverParams,
): Promise<Hover | undefined> | Hover | undefined {
    const provider = Chain.lsp.HoverProvider! as unknown as {
        computeHover?: (d: LangiumDocument, p: HoverParams) => Promise<Hover | undefined>;
    };
    return typeof provider.computeHover === 'function'
        ? provider.computeHover(document, params)
        : Chain.lsp.HoverProvider!.getHoverContent(document, params);
}

let counter = 0;
/** Milliseconds spent per stage, printed at the end to keep the default run's cost visible. */
const timings = new Map<string, number>();
/** Per source: mutants run, how many had no errors, how many reached the IR exporter. */
const stats: Array<{ source: string; tried: number; valid: number; exported: number }> = [];
/** The slowest mutants of the run (a slow one points at a super-linear check). */
const slowest: Array<{ ms: number; what: string }> = [];
const consoleErrors: string[] = [];

interface Outcome {
    readonly problems: string[];
    readonly errors: number;
    readonly exported: boolean;
}

export async function check(text: string, random: () => number): Promise<Outcome> {
    const problems: string[] = [];
    const uri = URI.parse(`file:///fuzz/${counter++}.chain`);
    const stage = async <T>(name: string, run: () => T | Promise<T>): Promise<T | undefined> => {
        const started = performance.now();
        try {
            return await run();
        } catch (error) {
            problems.push(`${name} threw: ${(error as Error)?.stack ?? String(error)}`);
            return undefined;
        } finally {
            const key = name.replace(/ (at|for) .*/, '');
            timings.set(key, (timings.get(key) ?? 0) + performance.now() - started);
        }
    };
    const parseStarted = performance.now();
    const document = Chain.shared.workspace.LangiumDocumentFactory.fromString<Model>(text, uri);
    timings.set('parse', (timings.get('parse') ?? 0) + performance.now() - parseStarted);
    Chain.shared.workspace.LangiumDocuments.addDocument(document);
    let errors = 0;
    let exported = false;
    try {
        await stage('build + validate', () =>
            Chain.shared.workspace.DocumentBuilder.build([document], { validation: true }),
        );
        const lengths = lineLengths(text);
        const diagnostics: Diagnostic[] = document.diagnostics ?? [];
        const syntaxErrors = document.parseResult.lexerErrors.length + document.parseResult.parserErrors.length > 0;
        for (const d of diagnostics) {
            const where = rangeProblem(d.range, lengths);
            if (where) problems.push(`diagnostic '${d.message}': ${where}`);
            if (typeof d.message !== 'string' || d.message.trim() === '')
                problems.push(`diagnostic without a message at ${JSON.stringify(d.range)}`);
            if (CRASH_MARKERS.some(m => d.message?.includes(m))) {
                problems.push(`crash reported as a diagnostic: ${d.message}`);
            } else if (SUSPICIOUS.test(d.message ?? '')) {
                // On a model the parser had to recover, follow-on messages about half-built nodes
                // ("'undefined ms' is not a duration") are noise, not crashes: counted, failing only in strict mode.
                if (syntaxErrors && !STRICT) cosmetic.push(d.message);
                else problems.push(`suspicious diagnostic message: ${d.message}`);
            }
        }
        errors = diagnostics.filter(d => (d.severity ?? 1) === 1).length;
        const textDocument = { uri: uri.toString() };
        const randomPosition = () => document.textDocument.positionAt(Math.floor(random() * (text.length + 1)));

        // hover: at a few random offsets and at the start of a few tokens
        const tokens = tokenise(text);
        const offsets = [Math.floor(random() * (text.length + 1))];
        for (let i = 0; i < 3 && tokens.length > 0; i++)
            offsets.push(tokens[Math.floor(random() * tokens.length)].start);
        for (const offset of offsets) {
            const position = document.textDocument.positionAt(offset);
            const hover = await stage(`hover at ${position.line + 1}:${position.character + 1}`, () =>
                hoverUnguarded(document, { textDocument, position }),
            );
            const contents = hover?.contents as { value?: unknown } | undefined;
            if (hover && typeof contents?.value !== 'string')
                problems.push(`hover at ${offset} has no text: ${JSON.stringify(hover)}`);
            if (typeof contents?.value === 'string' && /\bNaN\b|\[object Object\]/.test(contents.value))
                problems.push(`suspicious hover at ${offset}: ${contents.value}`);
        }

        // document symbols
        const symbols = await stage('document symbols', () =>
            Chain.lsp.DocumentSymbolProvider!.getSymbols(document, { textDocument }),
        );
        const walk = (list: typeof symbols) => {
            for (const symbol of list ?? []) {
                const where = rangeProblem(symbol.range, lengths) ?? rangeProblem(symbol.selectionRange, lengths);
                if (where) problems.push(`symbol '${symbol.name}': ${where}`);
                walk(symbol.children);
            }
        };
        walk(symbols);

        // formatting: edits inside the document, not overlapping; an error-free model stays error-free
        const edits = await stage('format', () =>
            Chain.lsp.Formatter!.formatDocument(document, {
                textDocument,
                options: { tabSize: 4, insertSpaces: true },
            }),
        );
        for (const edit of edits ?? []) {
            const where = rangeProblem(edit.range, lengths);
            if (where) problems.push(`format edit ${JSON.stringify(edit)}: ${where}`);
        }
        const formatted = edits
            ? await stage('apply format edits', () => TextDocument.applyEdits(document.textDocument, edits))
            : undefined;

        // completion at a random offset
        await stage('completion', () =>
            Chain.lsp.CompletionProvider!.getCompletion(document, { textDocument, position: randomPosition() }),
        );

        // quick fixes for every diagnostic
        for (const diagnostic of diagnostics.slice(0, 20)) {
            const actions = await stage(`code actions for '${diagnostic.message}'`, () =>
                Chain.lsp.CodeActionProvider!.getCodeActions(document, {
                    textDocument,
                    range: diagnostic.range,
                    context: { diagnostics: [diagnostic] },
                }),
            );
            for (const action of actions ?? []) {
                for (const edit of ('edit' in action ? action.edit?.changes?.[uri.toString()] : undefined) ?? []) {
                    const where = rangeProblem(edit.range, lengths);
                    if (where) problems.push(`quick fix '${action.title}': ${where}`);
                }
            }
        }

        // IR of an error-free mutant, checked against the schema
        if (errors === 0 && problems.length === 0) {
            const ir = await stage('IR export', () =>
                exportIr(document.parseResult.value, {
                    file: 'fuzz.chain',
                    readFile: () => 't\n1.5\n2\n2.25\n3\n',
                    resolvePath: p => `/fuzz/${p}`,
                }),
            );
            if (ir) {
                exported = true;
                const schema = irSchemaErrors(ir);
                if (schema.length > 0) problems.push(`IR does not match the schema:\n  ${schema.join('\n  ')}`);
            }
            if (formatted !== undefined && formatted !== text) {
                const again = await stage('re-validate formatted', () => checkFormatted(formatted));
                if (again)
                    problems.push(`the formatted text has errors: ${again}\n--- formatted text ---\n${formatted}`);
            }
        }
    } finally {
        Chain.shared.workspace.LangiumDocuments.deleteDocument(uri);
        Chain.shared.workspace.IndexManager.remove(uri);
    }
    if (consoleErrors.length > 0) problems.push(`console.error: ${consoleErrors.splice(0).join('\n')}`);
    return { problems, errors, exported };
}

/** Errors of a formatted text (undefined when there are none). */
async function checkFormatted(text: string): Promise<string | undefined> {
    const uri = URI.parse(`file:///fuzz/${counter++}-formatted.chain`);
    const document = Chain.shared.workspace.LangiumDocumentFactory.fromString<Model>(text, uri);
    Chain.shared.workspace.LangiumDocuments.addDocument(document);
    try {
        await Chain.shared.workspace.DocumentBuilder.build([document], { validation: true });
        const errors = (document.diagnostics ?? []).filter(d => (d.severity ?? 1) === 1);
        return errors.length > 0
            ? errors.map(e => `${e.range.start.line + 1}:${e.range.start.character + 1} ${e.message}`).join('; ')
            : undefined;
    } finally {
        Chain.shared.workspace.LangiumDocuments.deleteDocument(uri);
        Chain.shared.workspace.IndexManager.remove(uri);
    }
}

// ------------------------------------------------------------------ the suite
/**
 * The sources of one shard: greedy by estimated cost (mutants × length), the same split in every shard file.
 */
function shardSources(shard: number, shards: number): Array<{ source: Source; share: number }> {
    // A mutant costs about its length: large sources get fewer mutants (weight 1/sqrt(length)), the total stays TOTAL.
    const weights = SOURCES.map(s => 1 / Math.sqrt(Math.max(s.text.length, 100)));
    const weightSum = weights.reduce((a, b) => a + b, 0);
    const planned = SOURCES.map((source, i) => ({
        source,
        share: Math.max(1, Math.round((TOTAL * weights[i]) / weightSum)),
    }));
    const load = new Array<number>(shards).fill(0);
    const owner = new Map<Source, number>();
    for (const item of [...planned].sort((a, b) => b.share * b.source.text.length - a.share * a.source.text.length)) {
        const lightest = load.indexOf(Math.min(...load));
        owner.set(item.source, lightest);
        load[lightest] += item.share * item.source.text.length;
    }
    return planned.filter(p => owner.get(p.source) === shard);
}

/** Registers the fuzz tests of one shard (0-based) in the calling test file. */
export function defineMutationSuite(shard: number, shards: number): void {
    beforeAll(() => {
        vi.spyOn(console, 'error').mockImplementation((...args: unknown[]) => {
            consoleErrors.push(args.map(a => (a instanceof Error ? a.stack : String(a))).join(' '));
        });
    });
    afterAll(() => {
        vi.restoreAllMocks();
        const sum = (k: 'tried' | 'valid' | 'exported') => stats.reduce((n, x) => n + x[k], 0);
        console.log(
            `fuzz shard ${shard + 1}/${shards}: ${sum('tried')} mutants (seed ${SEED}), ${sum('valid')} without errors, ${sum('exported')} exported to IR`,
        );
        console.log(
            `fuzz time per stage: ${[...timings].map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`).join(', ')}`,
        );
        console.log(`slowest mutants:\n  ${slowest.map(s => `${s.ms.toFixed(0)} ms ${s.what}`).join('\n  ')}`);
        if (cosmetic.length > 0) {
            const counts = new Map<string, number>();
            for (const m of cosmetic) counts.set(m, (counts.get(m) ?? 0) + 1);
            console.log(
                `${cosmetic.length} message(s) built from missing values on models with syntax errors (CHAINLAB_FUZZ_STRICT=1 fails on them):\n  ` +
                    [...counts]
                        .sort((a, b) => b[1] - a[1])
                        .slice(0, 15)
                        .map(([m, n]) => `${n}× ${m}`)
                        .join('\n  '),
            );
        }
    });

    describe(`mutation fuzzing of the .chain services, shard ${shard + 1} of ${shards}`, () => {
        const mine = shardSources(shard, shards);
        test(`shard ${shard + 1} fuzzes ${mine.map(m => m.source.name).join(', ') || 'nothing'}`, () => {
            expect(mine.length > 0 || SOURCES.length < shards).toBe(true);
        });

        for (const { source, share } of mine) {
            const only = ONLY?.split('#');
            if (only && only[0] !== source.name) continue;
            test(`${share} mutants of ${source.name} (seed ${SEED})`, async () => {
                const failures: string[] = [];
                let valid = 0,
                    exported = 0,
                    tried = 0;
                const indices = only ? [Number(only[1])] : Array.from({ length: share }, (_, i) => i);
                for (const index of indices) {
                    const random = prng(mutantSeed(source.name, index));
                    let mutant = mutate(source.text, random);
                    for (let retry = 0; mutant.text === source.text && retry < 10; retry++)
                        mutant = mutate(source.text, random);
                    if (mutant.text === source.text) continue;
                    tried++;
                    const started = performance.now();
                    const outcome = await check(mutant.text, random);
                    slowest.push({
                        ms: performance.now() - started,
                        what: `${source.name}#${index}: ${mutant.steps.join('; ').slice(0, 160)}`,
                    });
                    slowest.sort((a, b) => b.ms - a.ms).splice(5);
                    if (outcome.errors === 0) valid++;
                    if (outcome.exported) exported++;
                    if (outcome.problems.length > 0) {
                        failures.push(
                            [
                                `=== ${source.name} mutant #${index} (CHAINLAB_FUZZ_SEED=${SEED} CHAINLAB_FUZZ_ONLY='${source.name}#${index}')`,
                                `mutations: ${mutant.steps.join('; ')}`,
                                ...outcome.problems.map(p => `problem: ${p}`),
                                '--- mutant text ---',
                                mutant.text,
                                '--- end ---',
                            ].join('\n'),
                        );
                        if (failures.length >= MAX_FAILURES) break;
                    }
                }
                if (failures.length > 0) console.log(failures.join('\n\n'));
                // Compact: the full reports (mutations, problems, mutant text) are in the log above.
                const summary = failures.map(f =>
                    f
                        .split('\n')
                        .filter(l => l.startsWith('===') || l.startsWith('problem:'))
                        .join('\n')
                        .slice(0, 600),
                );
                expect(summary, `${failures.length} failing mutant(s) of ${source.name}; see the log above`).toEqual(
                    [],
                );
                expect(tried).toBeGreaterThan(indices.length * 0.9);
                // The mutants must reach the exporter, or the IR part tests nothing.
                if (source.name === 'embedded:sketch' && !only) expect(exported).toBeGreaterThan(0);
                stats.push({ source: source.name, tried, valid, exported });
            }, 600_000);
        }
    });
}
