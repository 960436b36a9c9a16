/**
 * Provisional CodeLens: the declarations `chain X`, `ptts X` and `target X` found by a cheap scan of the text, with
 * the lenses the language server would put above them (the contract's table: same titles, commands and
 * arguments). Shown while the server is still starting after a window reload, replaced by its lenses when it
 * answers. The scan skips comments and strings and takes only declarations outside any block (`etp chain X` inside a
 * ptts is a reference, not a declaration). No vscode import: it is tested on its own.
 */
import { lensCommands, type LensCommand, type LensedKind } from '@chainlab/contract';

export interface ProvisionalLens {
    /** Zero-based line of the declaration's keyword, and the columns from the keyword to the end of the name. */
    line: number;
    start: number;
    end: number;
    command: LensCommand;
}

/** Comments and strings (skipped, unterminated ones to the end), braces, and a declaration's keyword and name. */
const TOKENS =
    /\/\*[\s\S]*?(?:\*\/|$)|\/\/[^\n\r]*|"(?:\\.|[^"\\\n])*"?|'(?:\\.|[^'\\\n])*'?|[{}]|\b(chain|ptts|target)[ \t]+([A-Za-z_]\w*)/g;

export function scanLenses(text: string, uri: string): ProvisionalLens[] {
    const lenses: ProvisionalLens[] = [];
    let depth = 0;
    let line = 0;
    let lineStart = 0;
    let counted = 0; // the offset up to which line breaks are counted
    for (const match of text.matchAll(TOKENS)) {
        const token = match[0];
        if (token === '{') depth++;
        else if (token === '}') depth = Math.max(0, depth - 1);
        else if (match[1] && depth === 0) {
            for (let i = counted; i < match.index; i++) {
                if (text.charCodeAt(i) === 10) {
                    line++;
                    lineStart = i + 1;
                }
            }
            counted = match.index;
            const start = match.index - lineStart;
            const end = start + token.length;
            for (const command of lensCommands(match[1] as LensedKind, uri, match[2]))
                lenses.push({ line, start, end, command });
        }
    }
    return lenses;
}
