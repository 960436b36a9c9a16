/**
 * Lines the tools write into a chain follow the alignment of the lines around them. Engineers align their
 * members in columns (`src:    Source`, `conv.o     -> dup.i`); a line inserted or rewritten with single
 * spaces would break the column the reader scans. The column is taken from the neighbours only where they
 * agree on it and at least one of them is padded for it (a file written with single spaces stays so).
 */

/** A member line split where its column starts: `name:` before the box, `from` before the arrow. */
const SPLITS = {
    instance: /^([ \t]*)([A-Za-z_]\w*:)([ \t]+)(\S.*)$/,
    connection: /^([ \t]*)(\S+)([ \t]+)(->.*)$/,
} as const;

export type MemberKind = keyof typeof SPLITS;

/** The column the neighbours align `kind`'s second part at, if they agree and one of them is padded. */
export function alignedColumn(kind: MemberKind, neighbours: readonly string[]): number | undefined {
    const columns = new Set<number>();
    let padded = false;
    for (const line of neighbours) {
        const parts = SPLITS[kind].exec(line);
        if (!parts) continue;
        const [, indent, head, gap] = parts;
        columns.add(indent.length + head.length + gap.length);
        padded ||= gap.length > 1;
    }
    return columns.size === 1 && padded ? [...columns][0] : undefined;
}

/**
 * `line` (a member of `kind`, written with single spaces and its indent) with its second part moved to the
 * column its neighbours use; unchanged where they use none or its first part is too long for it.
 */
export function alignLike(kind: MemberKind, line: string, neighbours: readonly string[]): string {
    const column = alignedColumn(kind, neighbours);
    const parts = SPLITS[kind].exec(line);
    if (column === undefined || !parts) return line;
    const [, indent, head, , rest] = parts;
    const width = indent.length + head.length;
    return `${indent}${head}${' '.repeat(Math.max(1, column - width))}${rest}`;
}

/** The kind of member `line` is, if any. */
function kindOf(line: string): MemberKind | undefined {
    return (Object.keys(SPLITS) as MemberKind[]).find(kind => SPLITS[kind].test(line));
}

interface LineEdit {
    range: { start: { line: number; character: number }; end: { line: number; character: number } };
    newText: string;
}

/**
 * Edits within single lines (a rename's) with each aligned member line they touch rewritten whole, its column
 * kept: renaming `gain1` to `blur` in `gain1:  Gain` keeps `Gain` where the other instances' types are.
 * `lineAt` gives the document's line before the edits.
 */
export function keepAlignment<E extends LineEdit>(
    edits: readonly E[],
    lineAt: (line: number) => string | undefined,
): E[] {
    const byLine = new Map<number, E[]>();
    for (const edit of edits) {
        const { start, end } = edit.range;
        if (start.line !== end.line || edit.newText.includes('\n')) return [...edits];
        byLine.set(start.line, [...(byLine.get(start.line) ?? []), edit]);
    }
    const result: E[] = [];
    for (const [line, onLine] of byLine) {
        const before = lineAt(line);
        const kind = before === undefined ? undefined : kindOf(before);
        const nearby = [line - 2, line - 1, line + 1, line + 2].map(lineAt).filter(l => l !== undefined);
        const column = kind && alignedColumn(kind, [before!, ...nearby.filter(l => kindOf(l) === kind)]);
        if (!kind || column === undefined) {
            result.push(...onLine);
            continue;
        }
        let after = before!;
        for (const e of [...onLine].sort((a, b) => b.range.start.character - a.range.start.character))
            after = after.slice(0, e.range.start.character) + e.newText + after.slice(e.range.end.character);
        const realigned = alignLike(kind, after, [before!, ...nearby.filter(l => kindOf(l) === kind)]);
        const range = { start: { line, character: 0 }, end: { line, character: before!.length } };
        result.push({ ...onLine[0], range, newText: realigned });
    }
    return result;
}
