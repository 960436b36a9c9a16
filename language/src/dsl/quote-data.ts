/**
 * Text from a measurement file, for a message. `etp histogram "/etc/shadow"` must not print a password hash:
 * a message quotes a short prefix of what looks like a measurement (digits, letters, `. , + - _` and spaces) and
 * only the length of anything else.
 */
const LOOKS_LIKE_DATA = /^[\w .,+-]*$/;
const MAX_QUOTED = 24;

/** `'12.5 x'`, `'latency_ms_of_the_first...'`, or `a cell of 42 characters that is not shown`. */
export function quoteCell(cell: string): string {
    if (!LOOKS_LIKE_DATA.test(cell))
        return `a cell of ${cell.length} characters (not shown: it does not look like data)`;
    return cell.length > MAX_QUOTED ? `'${cell.slice(0, MAX_QUOTED)}...'` : `'${cell}'`;
}

/** A header's columns for a message: at most 10 of them, each quoted as a cell. */
export function quoteColumns(columns: readonly string[]): string {
    const shown = columns.slice(0, 10).map(quoteCell).join(', ');
    return columns.length > 10 ? `${shown} and ${columns.length - 10} more` : shown;
}
