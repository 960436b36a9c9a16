/**
 * Syntax errors a person can read. Chevrotain's messages ("Expecting: one of these possible Token
 * sequences: 1. [ID] 2. [s] …", "Expecting token of type '}' but found `box`.") become
 *
 *     Expected ':' after 'i', found 'F'.
 *     Expected a time unit ('s', 'ms', 'us' or 'ns') after '3', found '}'.
 *     Expected '}' to close box 'Gain' before 'box'.
 *     Unexpected 'foo' in box 'A': expected 'in', 'out', 'kernel', …, or '}' to close it.
 *     Unterminated string: the closing " is missing.
 *     Unexpected 'kerne' in box 'A': expected 'in', 'out', 'kernel', … or '}' to close it. Did you mean 'kernel'?
 *
 * Only the text changes; Langium still places each diagnostic at the token chevrotain reported.
 */
import type { AstNode, LangiumCoreServices, ParseResult } from 'langium';
import type {
    ILexerErrorMessageProvider,
    IParserErrorMessageProvider,
    IRecognitionException,
    IToken,
    TokenType,
} from 'chevrotain';
import { SyntaxVocabulary, joinOr } from './syntax-vocabulary.js';
import { noteKeywordTypos } from './keyword-typos.js';
import { quotedAlternatives } from './close-names.js';
import { STOPPED_READING } from './syntax-error-cap.js';

/** Data-type rules whose keywords read better under one word: "a time unit ('s', 'ms', 'us' or 'ns')". */
const VALUE_RULES: Readonly<Record<string, string>> = {
    TimeUnit: 'a time unit',
    SizeUnit: 'a size unit',
    ThresholdUnit: 'a unit',
    Heuristic: 'a schedule heuristic',
    MemoryKind: 'a memory strategy',
    SplitKind: 'a split',
    Order: 'an order',
    OnOff: "'on' or 'off'",
    CounterEvent: 'a counter event',
    Mechanism: 'a mechanism',
    Distribution: 'a distribution',
};

/** Chevrotain's rule names carry Langium's zero-width suffix. */
const ruleOf = (ruleName: string) => ruleName.replace(/\u200B$/, '');

function isEnd(token: IToken | undefined): boolean {
    return !token || token.tokenType?.name === 'EOF' || Number.isNaN(token.startOffset);
}

function found(token: IToken | undefined): string {
    return isEnd(token) ? 'the end of the file' : `'${token!.image}'`;
}

/** `message` plus "Did you mean 'kernel'?" where `token` is a typo of a keyword among `expected` (keyword-typos.ts). */
function withTypo(message: string, token: IToken | undefined, expected: Iterable<string>): string {
    const keywords = isEnd(token) ? [] : noteKeywordTypos(token, expected);
    return keywords.length > 0 ? `${message} Did you mean ${quotedAlternatives(keywords)}?` : message;
}

function after(previous: IToken | undefined): string {
    return !isEnd(previous) && previous!.image ? ` after '${previous!.image}'` : '';
}

/** Whether `token` is of type `type` (or of a type in its category, as chevrotain's tokenMatcher). */
function matches(token: IToken, type: TokenType): boolean {
    return token.tokenType === type || (type.isParent === true && !!type.categoryMatchesMap?.[token.tokenTypeIdx]);
}

export class ChainParserErrorMessageProvider implements IParserErrorMessageProvider {
    private readonly vocabulary: SyntaxVocabulary;
    /** The AST node the parser is building (set by createChainParser): names what a '}' would close. */
    currentNode: () => AstNode | undefined = () => undefined;

    constructor(services: LangiumCoreServices) {
        this.vocabulary = new SyntaxVocabulary(services.Grammar);
    }

    buildMismatchTokenMessage(options: {
        expected: TokenType;
        actual: IToken;
        previous: IToken;
        ruleName: string;
    }): string {
        const { expected, actual, previous } = options;
        const rule = ruleOf(options.ruleName);
        const opener = this.vocabulary.leadingKeyword(rule);
        if (expected.name === '}' && opener) return this.unclosed(rule, opener, actual);
        // The end of the file expected: the word in the way may be a misspelt element (`chian C {}`).
        const keywords = expected.name === 'EOF' ? this.elementStarts() : [expected.name];
        return withTypo(
            `Expected ${this.vocabulary.spell(expected.name)}${after(previous)}, found ${found(actual)}.`,
            actual,
            keywords,
        );
    }

    buildNoViableAltMessage(options: {
        expectedPathsPerAlt: TokenType[][][];
        actual: IToken[];
        previous: IToken;
        ruleName: string;
    }): string {
        return this.expectedOneOf(
            options.expectedPathsPerAlt.flat(),
            options.actual,
            options.previous,
            ruleOf(options.ruleName),
        );
    }

    buildEarlyExitMessage(options: {
        expectedIterationPaths: TokenType[][];
        actual: IToken[];
        previous: IToken;
        ruleName: string;
    }): string {
        return this.expectedOneOf(
            options.expectedIterationPaths,
            options.actual,
            options.previous,
            ruleOf(options.ruleName),
        );
    }

    buildNotAllInputParsedMessage(options: { firstRedundant: IToken; ruleName: string }): string {
        if (options.firstRedundant.image === '}') return "Unexpected '}': no block is open here.";
        const starts = [...this.elementStarts()];
        return withTypo(
            `Unexpected ${found(options.firstRedundant)}: a file holds only ${joinOr(starts.map(s => this.vocabulary.spell(s)))} elements.`,
            options.firstRedundant,
            starts,
        );
    }

    /** The keywords that start an element (`box`, `chain`, …). */
    private elementStarts(): ReadonlySet<string> {
        const elements = this.vocabulary.rule('Element');
        return elements && 'definition' in elements ? this.vocabulary.first(elements.definition) : new Set<string>();
    }

    /** A '}' expected: the block was left open (a new element or the end follows) or holds something it cannot. */
    private unclosed(rule: string, opener: string, actual: IToken): string {
        const node = this.currentNode();
        const name = node?.$type === rule ? (node as { name?: unknown }).name : undefined;
        const block = typeof name === 'string' ? `${opener} '${name}'` : `the ${opener}`;
        const elementStarts = this.elementStarts();
        if (isEnd(actual)) return `Expected '}' to close ${block} before the end of the file.`;
        if (elementStarts.has(actual.image)) return `Expected '}' to close ${block} before '${actual.image}'.`;
        const inside = this.vocabulary.beforeClosing(rule, '}', node?.$type === rule ? node : undefined);
        return withTypo(
            `Unexpected ${found(actual)} in ${block}: expected ${this.vocabulary.choice(inside, '}')} to close it.`,
            actual,
            inside,
        );
    }

    /**
     * Several alternatives failed. The paths may be longer than one token (`a: Box` and `a.o -> b.i` both start
     * with a name): report the tokens expected where the input leaves the paths, after the last token that fit.
     */
    private expectedOneOf(paths: TokenType[][], actual: IToken[], previous: IToken, rule: string): string {
        const fit = paths.map(path => {
            let k = 0;
            while (k < path.length && k < actual.length && matches(actual[k], path[k])) k++;
            return k;
        });
        const depth = Math.max(0, ...fit);
        const expected = paths
            .filter((path, i) => fit[i] === depth && path.length > depth)
            .map(path => path[depth].name);
        const before = depth > 0 ? actual[depth - 1] : previous;
        const tokens = new Set(expected);
        const described = VALUE_RULES[rule] && depth === 0;
        const what = described
            ? `${VALUE_RULES[rule]}${rule === 'OnOff' ? '' : ` (${this.vocabulary.choice(tokens)})`}`
            : this.vocabulary.choice(tokens);
        // A typo shows in the first word (`schedul simple` reads as the start of an instance): check it against every
        // path's first token, where the diagnostic is placed.
        return withTypo(
            `Expected ${what}${after(before)}, found ${found(actual[depth])}.`,
            actual[0],
            paths.map(path => path[0]?.name).filter((n): n is string => !!n),
        );
    }
}

export class ChainLexerErrorMessageProvider implements ILexerErrorMessageProvider {
    buildUnexpectedCharactersMessage(fullText: string, startOffset: number, length: number): string {
        const text = fullText.substring(startOffset, startOffset + length);
        if (text.startsWith('"') || text.startsWith("'"))
            return `Unterminated string: the closing ${text[0]} is missing.`;
        return length === 1 ? `Unexpected character '${text}'.` : `Unexpected characters '${text}'.`;
    }

    buildUnableToPopLexerModeMessage(token: IToken): string {
        return `Unexpected '${token.image}'.`; // the grammar has no lexer modes
    }
}

/** The lexer errors worth showing: none after an unterminated string on its line (its words are not the error). */
export function lexerErrorsWithoutFollowUps(parseResult: ParseResult): ParseResult['lexerErrors'] {
    const openStrings = parseResult.lexerErrors.filter(e => e.message.startsWith('Unterminated string'));
    return parseResult.lexerErrors.filter(
        error => !openStrings.some(e => e.line === error.line && e.offset < error.offset),
    );
}

/**
 * The parser errors worth showing: one per token (chevrotain's recovery may report the token it resynchronised
 * at again), and none on the rest of a line whose string is unterminated (the string's words are not the error).
 */
export function parserErrorsWithoutFollowUps(parseResult: ParseResult): IRecognitionException[] {
    const openStrings = parseResult.lexerErrors.filter(e => e.message.startsWith('Unterminated string'));
    const reported = new Set<number>();
    return parseResult.parserErrors.filter(error => {
        const { startOffset, startLine } = error.token;
        if (Number.isNaN(startOffset)) return true; // an inserted token: nothing to compare
        if (error.name === STOPPED_READING) return true; // where the parser stopped, at the last error's token
        if (reported.has(startOffset)) return false;
        if (openStrings.some(e => e.line === startLine && e.offset < startOffset)) return false;
        reported.add(startOffset);
        return true;
    });
}
