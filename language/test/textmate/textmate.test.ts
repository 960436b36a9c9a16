/**
 * The extension's TextMate grammar (textmate.mjs) tokenized by VS Code's own engine (vscode-textmate +
 * vscode-oniguruma): keywords that are also names (`x`, `s`, `in`, `local` …) are keywords only in their
 * places; `mul.x`, an instance `s` or a port `x` are names. Langium's raw grammar is shown getting them wrong.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { beforeAll, describe, expect, test } from 'vitest';
import * as oniguruma from 'vscode-oniguruma';
import * as textmate from 'vscode-textmate';
import { generatedGrammarPath, grammarFacts, tunedTextMateGrammar } from '../../textmate.mjs';

type Grammar = Awaited<ReturnType<textmate.Registry['loadGrammar']>>;

let tuned: NonNullable<Grammar>;
let raw: NonNullable<Grammar>;

async function load(json: object): Promise<NonNullable<Grammar>> {
    const registry = new textmate.Registry({
        onigLib: Promise.resolve({
            createOnigScanner: (patterns: string[]) => new oniguruma.OnigScanner(patterns),
            createOnigString: (text: string) => new oniguruma.OnigString(text),
        }),
        loadGrammar: () => Promise.resolve(textmate.parseRawGrammar(JSON.stringify(json), 'chain.tmLanguage.json')),
    });
    return (await registry.loadGrammar('source.chain'))!;
}

beforeAll(async () => {
    const wasm = readFileSync(createRequire(import.meta.url).resolve('vscode-oniguruma/release/onig.wasm'));
    await oniguruma.loadWASM(wasm.buffer.slice(wasm.byteOffset, wasm.byteOffset + wasm.byteLength));
    tuned = await load(await tunedTextMateGrammar());
    raw = await load(JSON.parse(readFileSync(generatedGrammarPath, 'utf-8')));
}, 30_000);

/** Each non-blank token of the text as `text=scope` (the innermost scope, without `.chain`; `-` for none). */
function tokens(grammar: NonNullable<Grammar>, text: string): string[] {
    const result: string[] = [];
    let stack = textmate.INITIAL;
    for (const line of text.split('\n')) {
        const tokenized = grammar.tokenizeLine(line, stack);
        for (const token of tokenized.tokens) {
            const part = line.slice(token.startIndex, token.endIndex);
            if (!part.trim()) continue;
            const scope = token.scopes[token.scopes.length - 1];
            result.push(`${part.trim()}=${scope === 'source.chain' ? '-' : scope.replace(/\.chain$/, '')}`);
        }
        stack = tokenized.ruleStack;
    }
    return result;
}

/** The scope of `word` in `text` (its first occurrence as a whole token). */
function scopeOf(grammar: NonNullable<Grammar>, text: string, word: string, nth = 0): string {
    const found = tokens(grammar, text).filter(t => t.startsWith(`${word}=`));
    expect(found.length, `${word} in ${JSON.stringify(tokens(grammar, text))}`).toBeGreaterThan(nth);
    return found[nth].slice(word.length + 1);
}

describe('keywords that are names too', () => {
    test('the grammar facts: which keywords may be names', async () => {
        const facts = await grammarFacts();
        expect([...facts.nameKeywords]).toEqual(
            expect.arrayContaining(['x', 's', 'ms', 'in', 'out', 'on', 'local', 'port']),
        );
        expect(facts.nameKeywords.has('box')).toBe(false);
        expect([...facts.units]).toEqual(expect.arrayContaining(['s', 'ms', 'us', 'ns', 'B', 'KiB', 'MiB/s', '%']));
        expect([...facts.declaring]).toEqual(
            expect.arrayContaining(['box', 'image', 'chain', 'of', 'cache', 'throttle', 'platform']),
        );
        expect([...facts.kernelKeywords]).toEqual(['kernel']);
        expect([...facts.unitKeywords]).toEqual(['unit']);
    });

    test("Langium's raw grammar highlights `x` of `mul.x` as a keyword (the bug)", () => {
        expect(scopeOf(raw, 'm.o -> mul.x', 'x')).toBe('keyword.control');
    });

    test('a port named x after an instance is a property', () => {
        expect(tokens(tuned, '    m.o -> mul.x')).toEqual([
            'm=variable.other',
            '.=-',
            'o=variable.other.property',
            '->=-',
            'mul=variable.other',
            '.=-',
            'x=variable.other.property',
        ]);
    });

    test('a port or an instance named like a keyword is a name where it is declared and used', () => {
        expect(tokens(tuned, 'box Mul { in x: F  in in: F  out s: F  kernel mul }')).toEqual([
            'box=keyword.control',
            'Mul=entity.name.type',
            '{=-',
            'in=keyword.control',
            'x=variable.other',
            ':=-',
            'F=entity.name.type',
            'in=keyword.control',
            'in=variable.other',
            ':=-',
            'F=entity.name.type',
            'out=keyword.control',
            's=variable.other',
            ':=-',
            'F=entity.name.type',
            'kernel=keyword.control',
            'mul=entity.name.function',
            '}=-',
        ]);
        expect(tokens(tuned, 'chain C on local { s: Src  local: Mul  s.s -> local.in }')).toEqual([
            'chain=keyword.control',
            'C=entity.name.type',
            'on=keyword.control',
            'local=entity.name.type',
            '{=-',
            's=variable.other',
            ':=-',
            'Src=entity.name.type',
            'local=variable.other',
            ':=-',
            'Mul=entity.name.type',
            's=variable.other',
            '.=-',
            's=variable.other.property',
            '->=-',
            'local=variable.other',
            '.=-',
            'in=variable.other.property',
            '}=-',
        ]);
    });

    test('declared names spelt like keywords', () => {
        expect(scopeOf(tuned, 'image x 4 x 4 of u8', 'x')).toBe('entity.name.type');
        expect(scopeOf(tuned, 'image x 4 x 4 of u8', 'x', 1)).toBe('keyword.control');
        expect(scopeOf(tuned, 'platform local { cores 4 }', 'local')).toBe('entity.name.type');
        expect(scopeOf(tuned, 'target t { local platform s throttle on }', 's')).toBe('entity.name.type');
        expect(scopeOf(tuned, 'target t { local platform s throttle on }', 'on')).toBe('entity.name.type');
        expect(scopeOf(tuned, 'kernel offset(3)', 'offset')).toBe('entity.name.function');
    });
});

describe('keywords where they are keywords', () => {
    test('`x` between the sizes of an image, units after numbers', () => {
        expect(tokens(tuned, 'image Frame 1024 x 1024 of u16')).toEqual([
            'image=keyword.control',
            'Frame=entity.name.type',
            '1024=constant.numeric',
            'x=keyword.control',
            '1024=constant.numeric',
            'of=keyword.control',
            'u16=entity.name.type',
        ]);
        expect(tokens(tuned, 'cost 0.8 ms  cache L3 8 MiB shared  threshold 50 %  threshold 2 GiB/s')).toEqual([
            'cost=keyword.control',
            '0.8=constant.numeric',
            'ms=keyword.other.unit',
            'cache=keyword.control',
            'L3=entity.name.type',
            '8=constant.numeric',
            'MiB=keyword.other.unit',
            'shared=keyword.control',
            'threshold=keyword.control',
            '50=constant.numeric',
            '%=keyword.other.unit',
            'threshold=keyword.control',
            '2=constant.numeric',
            'GiB/s=keyword.other.unit',
        ]);
    });

    test('a unit before a pmf colon is still a unit', () => {
        expect(tokens(tuned, 'etp pmf { 1 ms: 0.5, 2 ms: 0.5 }')).toEqual([
            'etp=keyword.control',
            'pmf=keyword.control',
            '{=-',
            '1=constant.numeric',
            'ms=keyword.other.unit',
            ':=-',
            '0.5=constant.numeric',
            ',=-',
            '2=constant.numeric',
            'ms=keyword.other.unit',
            ':=-',
            '0.5=constant.numeric',
            '}=-',
        ]);
    });

    test('name-keywords in their settings, hyphenated keywords whole', () => {
        expect(scopeOf(tuned, 'smt on', 'on')).toBe('keyword.control');
        expect(scopeOf(tuned, 'split rows depends halo 2', 'rows')).toBe('keyword.control');
        expect(scopeOf(tuned, 'schedule fixed threads 4 cores 0..3', 'fixed')).toBe('keyword.control');
        expect(scopeOf(tuned, 'schedule fixed threads 4 cores 0..3', '3')).toBe('constant.numeric');
        expect(scopeOf(tuned, 'counter l2-lines-in mechanism fifo-hold', 'l2-lines-in')).toBe('keyword.control');
        expect(scopeOf(tuned, 'target t { local rt-cores 0..1 be-cores 2..3 workload hog }', 'rt-cores')).toBe(
            'keyword.control',
        );
        expect(scopeOf(tuned, 'target t { local rt-cores 0..1 be-cores 2..3 workload hog }', 'hog')).toBe(
            'keyword.control',
        );
        expect(scopeOf(tuned, 'require latency <= 160 ms with probability >= 99.9 %', 'with')).toBe('keyword.control');
        expect(scopeOf(tuned, 'require loss < 1e-4', '1e-4')).toBe('constant.numeric');
    });

    test('comments and strings are untouched', () => {
        expect(tokens(tuned, '// in x: F\netp histogram "in.x ms" unit us')).toEqual([
            '//=comment.line',
            'in x: F=comment.line',
            'etp=keyword.control',
            'histogram=keyword.control',
            '"=string.quoted.double',
            'in.x ms=string.quoted.double',
            '"=string.quoted.double',
            'unit=keyword.control',
            'us=keyword.other.unit',
        ]);
    });
});

describe('the samples', () => {
    test('no name in samples/xray.chain is highlighted as a keyword where it is a name', () => {
        const text = readFileSync(new URL('../../../samples/xray.chain', import.meta.url), 'utf-8');
        const all = tokens(tuned, text);
        // every `x.y` port reference: both parts names
        for (const match of text.matchAll(/^\s+(\w+)\.(\w+) -> (\w+)\.(\w+)/gm)) {
            const line = tokens(tuned, match[0]);
            expect(line.filter(t => t.endsWith('=keyword.control'))).toEqual([]);
        }
        expect(all.some(t => t === 'x=keyword.control')).toBe(true); // `1024 x 1024`
    });
});
