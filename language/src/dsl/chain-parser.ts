/**
 * The Langium parser with a leaner CST builder (lean-cst.ts) and readable syntax messages
 * (syntax-error-messages.ts) that know which block is open.
 */
import {
    type CstNodeBuilder,
    createCompletionParser,
    createLangiumParser,
    type AstNode,
    type LangiumCompletionParser,
    type LangiumCoreServices,
    type LangiumParser,
} from 'langium';
import { LeanCstNodeBuilder } from './lean-cst.js';
import { modelTooLarge, utf8Bytes } from './model-size.js';
import { ChainParserErrorMessageProvider } from './syntax-error-messages.js';
import { capSyntaxErrors } from './syntax-error-cap.js';

export function createChainParser(services: LangiumCoreServices): LangiumParser {
    const parser = createLangiumParser(services);
    // The builder is a private field of LangiumParser, created in its constructor; parse() starts from buildRootNode.
    (parser as unknown as { nodeBuilder: CstNodeBuilder }).nodeBuilder = new LeanCstNodeBuilder();
    // Syntax messages name the block a '}' would close: the node on top of the parser's (private) stack.
    const messages = services.parser.ParserErrorMessageProvider;
    if (messages instanceof ChainParserErrorMessageProvider)
        messages.currentNode = () => (parser as unknown as { current?: AstNode }).current;
    // A model above the size limit is not parsed at all: an empty model and one error at its start.
    const stoppedAt = capSyntaxErrors(parser);
    const parse = parser.parse.bind(parser);
    parser.parse = ((input: string, options?: Parameters<LangiumParser['parse']>[1]) => {
        const tooLarge = modelTooLarge(utf8Bytes(input));
        if (!tooLarge) {
            const result = parse(input, options);
            const stopped = stoppedAt();
            if (stopped) result.parserErrors.push(stopped);
            // chevrotain keeps the last token vector until the next parse: a hundred bytes a token, the CST has them
            (parser as unknown as { wrapper: { input: unknown[] } }).wrapper.input = [];
            return result;
        }
        const empty = parse('', options);
        empty.lexerErrors.push({ offset: 0, line: 1, column: 1, length: 0, message: `Not parsed: ${tooLarge}.` });
        return empty;
    }) as LangiumParser['parse'];
    return parser;
}

/** Completion parses the text before the cursor: not for a model above the size limit (it would exhaust memory). */
export function createChainCompletionParser(services: LangiumCoreServices): LangiumCompletionParser {
    const parser = createCompletionParser(services);
    const parse = parser.parse.bind(parser);
    parser.parse = (input: string) => parse(modelTooLarge(utf8Bytes(input)) ? '' : input);
    return parser;
}
