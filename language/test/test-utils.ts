/** Shared helpers of the language tests: parse text with the real services and read its diagnostics. */
import { EmptyFileSystem, type LangiumDocument } from 'langium';
import { parseHelper } from 'langium/test';
import type { Diagnostic } from 'vscode-languageserver';
import { createChainServices } from '../src/dsl/chain-module.js';
import type { Model } from '../src/generated/ast.js';

export const services = createChainServices(EmptyFileSystem);
export const parse = parseHelper<Model>(services.Chain);

export async function validate(text: string): Promise<LangiumDocument<Model>> {
    return parse(text, { validation: true });
}

export function codeOf(diagnostic: Diagnostic): string | undefined {
    return (diagnostic.data as { code?: string } | undefined)?.code ?? (diagnostic.code as string | undefined);
}

/** The diagnostics with a given code, as `line:col..line:col` ranges (1-based) for compact assertions. */
export function rangesOf(document: LangiumDocument, code: string): string[] {
    return (document.diagnostics ?? [])
        .filter(d => codeOf(d) === code)
        .map(d => {
            const { start, end } = d.range;
            return `${start.line + 1}:${start.character + 1}..${end.line + 1}:${end.character + 1}`;
        });
}

/** The text a diagnostic's range covers. */
export function textAt(document: LangiumDocument, diagnostic: Diagnostic): string {
    return document.textDocument.getText(diagnostic.range);
}

export { prng } from './prng.js';
