/**
 * Lean tokens against chevrotain's own: the same tokens, types, images, offsets, lines and columns, with every kind of
 * line end and tokens over several lines (a block comment, a line comment ending the text), and the same errors.
 */
import { describe, expect, test } from 'vitest';
import { DefaultLexer, type LexerResult } from 'langium';
import type { IToken } from 'chevrotain';
import { services } from '../test-utils.js';

const LINES = [
    '// a model with every kind of line end',
    'platform Pc { cores 4 }',
    '/* a comment',
    '   over two lines */ image Frame 64 x 64 of u16',
    'box Src { out o: Frame  kernel source  split none  cost 1.5 ms }',
    '/* ends at a line end',
    '*/',
    'chain C on Pc { s: Src § }',
    '// the last line',
];

const chevrotain = new DefaultLexer(services.Chain);

function fields(token: IToken) {
    const { image, startOffset, endOffset, startLine, startColumn, endLine, endColumn } = token;
    // the other lexer made its own token types: the same names, other indices
    return { image, startOffset, endOffset, startLine, startColumn, endLine, endColumn, type: token.tokenType.name };
}

function seen(result: LexerResult) {
    return { tokens: result.tokens.map(fields), hidden: result.hidden.map(fields), errors: result.errors };
}

describe('lean tokens', () => {
    for (const [name, end] of [
        ['LF', '\n'],
        ['CRLF', '\r\n'],
        ['CR', '\r'],
    ] as const)
        test(`are chevrotain's tokens (${name})`, () => {
            const text = LINES.join(end);
            const lean = seen(services.Chain.parser.Lexer.tokenize(text));
            expect(lean.tokens.length).toBeGreaterThan(30);
            expect(lean.hidden.length).toBe(4);
            expect(lean.errors).toHaveLength(1); // the §
            expect(lean).toEqual(seen(chevrotain.tokenize(text)));
        });
});
