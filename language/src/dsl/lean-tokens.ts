/**
 * The lexer's tokens in less memory. Chevrotain makes each token an object of nine fields and copies its text into
 * a new string: about 120 bytes a token, and a model near the 4 MiB limit has a million tokens, all alive until the
 * parse ends (a third of the memory at its peak). Here a token holds its offsets, its type and its text's source;
 * its image, lines and columns are computed when asked (by the parser once per token, by syntax errors).
 */
import { DefaultLexer, type LangiumCoreServices, type LexerResult, type TokenizeOptions } from 'langium';
import type { IToken, TokenType } from 'chevrotain';
import { lineStartsOf, positionFrom } from './line-starts.js';

/** The text being lexed, and its line starts, made when a token is first asked for its line. */
class TokenSource {
    private starts: Uint32Array | undefined;

    constructor(readonly text: string) {}

    /** One-based line and column, as chevrotain gives them. */
    lineColumn(offset: number): { line: number; column: number } {
        const { line, character } = positionFrom((this.starts ??= lineStartsOf(this.text)), offset);
        return { line: line + 1, column: character + 1 };
    }
}

/** Token types by their index (chevrotain numbers every token type of the process): one field less a token. */
const typesByIndex: TokenType[] = [];

export function tokenTypeAt(index: number): TokenType {
    return typesByIndex[index];
}

export function registerTokenType(type: TokenType): number {
    const index = type.tokenTypeIdx!;
    typesByIndex[index] ??= type;
    return index;
}

class LeanToken implements IToken {
    constructor(
        private readonly source: TokenSource,
        readonly startOffset: number,
        readonly endOffset: number,
        readonly tokenTypeIdx: number,
    ) {}

    get tokenType(): TokenType {
        return tokenTypeAt(this.tokenTypeIdx);
    }

    get image(): string {
        return this.source.text.substring(this.startOffset, this.endOffset + 1);
    }

    get startLine(): number {
        return this.source.lineColumn(this.startOffset).line;
    }

    get startColumn(): number {
        return this.source.lineColumn(this.startOffset).column;
    }

    /** The line of the token's last character (a token ending in a line break ends on the line it breaks). */
    get endLine(): number {
        return this.source.lineColumn(this.endOffset).line;
    }

    set endLine(_line: number) {
        // chevrotain sets the end of a token over several lines; the getter computes the same from the offsets
    }

    get endColumn(): number {
        return this.source.lineColumn(this.endOffset).column;
    }

    set endColumn(_column: number) {
        // as endLine
    }
}

type CreateToken = (image: string, startOffset: number, tokenTypeIdx: number, tokenType: TokenType) => IToken;

export class LeanTokenLexer extends DefaultLexer {
    private source = new TokenSource('');

    constructor(services: LangiumCoreServices) {
        super(services);
        // chevrotain picks its token factory by its position tracking; the lines and columns are computed instead
        const create: CreateToken = (image, startOffset, _index, tokenType) =>
            new LeanToken(this.source, startOffset, startOffset + image.length - 1, registerTokenType(tokenType));
        (this.chevrotainLexer as unknown as { createTokenInstance: CreateToken }).createTokenInstance = create;
    }

    override tokenize(text: string, options?: TokenizeOptions): LexerResult {
        this.source = new TokenSource(text);
        return super.tokenize(text, options);
    }
}
