// The TextMate grammar of the extension, tuned from the one Langium generates (syntaxes/chain.tmLanguage.json).
//
// Langium's grammar highlights every keyword wherever it stands. But `x`, `s`, `in`, `on`, `local` … are names
// too (the grammar's NameKeyword rule), so a port `mul.x`, an instance `s: Src` or a port `in x: F` lit up as
// keywords. Here such name-keywords are keywords only where they are keywords: units right after a number,
// `x` between an image's sizes, the others where no name stands (not after '.', not before ':' or '.').
// Names get their own scopes: declared names and references after a keyword, kernel names, instance and
// port names. The keyword lists come from the grammar itself, so a new keyword needs no change here.
//
//   node textmate.mjs [out.json]     prints (or writes) the tuned grammar; extension/esbuild.mjs ships it
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createLangiumGrammarServices } from 'langium/grammar';
import { NodeFileSystem } from 'langium/node';
import { AstUtils, GrammarAST, URI } from 'langium';

const root = dirname(fileURLToPath(import.meta.url));
export const generatedGrammarPath = join(root, 'syntaxes', 'chain.tmLanguage.json');
export const langiumGrammarPath = join(root, 'src', 'dsl', 'chain.langium');

const IDENTIFIER = '[_a-zA-Z][\\w]*';
const NUMBER = '\\d+(?:\\.\\d+)?(?:[eE][+-]?\\d+)?';
/** Keywords contain '-' (`duty-cycle`, `rt-cores`): a word boundary that treats '-' as part of the word. */
const BEFORE = '(?<![\\w.-])';
const AFTER = '(?![\\w-])';

const escape = text => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** An alternation, longest first (so `MiB/s` wins over `MiB`). */
const alternation = words =>
    [...words]
        .sort((a, b) => b.length - a.length || a.localeCompare(b))
        .map(escape)
        .join('|');

/** The facts about the .chain grammar that highlighting needs, read with Langium's own grammar parser. */
export async function grammarFacts(path = langiumGrammarPath) {
    const services = createLangiumGrammarServices(NodeFileSystem).grammar;
    const document = services.shared.workspace.LangiumDocumentFactory.fromString(
        readFileSync(path, 'utf-8'),
        URI.file(path),
    );
    await services.shared.workspace.DocumentBuilder.build([document]);
    const grammar = document.parseResult.value;
    const rule = name => grammar.rules.find(r => r.name === name);
    const keywordsOf = name => {
        const found = rule(name);
        return found
            ? AstUtils.streamAst(found.definition)
                  .filter(GrammarAST.isKeyword)
                  .map(k => k.value)
                  .toArray()
            : [];
    };
    const nameKeywords = new Set(keywordsOf('NameKeyword'));
    const unitRules = ['TimeUnit', 'SizeUnit', 'ThresholdUnit'];
    const units = new Set([...unitRules.flatMap(keywordsOf), '%']);
    // Keywords directly followed by a name (`box Gain`, `of u16`, `platform P` in a target, `kernel gain`):
    // the name after them is a name whatever it is spelt like. Name-keywords are left out (`smt on cache`).
    const declaring = new Set();
    const kernelKeywords = new Set();
    const unitKeywords = new Set(); // `unit us` in a histogram: a unit without a number
    for (const group of AstUtils.streamAllContents(grammar).filter(GrammarAST.isGroup)) {
        for (let i = 0; i + 1 < group.elements.length; i++) {
            const [keyword, next] = [group.elements[i], group.elements[i + 1]];
            const value = GrammarAST.isKeyword(keyword)
                ? keyword.value
                : GrammarAST.isAssignment(keyword) && GrammarAST.isKeyword(keyword.terminal)
                  ? keyword.terminal.value
                  : undefined;
            if (!value || !/^[\w-]+$/.test(value) || !GrammarAST.isAssignment(next)) continue;
            const terminal = next.terminal;
            const called = GrammarAST.isRuleCall(terminal)
                ? terminal.rule.ref?.name
                : GrammarAST.isCrossReference(terminal)
                  ? 'Name'
                  : undefined;
            if (called === 'Name' && !nameKeywords.has(value)) declaring.add(value);
            if (called === 'KernelName' && !nameKeywords.has(value)) kernelKeywords.add(value);
            if (unitRules.includes(called)) unitKeywords.add(value);
        }
    }
    return { nameKeywords, units, declaring, kernelKeywords, unitKeywords };
}

/** Langium's generated grammar with the keyword pattern replaced by position-aware patterns. */
export function tuneTextMateGrammar(generated, facts) {
    const keywordPattern = generated.patterns.find(p => typeof p.match === 'string' && p.name?.startsWith('keyword'));
    if (!keywordPattern) throw new Error('the generated TextMate grammar has no keyword pattern to tune');
    const keywords = /\\b\((.*)\)\\b/.exec(keywordPattern.match)[1].split('|');
    const scope = suffix => `${suffix}.${generated.name}`;
    const reserved = keywords.filter(k => !facts.nameKeywords.has(k) && !facts.units.has(k));
    // `x` and the units are names anywhere but in their one place; the other name-keywords are keywords where no name
    // is.
    const contextual = keywords.filter(k => facts.nameKeywords.has(k) && !facts.units.has(k) && k !== 'x');
    const tuned = [
        // `box Gain`, `image x …`, `of u16`, `throttle T` (a declaration or a reference after its keyword)
        {
            match: `${BEFORE}(${alternation(facts.declaring)})\\s+(${IDENTIFIER})`,
            captures: { 1: { name: keywordPattern.name }, 2: { name: scope('entity.name.type') } },
        },
        // `kernel gain(1.5)`, `kernel source`: a kernel's name, never a keyword
        {
            match: `${BEFORE}(${alternation(facts.kernelKeywords)})\\s+(${IDENTIFIER})`,
            captures: { 1: { name: keywordPattern.name }, 2: { name: scope('entity.name.function') } },
        },
        // `chain C on local {`: the platform after `on` (but `smt on` stays a keyword)
        {
            match: `${BEFORE}(on)\\s+(${IDENTIFIER})(?=\\s*\\{)`,
            captures: { 1: { name: keywordPattern.name }, 2: { name: scope('entity.name.type') } },
        },
        // `10 ms`, `256 KiB`, `99.9 %`: a unit right after its number
        {
            match: `(?<!\\w)(${NUMBER})\\s*(${alternation(facts.units)})(?![\\w/])`,
            captures: { 1: { name: scope('constant.numeric') }, 2: { name: scope('keyword.other.unit') } },
        },
        // `unit us`: a unit named by its keyword
        {
            match: `${BEFORE}(${alternation(facts.unitKeywords)})\\s+(${alternation(facts.units)})(?![\\w/])`,
            captures: { 1: { name: keywordPattern.name }, 2: { name: scope('keyword.other.unit') } },
        },
        // `1024 x 1024`: the image size's `x`
        {
            match: `(?<!\\w)(\\d+)\\s+(x)\\s+(?=\\d)`,
            captures: { 1: { name: scope('constant.numeric') }, 2: { name: keywordPattern.name } },
        },
        // `mul.x`: a port of an instance
        { match: `(\\.)(${IDENTIFIER})`, captures: { 2: { name: scope('variable.other.property') } } },
        // `s: Src`, `in x: F`: the type after ':'
        { match: `(:)\\s*(${IDENTIFIER})${AFTER}`, captures: { 2: { name: scope('entity.name.type') } } },
        // `x: F`, `local: Box` (a declared port or instance), `mul.x` (an instance)
        { match: `${BEFORE}(${IDENTIFIER})(?=\\s*:|\\.[_a-zA-Z])`, captures: { 1: { name: scope('variable.other') } } },
        { name: keywordPattern.name, match: `${BEFORE}(${alternation(reserved)})${AFTER}` },
        { name: keywordPattern.name, match: `${BEFORE}(${alternation(contextual)})${AFTER}(?!\\s*:)` },
        { name: scope('constant.numeric'), match: `(?<!\\w)${NUMBER}${AFTER}` },
    ];
    const index = generated.patterns.indexOf(keywordPattern);
    const usable = tuned.filter(p => !p.match.includes('()')); // a keyword list the grammar left empty
    // Strings and comments keep their place before everything else; the tuned patterns replace the keyword one.
    const patterns = [...generated.patterns.slice(0, index), ...generated.patterns.slice(index + 1), ...usable];
    return { ...generated, patterns };
}

/** The tuned grammar of this repository's language. */
export async function tunedTextMateGrammar() {
    return tuneTextMateGrammar(JSON.parse(readFileSync(generatedGrammarPath, 'utf-8')), await grammarFacts());
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
    const text = JSON.stringify(await tunedTextMateGrammar(), null, 2) + '\n';
    if (process.argv[2]) writeFileSync(process.argv[2], text);
    else process.stdout.write(text);
}
