import { test } from 'vitest';
import { services } from '../test-utils.js';
import { parseDocument } from 'langium/test';
import { SKETCH, SMALL } from './lsp-fixtures.js';

test('scan', async () => {
  const lsp = services.Chain.lsp;
  const failures = new Map<string, string>();
  const texts: string[] = [];
  for (const base of [SKETCH, SMALL]) {
    for (let i = 0; i < base.length; i += 3) texts.push(base.slice(0, i));
    for (let i = 0; i < base.length; i += 11) texts.push(base.slice(0, i) + base.slice(i + 7));
  }
  const started = Date.now();
  for (const text of texts) {
    const doc = await parseDocument(services.Chain, text, { validation: true });
    const id = { uri: doc.uri.toString() };
    const step = Math.max(1, Math.floor(text.length / 15));
    const run = async (name: string, f: () => unknown) => { try { await f(); } catch (e) { const k = name + ': ' + String((e as Error)?.message).slice(0, 120); if (!failures.has(k)) failures.set(k, JSON.stringify(text.slice(-80))); } };
    await run('symbols', () => lsp.DocumentSymbolProvider!.getSymbols(doc, { textDocument: id }));
    await run('folding', () => lsp.FoldingRangeProvider!.getFoldingRanges(doc, { textDocument: id }));
    await run('format', () => lsp.Formatter!.formatDocument(doc, { textDocument: id, options: { tabSize: 4, insertSpaces: true } }));
    for (let o = 0; o <= text.length; o += step) {
      const position = doc.textDocument.positionAt(o);
      await run('hover', () => lsp.HoverProvider!.getHoverContent(doc, { textDocument: id, position }));
      await run('completion', () => lsp.CompletionProvider!.getCompletion(doc, { textDocument: id, position }));
      await run('definition', () => lsp.DefinitionProvider!.getDefinition(doc, { textDocument: id, position }));
      await run('references', () => lsp.ReferencesProvider!.findReferences(doc, { textDocument: id, position, context: { includeDeclaration: true } }));
      await run('prepareRename', () => lsp.RenameProvider!.prepareRename(doc, { textDocument: id, position }));
      await run('codeActions', () => lsp.CodeActionProvider!.getCodeActions(doc, { textDocument: id, range: { start: position, end: position }, context: { diagnostics: doc.diagnostics ?? [] } }));
    }
    await services.shared.workspace.DocumentBuilder.update([], [doc.uri]);
  }
  console.log(texts.length, 'texts', Date.now() - started, 'ms');
  for (const [k, v] of failures) console.log(k, '\n   ', v);
}, 120000);
