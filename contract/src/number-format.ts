/**
 * The one number format of everything chainlab shows people: the diagrams, hovers, CodeLens, the Output channel,
 * the plots and the run report. A reader should see one number written one way wherever it appears: 3 significant
 * digits, trailing zeros dropped; `8.57·10⁻⁵` below 10⁻³ (never 0.0000857 or 1.62e-7); a duration in the unit
 * the model wrote it in (`cost 0.6 ms` reads 0.6 ms, not 600 µs), in s from 10 s on (923 s, not 923000 ms).
 * The backend's report text writes the same (backend/chainlab/number_format.py); both are held to
 * tests/number-format-vectors.
 */

/** The units a duration is shown in; `us` is how the model's source spells µs. */
export type DurationUnit = 's' | 'ms' | 'µs' | 'ns';

export interface DurationOptions {
    /**
     * The unit the source wrote the value in (`s`, `ms`, `us`, `ns` as the model spells them): used when given, so
     * a reader finds the number they wrote. A string, as the parser hands it over; another one is ignored.
     */
    unit?: string;
}

const NS_PER: Readonly<Record<DurationUnit, number>> = { s: 1e9, ms: 1e6, µs: 1e3, ns: 1 };

/** From here on a duration reads in s whatever the source unit: 923 s, not 923000 ms. */
const SECONDS_FROM_NS = 10e9;

const SUPERSCRIPT: Readonly<Record<string, string>> = {
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

/** 3 significant digits (200, not 200.000; 110, not 110.2); `a·10⁻ⁿ` below 10⁻³; '–' for no number. */
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

function isDurationUnit(unit: string | undefined): unit is DurationUnit {
    return unit !== undefined && Object.hasOwn(NS_PER, unit);
}

/** |ns| as it will be shown: 999999 ns is 1 ms, not 1000 µs, and 9999 ms is 10 s. */
function rounded(ns: number): number {
    return Number(Math.abs(ns).toPrecision(3));
}

/** The unit a duration reads best in when the source named none: s from 1 s, ms from 1 ms, µs from 1 µs. */
export function bestDurationUnit(ns: number): DurationUnit {
    const abs = rounded(ns);
    return (['s', 'ms', 'µs'] as const).find(u => abs >= NS_PER[u]) ?? 'ns';
}

/** `ns` in `unit` with the one number format: `0.6 ms`, `66.6 ms`, `923 s`. */
export function formatDurationIn(ns: number, unit: DurationUnit): string {
    return `${formatNumber(ns / NS_PER[unit])} ${unit}`;
}

/**
 * A duration given in ns: in the source's unit when given (unless that would read 10 s as 10000 ms, or as less
 * than 0.001 of the unit, where the digits would hide), else in the unit that reads best.
 */
export function formatDuration(ns: number | null | undefined, options: DurationOptions = {}): string {
    if (ns === null || ns === undefined || !Number.isFinite(ns)) return '–';
    return formatDurationIn(ns, durationUnitFor(ns, options));
}

/**
 * The unit `formatDuration` writes `ns` in: the source's unless that would read 10 s as 10000 ms or hide the
 * digits below 0.001 of it, else the one that reads best. An axis or a key passes its largest value, so that all
 * of its numbers share one unit.
 */
export function durationUnitFor(ns: number, options: DurationOptions = {}): DurationUnit {
    const abs = rounded(ns);
    if (abs >= SECONDS_FROM_NS) return 's';
    const source = options.unit === 'us' ? 'µs' : options.unit;
    return isDurationUnit(source) && (abs === 0 || abs / NS_PER[source] >= 1e-3) ? source : bestDurationUnit(ns);
}

/** A latency the backend hands over in ms (the plots' unit): `128 ms`, `0.0451 ms`, and from 10 s on in s. */
export function formatMs(value: number | null | undefined): string {
    if (value !== null && value !== undefined && rounded(value * 1e6) >= SECONDS_FROM_NS)
        return formatDuration(value * 1e6);
    return `${formatNumber(value)} ms`;
}

/** Probabilities below this are rounding noise of sums of probabilities (1 − 0.9999999999999998). */
export const PROBABILITY_FLOOR = 1e-12;

/** A probability: `0.05`, `8.57·10⁻⁵`, `0`; below 10⁻¹² (the analysis' rounding noise) `< 10⁻¹²`. */
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
