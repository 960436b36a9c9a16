/**
 * The one number format of plots, tables and verdicts: 3 significant digits, scientific below 10⁻³ written as
 * a measurement engineer reads it (8.57·10⁻⁵, not 0.0000857 or 8.57e-5). Pure, shared by the extension and
 * the plot webview.
 */

const SUPERSCRIPT: Record<string, string> = {
    '-': '⁻',
    '0': '⁰',
    '1': '¹',
    '2': '²',
    '3': '³',
    '4': '⁴',
    '5': '⁵',
    '6': '⁶',
    '7': '⁷',
    '8': '⁸',
    '9': '⁹',
};

/** 10 to an integer power, with a superscript exponent: 10⁻⁶. */
export function powerOfTen(exponent: number): string {
    return `10${[...String(exponent)].map(c => SUPERSCRIPT[c]).join('')}`;
}

/** 3 significant digits (trailing zeros dropped: 200, not 200.000); scientific below 10⁻³; '–' for no number. */
export function formatNumber(value: number | null | undefined): string {
    if (value === null || value === undefined || !Number.isFinite(value)) return '–';
    if (value === 0) return '0';
    const sign = value < 0 ? '-' : '';
    const magnitude = Math.abs(value);
    if (magnitude >= 1e-3) {
        const rounded = Number(magnitude.toPrecision(3));
        // toPrecision writes 1.23e+5 for big numbers: Number() brings back the plain digits (123000)
        return sign + (rounded >= 1e21 ? rounded.toExponential() : String(rounded));
    }
    const [mantissa, exponent] = magnitude.toExponential(2).split('e');
    const digits = String(Number(mantissa)); // 8.60 → 8.6, 1.00 → 1
    return `${sign}${digits === '1' ? '' : `${digits}·`}${powerOfTen(Number(exponent))}`;
}

/** A latency: `128 ms`, `0.0451 ms`. */
export function formatMs(value: number | null | undefined): string {
    return `${formatNumber(value)} ms`;
}

/** Probabilities below this are rounding noise of sums of probabilities (1 − 0.9999999999999998). */
export const PROBABILITY_FLOOR = 1e-12;

/** A probability; below 10⁻¹² (the analysis' rounding noise) it reads `< 10⁻¹²`. */
export function formatProbability(value: number | null | undefined): string {
    if (value !== null && value !== undefined && value > 0 && value < PROBABILITY_FLOOR)
        return `< ${powerOfTen(Math.log10(PROBABILITY_FLOOR))}`;
    return formatNumber(value);
}

/**
 * A probability level in percent as the model writes it (99.99 %, p99.9): a level names a requirement, and 3
 * significant digits would turn 99.99 into 100.
 */
export function formatLevel(percent: number): string {
    return Number.isFinite(percent) ? String(Number(percent.toPrecision(10))) : '–';
}

/** A share in percent, 3 significant digits: `20 %`, `0.5 %`. */
export function formatPercent(fraction: number): string {
    return `${formatNumber(fraction * 100)} %`;
}

/** A count (latency trees, iterations): every digit, grouped by thousands — a count is not a measurement. */
export function formatCount(value: number): string {
    return Math.round(value).toLocaleString('en-US');
}
