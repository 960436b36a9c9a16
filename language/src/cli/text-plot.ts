/**
 * Plain-text renderings of latency distributions for the terminal, with the one number format of the editor and
 * the report (the contract's; re-exported for the commands).
 */
export { formatMs, formatProbability } from '@chainlab/contract';

export type Distribution = ReadonlyArray<readonly [number, number]>;

const BAR = 40;

/** A text CDF: one row per latency step between min and max, the bar is P(latency ≤ x). */
export function textCdf(distribution: Distribution, rows = 16): string[] {
    if (distribution.length === 0) return ['(empty distribution)'];
    const min = distribution[0][0];
    const max = distribution[distribution.length - 1][0];
    const xs = max === min ? [min] : Array.from({ length: rows }, (_, i) => min + ((max - min) * i) / (rows - 1));
    const lines: string[] = [];
    let index = 0;
    let cumulative = 0;
    for (const x of xs) {
        while (index < distribution.length && distribution[index][0] <= x + 1e-9)
            cumulative += distribution[index++][1];
        const filled = Math.round(Math.min(1, cumulative) * BAR);
        lines.push(
            `${axisMs(x).padStart(11)} |${'█'.repeat(filled)}${' '.repeat(BAR - filled)}| ${(cumulative * 100).toFixed(cumulative > 0.999 && cumulative < 1 ? 3 : 1).padStart(6)} %`,
        );
    }
    return lines;
}

/** A row of the text CDF: more digits than a value, so neighbouring rows do not read the same. */
function axisMs(ms: number): string {
    if (!Number.isFinite(ms)) return String(ms);
    const digits = Math.abs(ms) >= 100 ? 1 : Math.abs(ms) >= 1 ? 3 : 4;
    return `${Number(ms.toFixed(digits))} ms`;
}

/** Left-aligned columns. */
export function table(rows: ReadonlyArray<ReadonlyArray<string>>, indent = '  '): string[] {
    const widths: number[] = [];
    for (const row of rows)
        row.forEach((cell, i) => {
            widths[i] = Math.max(widths[i] ?? 0, cell.length);
        });
    return rows.map(
        row =>
            indent +
            row
                .map((cell, i) => (i === row.length - 1 ? cell : cell.padEnd(widths[i])))
                .join('  ')
                .trimEnd(),
    );
}
