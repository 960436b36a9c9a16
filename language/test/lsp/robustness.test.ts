/**
 * Every language feature on documents being typed (prefixes of the sketch and
 * of a small chain, and versions with a piece cut out): nothing may throw, and
 * formatting a document that parses must keep its tokens, parse again and be
 * idempotent. A light version of the fuzz suite, for the LSP features only.
 */
import { describe, expect, test } from 'vitest';
import { parseDocument } from 'langium/test';
import { TextDocument } from 'vscode-languageserver-textdocument';
import type { LangiumDocument } from 'langium';
import { services } from '../test-utils.js';
import { SKETCH, SMALL } from './lsp-fixtures.js';

const lsp = services.Chain.lsp;

function variants(): string[] {
    const texts: string[] = [];
    for (const base of [SKETCH, SMALL]) {
        for (let i = 0; i < base.length; i += 61) texts.push(base.slice(0, i));
        for (let i = 5; i < base.length; i += 97) texts.push(base.slice(0, i) + base.slice(i + 9));
    }
    return texts;
}

async function format(document: LangiumDocument): Promise<string> {
    const edits = await lsp.Formatter!.formatDocument(document, {
        textDocument: { uri: document.uri.toString() },
        options: { tabSize: 4, insertSpaces: true },
    });
    return TextDocument.applyEdits(document.textDocument, edits);
}

function tokens(document: LangiumDocument): string[] {
    return services.Chain.parser.Lexer.tokenize(document.textDocument.getText()).tokens.map(t => t.image);
}

describe('robustness of the language features', () => {
    test('no feature throws on incomplete documents', async () => {
        for (const text of variants()) {
            const document = await parseDocument(services.Chain, text, { validation: true });
            const textDocument = { uri: document.uri.toString() };
            await lsp.DocumentSymbolProvider!.getSymbols(document, { textDocument });
            await lsp.FoldingRangeProvider!.getFoldingRanges(document, { textDocument });
            await format(document);
            const step = Math.max(1, Math.floor(text.length / 6));
            for (let offset = 0; offset <= text.length; offset += step) {
                const position = document.textDocument.positionAt(offset);
                await lsp.HoverProvider!.getHoverContent(document, { textDocument, position });
                await lsp.CompletionProvider!.getCompletion(document, { textDocument, position });
                await lsp.DefinitionProvider!.getDefinition(document, { textDocument, position });
                await lsp.ReferencesProvider!.findReferences(document, {
                    textDocument,
                    position,
                    context: { includeDeclaration: true },
                });
                await lsp.RenameProvider!.prepareRename(document, { textDocument, position });
            }
            await services.shared.workspace.DocumentBuilder.update([], [document.uri]);
        }
    });

    test('formatting keeps the tokens, parses again and is idempotent', async () => {
        // Whole elements of the sketch, and the small chain with its whitespace rearranged.
        const lines = SKETCH.split('\n');
        const texts = lines.map((_, i) => lines.slice(0, i + 1).join('\n'));
        const spaced = [' ', '\n', '\n\n\n', '\t', ' \n  \n '];
        texts.push(...spaced.map(ws => SMALL.replace(/\s+/g, ws)));
        texts.push(SMALL.replace(/\s+/g, (_, offset: number) => [' ', '\n', '   ', '\n\t\t'][offset % 4]));
        let formatted = 0;
        for (const text of texts) {
            const document = await parseDocument(services.Chain, text);
            if (document.parseResult.lexerErrors.length || document.parseResult.parserErrors.length) continue;
            const once = await format(document);
            const reparsed = await parseDocument(services.Chain, once);
            expect(reparsed.parseResult.parserErrors, once).toEqual([]);
            expect(tokens(reparsed), once).toEqual(tokens(document));
            expect(await format(reparsed), once).toBe(once);
            formatted++;
        }
        expect(formatted).toBeGreaterThanOrEqual(19);
    });
});
