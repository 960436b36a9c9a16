/**
 * Misspelt keywords (`kerne` for `kernel`): the one rule behind the syntax message's "did you mean 'kernel'?", the
 * diagnostic's quick fix and the hover. The parser knows which tokens it expected where it failed
 * (syntax-error-messages.ts); a word there within one or two edits of such a keyword is taken for a typo of it.
 * The parser's message provider notes the keywords per failing token; the validator and the hover read them back
 * from the parse result's errors, whose tokens are the same objects.
 */
import type { IToken } from 'chevrotain';
import type { ParseResult } from 'langium';
import { editDistance } from './close-names.js';

/** A word the lexer may have made of a misspelt keyword (an ID, or a keyword that is also a name). */
const WORD = /^[A-Za-z_][\w-]*$/;

/** The keywords each failing token may be a typo of, noted while parsing (tokens are new objects per parse). */
const noted = new WeakMap<IToken, readonly string[]>();

/**
 * The keywords among `expected` that `word` is a typo of, closest first: within one edit for words of up to four
 * letters (`scr` is not `src`'s typo of `source`), two for longer ones; a case difference alone counts as one.
 */
export function keywordTypos(word: string, expected: Iterable<string>): string[] {
    if (!WORD.test(word) || word.length < 3) return [];
    const limit = word.length <= 4 ? 1 : 2;
    const scored: Array<{ keyword: string; distance: number }> = [];
    for (const keyword of new Set(expected)) {
        if (keyword === word || !WORD.test(keyword) || keyword.length < 3) continue;
        const distance =
            keyword.toLowerCase() === word.toLowerCase() ? 1 : editDistance(word.toLowerCase(), keyword.toLowerCase());
        if (distance <= limit) scored.push({ keyword, distance });
    }
    return scored
        .sort((a, b) => a.distance - b.distance)
        .slice(0, 3)
        .map(s => s.keyword);
}

/** Notes the keywords `token` may be a typo of (none: nothing noted); returns them for the message. */
export function noteKeywordTypos(token: IToken | undefined, expected: Iterable<string>): string[] {
    if (!token || Number.isNaN(token.startOffset)) return [];
    const keywords = keywordTypos(token.image, expected);
    if (keywords.length > 0) noted.set(token, keywords);
    return keywords;
}

/** The keywords the token of a parser error was taken for a typo of. */
export function keywordTyposOf(token: IToken): readonly string[] {
    return noted.get(token) ?? [];
}

/** The misspelt keyword at `offset` of a parsed text, if a syntax error there is one. */
export function keywordTypoAt(
    parseResult: ParseResult,
    offset: number,
): { word: string; keywords: readonly string[] } | undefined {
    for (const error of parseResult.parserErrors) {
        const { token } = error;
        if (token.startOffset <= offset && offset <= (token.endOffset ?? token.startOffset) + 1) {
            const keywords = keywordTyposOf(token);
            if (keywords.length > 0) return { word: token.image, keywords };
        }
    }
    return undefined;
}
