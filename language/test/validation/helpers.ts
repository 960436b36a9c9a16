/**
 * Helpers of the validation tests: validate a model given as lines and read
 * every diagnostic as one compact string
 *
 *     error two-writers 7:30..7:33 "g.i"
 *
 * (severity, code, 1-based `line:col..line:col` range, the text it covers), so
 * that a test states exactly which diagnostics a model gets and where.
 */
import type { LangiumDocument } from 'langium';
import type { Diagnostic } from 'vscode-languageserver';
import type { Model } from '../../src/generated/ast.js';
import { codeOf, parse, textAt, validate } from '../test-utils.js';

export const SEVERITIES: Record<number, string> = { 1: 'error', 2: 'warning', 3: 'info', 4: 'hint' };

/** The model text of some lines (line 1 is the first line given). */
export function lines(...text: string[]): string {
    return text.join('\n');
}

export function rangeOf(diagnostic: Diagnostic): string {
    const { start, end } = diagnostic.range;
    return `${start.line + 1}:${start.character + 1}..${end.line + 1}:${end.character + 1}`;
}

export function describeDiagnostic(document: LangiumDocument, diagnostic: Diagnostic): string {
    return `${SEVERITIES[diagnostic.severity ?? 1]} ${codeOf(diagnostic)} ${rangeOf(diagnostic)} ${JSON.stringify(textAt(document, diagnostic))}`;
}

function byPosition(a: Diagnostic, b: Diagnostic): number {
    return (
        a.range.start.line - b.range.start.line ||
        a.range.start.character - b.range.start.character ||
        String(codeOf(a)).localeCompare(String(codeOf(b)))
    );
}

/** Every diagnostic of the document (or those with one of `codes`), in text order. */
export function issues(document: LangiumDocument, ...codes: string[]): string[] {
    return [...(document.diagnostics ?? [])]
        .filter(d => codes.length === 0 || codes.includes(codeOf(d) ?? ''))
        .sort(byPosition)
        .map(d => describeDiagnostic(document, d));
}

/** The messages of the diagnostics with a code, in text order. */
export function messages(document: LangiumDocument, code: string): string[] {
    return [...(document.diagnostics ?? [])]
        .filter(d => codeOf(d) === code)
        .sort(byPosition)
        .map(d => d.message);
}

/** Validates the lines joined as one model. */
export async function check(...text: string[]): Promise<LangiumDocument<Model>> {
    return validate(lines(...text));
}

/** Validates the lines as a file at `uri` (for measurement files next to the model). */
export async function checkAt(uri: string, ...text: string[]): Promise<LangiumDocument<Model>> {
    return parse(lines(...text), { validation: true, documentUri: uri });
}

/**
 * A small clean system most tests extend: lines 1..5.
 * `Src` is a 10 ms source, `Gain` a pointwise filter, `Sink` the display.
 */
export const PRELUDE = [
    'platform P { cores 4 }',
    'image F 64 x 64 of u8',
    'box Src { out o: F  source period 10 ms }',
    'box Gain { in i: F  out o: F  kernel gain(2) }',
    'box Sink { in i: F  kernel sink }',
] as const;

/** A clean chain over the prelude (lines 6..9). */
export const CHAIN = ['chain C on P {', '    s: Src  g: Gain  k: Sink', '    s.o -> g.i  g.o -> k.i', '}'] as const;
