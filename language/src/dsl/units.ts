/**
 * Exact decimal arithmetic for quantities written in the model.
 * Periods such as 66.66 ms must never pass through binary floats: they are
 * scaled to integer nanoseconds (or bytes) with BigInt and checked for exactness.
 */
import type { Duration, Size } from '../generated/ast.js';

export const NS_PER_UNIT: Readonly<Record<string, bigint>> = {
    s: 1_000_000_000n,
    ms: 1_000_000n,
    us: 1_000n,
    ns: 1n,
};

export const BYTES_PER_UNIT: Readonly<Record<string, bigint>> = {
    B: 1n,
    KiB: 1024n,
    MiB: 1024n * 1024n,
    GiB: 1024n * 1024n * 1024n,
};

/** A decimal as numerator / 10^scale, exactly. */
export interface ExactDecimal {
    readonly numerator: bigint;
    readonly scale: number;
}

/** Longest mantissa and largest exponent parseDecimal accepts. */
export const MAX_DECIMAL_DIGITS = 1000;

/** Parses `12`, `66.66`, `1e-4`, `-2.5E3` exactly; undefined for anything else. */
export function parseDecimal(text: string | number | undefined): ExactDecimal | undefined {
    if (text === undefined) return undefined;
    const match = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(String(text).trim());
    if (!match) return undefined;
    const [, sign, whole, frac = '', exp = '0'] = match;
    // Refuse absurd magnitudes (`1e-999999999 s`): exact BigInt scaling would take seconds or run out of memory.
    if (whole.length + frac.length > MAX_DECIMAL_DIGITS || Math.abs(Number(exp)) > MAX_DECIMAL_DIGITS) return undefined;
    let numerator = BigInt(whole + frac);
    let scale = frac.length - Number(exp);
    if (scale < 0) {
        numerator *= 10n ** BigInt(-scale);
        scale = 0;
    }
    return { numerator: sign ? -numerator : numerator, scale };
}

/** value × factor as an integer, or undefined if the product is not integral. */
export function scaleExact(value: ExactDecimal, factor: bigint): bigint | undefined {
    const product = value.numerator * factor;
    const divisor = 10n ** BigInt(value.scale);
    return product % divisor === 0n ? product / divisor : undefined;
}

/** Largest integer a JSON number (the IR) holds exactly: quantities above it are refused, not rounded. */
export const MAX_EXACT = BigInt(Number.MAX_SAFE_INTEGER);

export type Exact<T> = { ok: true; value: T } | { ok: false; reason: string };

/** Why a well-formed number was refused: its magnitude (see MAX_DECIMAL_DIGITS). */
function tooLong(text: string | number | undefined): string {
    return /^-?\d+(\.\d+)?([eE][+-]?\d+)?$/.test(String(text ?? '').trim())
        ? ` (numbers have at most ${MAX_DECIMAL_DIGITS} digits and exponents of at most ${MAX_DECIMAL_DIGITS})`
        : '';
}

/** A Duration in integer nanoseconds. */
export function durationNs(duration: Duration | undefined): Exact<bigint> {
    if (!duration) return { ok: false, reason: 'missing duration' };
    const value = parseDecimal(duration.value);
    const factor = NS_PER_UNIT[duration.unit];
    if (!value || factor === undefined)
        return {
            ok: false,
            reason: `'${duration.value} ${duration.unit}' is not a duration${factor === undefined ? '' : tooLong(duration.value)}`,
        };
    const ns = scaleExact(value, factor);
    if (ns === undefined) {
        return {
            ok: false,
            reason: `'${duration.value} ${duration.unit}' is finer than 1 ns, the finest time resolution`,
        };
    }
    if (ns > MAX_EXACT)
        return {
            ok: false,
            reason: `'${duration.value} ${duration.unit}' is longer than 2^53 - 1 ns (about 104 days), the longest time the IR carries exactly`,
        };
    return { ok: true, value: ns };
}

/** A Size in integer bytes. */
export function sizeBytes(size: Size | undefined): Exact<bigint> {
    if (!size) return { ok: false, reason: 'missing size' };
    const value = parseDecimal(size.value);
    const factor = BYTES_PER_UNIT[size.unit];
    if (!value || factor === undefined)
        return {
            ok: false,
            reason: `'${size.value} ${size.unit}' is not a size${factor === undefined ? '' : tooLong(size.value)}`,
        };
    const bytes = scaleExact(value, factor);
    if (bytes === undefined)
        return { ok: false, reason: `'${size.value} ${size.unit}' is not a whole number of bytes` };
    if (bytes > MAX_EXACT)
        return {
            ok: false,
            reason: `'${size.value} ${size.unit}' is larger than 2^53 - 1 bytes (8 PiB), the largest size the IR carries exactly`,
        };
    return { ok: true, value: bytes };
}

/** Nanoseconds printed in the most readable unit without losing digits: 66600000 → "66.6 ms". */
export function formatNs(ns: bigint | number): string {
    const value = BigInt(ns);
    const abs = value < 0n ? -value : value;
    for (const [unit, factor] of [
        ['s', 1_000_000_000n],
        ['ms', 1_000_000n],
        ['us', 1_000n],
    ] as const) {
        if (abs >= factor) return `${formatRatio(value, factor)} ${unit}`;
    }
    return `${value} ns`;
}

/** Nanoseconds for people to read (hovers, messages): formatNs with µs, which the language writes `us`. */
export function readableNs(ns: bigint | number): string {
    return formatNs(ns).replace(/ us$/, ' µs');
}

/** Bytes printed with a binary unit: 2097152 → "2 MiB (2097152 B)". */
export function formatBytes(bytes: bigint | number): string {
    const value = BigInt(bytes);
    for (const [unit, factor] of [
        ['GiB', 1n << 30n],
        ['MiB', 1n << 20n],
        ['KiB', 1n << 10n],
    ] as const) {
        if (value >= factor) return `${formatRatio(value, factor, 3)} ${unit} (${value} B)`;
    }
    return `${value} B`;
}

/** numerator/denominator as a decimal string, exact when it terminates within `maxDigits`. */
export function formatRatio(numerator: bigint, denominator: bigint, maxDigits = 9): string {
    const negative = numerator < 0n !== denominator < 0n && numerator !== 0n;
    let n = numerator < 0n ? -numerator : numerator;
    const d = denominator < 0n ? -denominator : denominator;
    const whole = n / d;
    n %= d;
    let digits = '';
    while (n !== 0n && digits.length < maxDigits) {
        n *= 10n;
        digits += String(n / d);
        n %= d;
    }
    return `${negative ? '-' : ''}${whole}${digits ? '.' + digits : ''}`;
}

export function gcd(a: bigint, b: bigint): bigint {
    a = a < 0n ? -a : a;
    b = b < 0n ? -b : b;
    while (b !== 0n) [a, b] = [b, a % b];
    return a;
}

export function lcm(a: bigint, b: bigint): bigint {
    return a === 0n || b === 0n ? 0n : (a / gcd(a, b)) * b;
}

/** Sum of decimal strings, exact. */
export function sumDecimals(values: ReadonlyArray<string | number>): ExactDecimal | undefined {
    const parsed = values.map(v => parseDecimal(v));
    if (parsed.some(p => p === undefined)) return undefined;
    const scale = parsed.reduce((most, p) => Math.max(most, p!.scale), 0); // a spread overflows the stack at 10⁵ entries
    const numerator = parsed.reduce((acc, p) => acc + p!.numerator * 10n ** BigInt(scale - p!.scale), 0n);
    return { numerator, scale };
}

export function decimalToNumber(value: ExactDecimal): number {
    return Number(value.numerator) / 10 ** value.scale;
}
