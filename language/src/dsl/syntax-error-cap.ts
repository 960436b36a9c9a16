/**
 * At most MAX_SYNTAX_ERRORS syntax errors per file: after that the parser stops reading, as compilers do. A file of
 * random tokens under the size limit otherwise gave hundreds of thousands of errors, each with chevrotain's error
 * recovery, for a minute and more than a gigabyte, and nobody reads past the first screen of them.
 */
import type { IRecognitionException, IToken } from 'chevrotain';
import type { LangiumParser } from 'langium';

export const MAX_SYNTAX_ERRORS = 100;

/** The `name` of the error that says where the parser stopped. */
export const STOPPED_READING = 'TooManySyntaxErrors';

/** The parts of chevrotain's recognizer (Langium's private `wrapper`) that the cap needs. */
interface Recognizer {
    SAVE_ERROR(error: Error): Error;
    LA(howMuch: number): IToken;
    _errors: unknown[];
    tokVector: IToken[];
    tokVectorLength: number;
    currIdx: number;
}

/** Where a parse stopped, as one more syntax error at the first token not read (Langium's parse result type). */
export type StoppedAt = IRecognitionException & { previousToken: IToken };

/**
 * Makes `parser` stop reading after `max` syntax errors; returns a function that tells, after a parse, where it
 * stopped (undefined when it read the whole file). The rest of the tokens is dropped, so no recovery can go on.
 */
export function capSyntaxErrors(parser: LangiumParser, max = MAX_SYNTAX_ERRORS): () => StoppedAt | undefined {
    const wrapper = (parser as unknown as { wrapper: Recognizer }).wrapper;
    const save = wrapper.SAVE_ERROR.bind(wrapper);
    let stopped: StoppedAt | undefined;
    let tokens: IToken[] | undefined;
    wrapper.SAVE_ERROR = (error: Error) => {
        if (wrapper.tokVector !== tokens) {
            tokens = wrapper.tokVector; // a new parse: Langium sets a new token vector for each
            stopped = undefined;
        }
        if (stopped) return error; // the rules still open end at the cut, each with a '}' missing: not news
        const saved = save(error);
        if (wrapper._errors.length === max) {
            stopped = {
                name: STOPPED_READING,
                message: `Too many syntax errors (${max}): the rest of the file is not read. Fix the errors above first.`,
                token: wrapper.LA(1),
                previousToken: wrapper.LA(0),
                resyncedTokens: [],
                context: { ruleStack: [], ruleOccurrenceStack: [] },
            };
            wrapper.tokVector = wrapper.tokVector.slice(0, Math.max(0, wrapper.currIdx + 1));
            wrapper.tokVectorLength = wrapper.tokVector.length;
            tokens = wrapper.tokVector;
        }
        return saved;
    };
    return () => (wrapper.tokVector === tokens ? stopped : undefined);
}
