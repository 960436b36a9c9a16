/**
 * The edit that writes a new value over a duration of the source (an offset or a period applied from a sweep or a
 * nearby-periods proposal) the way the file writes it: in its unit where that reads plainly (`8000 us` stays in
 * µs), and, in a line laid out in columns, with the duration's end column kept, so the settings after it stay
 * aligned with the lines around it.
 */
import type { LangiumDocument } from 'langium';
import type { TextEdit } from 'vscode-languageserver';
import type { Duration } from '../generated/ast.js';
import { formatNs, formatRatio, NS_PER_UNIT } from '../dsl/units.js';

/** `ns` in `unit` where it takes at most 3 decimals (`0.5 ms`, `1500 us`); otherwise in the unit that reads best. */
export function durationText(ns: number | bigint, unit: string | undefined): string {
    const factor = unit === undefined ? undefined : NS_PER_UNIT[unit];
    if (factor !== undefined) {
        const value = formatRatio(BigInt(ns), factor);
        if ((value.split('.')[1]?.length ?? 0) <= 3) return `${value} ${unit}`;
    }
    return formatNs(ns);
}

/** The text between a duration's number and its unit as written (`30ms`, `30 ms`): a space unless it was none. */
function separator(duration: Duration, written: string): string {
    const between = /([ \t]*)$/.exec(written.slice(0, written.length - duration.unit.length))![1];
    return between.length > 0 || /\d$/.test(written.slice(0, written.length - duration.unit.length)) ? between : ' ';
}

/**
 * The edit that makes `duration` read `ns`, or undefined where it already does. In a line with a gap of two or more
 * spaces between words (laid out in columns), a shorter value takes spaces on its left and a longer one gives up
 * spaces there (one always stays): its end column, and so every column after it, stays where it was.
 */
export function durationEdit(document: LangiumDocument, duration: Duration, ns: number | bigint): TextEdit | undefined {
    const cst = duration.$cstNode;
    if (!cst) return undefined;
    const written = cst.text;
    const number = durationText(ns, duration.unit);
    const newText = number.replace(' ', separator(duration, written));
    if (newText === written) return undefined;
    const { start, end } = cst.range;
    const line = document.textDocument.getText({
        start: { line: start.line, character: 0 },
        end: { line: start.line + 1, character: 0 },
    });
    const before = line.slice(0, start.character);
    const gap = /( *)$/.exec(before)![1].length;
    const columnar = /\S {2,}\S/.test(line);
    const grow = newText.length - written.length;
    if (!columnar || grow === 0 || gap === 0 || before.trim() === '' || start.line !== end.line)
        return { range: cst.range, newText };
    const spaces = Math.max(1, gap - grow);
    if (spaces === gap) return { range: cst.range, newText }; // no spaces to give: the line grows
    return {
        range: { start: { line: start.line, character: start.character - gap }, end },
        newText: ' '.repeat(spaces) + newText,
    };
}
