/**
 * Quantities: durations and sizes are exact decimals scaled to integer
 * nanoseconds and bytes (units.ts), never binary floats. The bad-quantity
 * diagnostic, unit tests of units.ts, and property tests over seeded random
 * inputs (no fast-check in this repository: a small PRNG instead).
 */
import { describe, expect, test } from 'vitest';
import type { Duration, Size } from '../../src/generated/ast.js';
import {
    BYTES_PER_UNIT,
    durationNs,
    formatBytes,
    formatNs,
    formatRatio,
    gcd,
    lcm,
    MAX_DECIMAL_DIGITS,
    MAX_EXACT,
    NS_PER_UNIT,
    parseDecimal,
    sizeBytes,
    sumDecimals,
} from '../../src/dsl/units.js';
import { check, issues, messages } from './helpers.js';
import { prng } from '../test-utils.js';

const duration = (value: string, unit: string) => ({ $type: 'Duration', value, unit }) as unknown as Duration;
const size = (value: string, unit: string) => ({ $type: 'Size', value, unit }) as unknown as Size;
const ns = (value: string, unit: string) => {
    const result = durationNs(duration(value, unit));
    return result.ok ? result.value : result.reason;
};
const bytes = (value: string, unit: string) => {
    const result = sizeBytes(size(value, unit));
    return result.ok ? result.value : result.reason;
};

const int = (random: () => number, below: number) => Math.floor(random() * below);
/** A random non-negative BigInt of up to `digits` decimal digits. */
const bigint = (random: () => number, digits: number) =>
    BigInt(Array.from({ length: 1 + int(random, digits) }, () => int(random, 10)).join(''));
/** n / 10^scale written as a decimal string (`123` with scale 2 is `1.23`). */
function decimalText(n: bigint, scale: number): string {
    const negative = n < 0n;
    const digits = (negative ? -n : n).toString().padStart(scale + 1, '0');
    const text =
        scale === 0 ? digits : `${digits.slice(0, digits.length - scale)}.${digits.slice(digits.length - scale)}`;
    return (negative ? '-' : '') + text;
}

describe('bad-quantity', () => {
    test('durations finer than 1 ns: error at the duration', async () => {
        const doc = await check(
            'image F 8 x 8 of u8',
            'box A { in i: F  out o: F  kernel gain(2)  cost 0.1 ns }',
            'ptts T { component A period 1.0000000001 s etp point 1 ms }',
        );
        expect(issues(doc)).toEqual([
            'error bad-quantity 2:49..2:55 "0.1 ns"',
            'error bad-quantity 3:29..3:43 "1.0000000001 s"',
        ]);
        expect(messages(doc, 'bad-quantity')).toEqual([
            "'0.1 ns' is finer than 1 ns, the finest time resolution.",
            "'1.0000000001 s' is finer than 1 ns, the finest time resolution.",
        ]);
    });

    test('sizes that are not whole bytes, and a zero size', async () => {
        const doc = await check('platform P { cores 1 cache L1 1.5 B cache L2 0.1 KiB cache L3 0 MiB }');
        expect(issues(doc)).toEqual([
            'error bad-quantity 1:31..1:36 "1.5 B"',
            'error bad-quantity 1:46..1:53 "0.1 KiB"',
            'error bad-quantity 1:63..1:68 "0 MiB"',
        ]);
        expect(messages(doc, 'bad-quantity')).toEqual([
            "'1.5 B' is not a whole number of bytes.",
            "'0.1 KiB' is not a whole number of bytes.",
            'A size must be positive.',
        ]);
    });

    test('quantities beyond what the IR carries exactly (2^53 - 1 ns or bytes)', async () => {
        const doc = await check(
            'ptts T { component A period 1e7 s etp point 1 ms }',
            'platform P { cores 1 cache L2 8388608 GiB cache L3 8 MiB }',
        );
        expect(issues(doc)).toEqual([
            'error bad-quantity 1:29..1:34 "1e7 s"',
            'error bad-quantity 2:31..2:42 "8388608 GiB"',
        ]);
        expect(messages(doc, 'bad-quantity')[0]).toBe(
            "'1e7 s' is longer than 2^53 - 1 ns (about 104 days), the longest time the IR carries exactly.",
        );
    });

    test('whole numbers above 2^53 - 1: error at the number', async () => {
        const doc = await check(
            'image F 99999999999999999 x 8 of u8',
            'platform P { cores 9007199254740992 }',
            'image G 9007199254740991 x 8 of u8',
        );
        expect(issues(doc)).toEqual([
            'error bad-quantity 1:9..1:26 "99999999999999999"',
            'error bad-quantity 2:20..2:36 "9007199254740992"',
        ]);
        expect(messages(doc, 'bad-quantity')[0]).toBe(
            'Number too large: whole numbers go up to 2^53 - 1 (9007199254740991).',
        );
    });

    test('absurd magnitudes are refused quickly instead of hanging the validator', async () => {
        const start = Date.now();
        const doc = await check(
            'ptts T { component A period 1e-2000 s etp point 1 ms }',
            'platform P { cores 1 cache L2 1e5000 B }',
        );
        expect(Date.now() - start).toBeLessThan(2000);
        expect(issues(doc)).toEqual([
            'error bad-quantity 1:29..1:38 "1e-2000 s"',
            'error bad-quantity 2:31..2:39 "1e5000 B"',
        ]);
        expect(messages(doc, 'bad-quantity')[0]).toBe(
            "'1e-2000 s' is not a duration (numbers have at most 1000 digits and exponents of at most 1000).",
        );
    });

    test('positive: 1e-3 s, 66.66 ms, 0.000001 ms, 1.5 us; 0.5 KiB, 1e3 B, 1.5 GiB', async () => {
        const doc = await check(
            'image F 8 x 8 of u8',
            'box A { in i: F  out o: F  kernel gain(2)  cost 1e-3 s }',
            'ptts T { component A period 66.66 ms offset 0.000001 ms etp uniform 1.5 us .. 2.5 us }',
            'platform P { cores 1 cache L1 0.5 KiB cache L2 1e3 B cache L3 1.5 GiB }',
        );
        expect(issues(doc)).toEqual([]);
    });
});

describe('units.ts', () => {
    test('parseDecimal is exact', () => {
        expect(parseDecimal('12')).toEqual({ numerator: 12n, scale: 0 });
        expect(parseDecimal(12)).toEqual({ numerator: 12n, scale: 0 });
        expect(parseDecimal('66.66')).toEqual({ numerator: 6666n, scale: 2 });
        expect(parseDecimal('1.50')).toEqual({ numerator: 150n, scale: 2 });
        expect(parseDecimal('1e-4')).toEqual({ numerator: 1n, scale: 4 });
        expect(parseDecimal('-2.5E3')).toEqual({ numerator: -2500n, scale: 0 });
        expect(parseDecimal('0.1')).toEqual({ numerator: 1n, scale: 1 });
        for (const bad of ['', 'abc', '1.', '.5', '1e', '1e+', '--1', '1,5', '0x10', undefined])
            expect(parseDecimal(bad)).toBeUndefined();
    });

    test('parseDecimal refuses more than MAX_DECIMAL_DIGITS digits or exponent', () => {
        expect(parseDecimal(`1e-${MAX_DECIMAL_DIGITS}`)).toEqual({ numerator: 1n, scale: MAX_DECIMAL_DIGITS });
        expect(parseDecimal(`1e-${MAX_DECIMAL_DIGITS + 1}`)).toBeUndefined();
        expect(parseDecimal(`1e${MAX_DECIMAL_DIGITS + 1}`)).toBeUndefined();
        expect(parseDecimal('1'.repeat(MAX_DECIMAL_DIGITS + 1))).toBeUndefined();
        expect(parseDecimal('1e-999999999')).toBeUndefined();
    });

    test('durations in integer nanoseconds', () => {
        expect(ns('66.66', 'ms')).toBe(66_660_000n);
        expect(ns('66.6', 'ms')).toBe(66_600_000n);
        expect(ns('16.666667', 'ms')).toBe(16_666_667n);
        expect(ns('1e-3', 's')).toBe(1_000_000n);
        expect(ns('1e-3', 's')).toBe(ns('1', 'ms'));
        expect(ns('1e-9', 's')).toBe(1n);
        expect(ns('1.5', 'us')).toBe(1_500n);
        expect(ns('0', 'ns')).toBe(0n);
        expect(ns('0.1', 'ns')).toBe("'0.1 ns' is finer than 1 ns, the finest time resolution");
        expect(ns('1e-10', 's')).toBe("'1e-10 s' is finer than 1 ns, the finest time resolution");
        expect(ns('0.0001', 'us')).toBe("'0.0001 us' is finer than 1 ns, the finest time resolution");
        expect(ns('1', 'min')).toBe("'1 min' is not a duration");
        expect(durationNs(undefined)).toEqual({ ok: false, reason: 'missing duration' });
        expect(Object.keys(NS_PER_UNIT)).toEqual(['s', 'ms', 'us', 'ns']);
    });

    test('sizes in integer bytes', () => {
        expect(bytes('8', 'MiB')).toBe(8_388_608n);
        expect(bytes('0.5', 'KiB')).toBe(512n);
        expect(bytes('1.5', 'GiB')).toBe(1_610_612_736n);
        expect(bytes('1e3', 'B')).toBe(1000n);
        expect(bytes('256', 'KiB')).toBe(262_144n);
        expect(bytes('1.5', 'B')).toBe("'1.5 B' is not a whole number of bytes");
        expect(bytes('0.1', 'KiB')).toBe("'0.1 KiB' is not a whole number of bytes");
        expect(bytes('1', 'KB')).toBe("'1 KB' is not a size");
        expect(Object.keys(BYTES_PER_UNIT)).toEqual(['B', 'KiB', 'MiB', 'GiB']);
    });

    test('formatting', () => {
        expect(formatNs(66_600_000n)).toBe('66.6 ms');
        expect(formatNs(66_660_000n)).toBe('66.66 ms');
        expect(formatNs(1n)).toBe('1 ns');
        expect(formatNs(0n)).toBe('0 ns');
        expect(formatNs(1_500n)).toBe('1.5 us');
        expect(formatNs(2_000_000_000n)).toBe('2 s');
        expect(formatNs(8_976_000_000n)).toBe('8.976 s');
        expect(formatNs(-5_000_000n)).toBe('-5 ms');
        expect(formatNs(16_666_667)).toBe('16.666667 ms');
        expect(formatBytes(2_097_152n)).toBe('2 MiB (2097152 B)');
        expect(formatBytes(512n)).toBe('512 B');
        expect(formatRatio(1n, 3n)).toBe('0.333333333');
        expect(formatRatio(-1n, 4n)).toBe('-0.25');
        expect(formatRatio(10n, 1n)).toBe('10');
    });

    test('gcd, lcm, sums', () => {
        expect(gcd(12n, 18n)).toBe(6n);
        expect(gcd(-12n, 18n)).toBe(6n);
        expect(gcd(0n, 5n)).toBe(5n);
        expect(lcm(66_000_000n, 16_000_000n)).toBe(528_000_000n);
        expect(lcm(0n, 5n)).toBe(0n);
        // 0.1 + 0.2 + 0.7 is exactly 1 (10 / 10^1), unlike in binary floats.
        expect(0.1 + 0.2).not.toBe(0.3);
        expect(sumDecimals(['0.1', '0.2'])).toEqual({ numerator: 3n, scale: 1 });
        expect(sumDecimals(['0.1', '0.2', '0.7'])).toEqual({ numerator: 10n, scale: 1 });
        expect(sumDecimals(['0.3333333333', '0.3333333333', '0.3333333333', '0.0000000001'])).toEqual({
            numerator: 10_000_000_000n,
            scale: 10,
        });
        expect(sumDecimals([1, '1e-1'])).toEqual({ numerator: 11n, scale: 1 });
        expect(sumDecimals(['1', 'x'])).toBeUndefined();
    });
});

describe('units.ts properties (seeded random inputs)', () => {
    const RUNS = 500;

    test('a decimal in any unit is exact in ns exactly when n x unit / 10^scale is whole', () => {
        const random = prng(1);
        for (let run = 0; run < RUNS; run++) {
            const n = bigint(random, 15);
            const scale = int(random, 12);
            const unit = ['s', 'ms', 'us', 'ns'][int(random, 4)];
            const text = decimalText(n, scale);
            const factor = 10n ** BigInt(3 * ['ns', 'us', 'ms', 's'].indexOf(unit));
            const divisor = 10n ** BigInt(scale);
            const exact = (n * factor) % divisor === 0n ? (n * factor) / divisor : undefined;
            const expected = exact !== undefined && exact <= MAX_EXACT ? exact : 'refused';
            const got = durationNs(duration(text, unit));
            expect(got.ok ? got.value : 'refused', `${text} ${unit}`).toBe(expected);
        }
    });

    test('moving the decimal point by three digits and the unit by one step keeps the value', () => {
        const random = prng(2);
        for (let run = 0; run < RUNS; run++) {
            const n = bigint(random, 12);
            const scale = 3 + int(random, 6);
            const [big, small] = [
                ['s', 'ms'],
                ['ms', 'us'],
                ['us', 'ns'],
            ][int(random, 3)];
            const a = ns(decimalText(n, scale), big);
            const b = ns(decimalText(n, scale - 3), small);
            // Equal values, or both refused (the reasons quote the text as written).
            expect(typeof a === 'bigint' ? a : 'refused', `${decimalText(n, scale)} ${big}`).toBe(
                typeof b === 'bigint' ? b : 'refused',
            );
        }
    });

    test('formatNs round-trips through durationNs', () => {
        const random = prng(3);
        for (let run = 0; run < RUNS; run++) {
            const value = bigint(random, 18) % (MAX_EXACT + 1n);
            const [number, unit] = formatNs(value).split(' ');
            expect(ns(number, unit), formatNs(value)).toBe(value);
        }
    });

    test('sizes: n / 2^k KiB is whole bytes exactly when k <= 10', () => {
        const random = prng(4);
        for (let run = 0; run < RUNS; run++) {
            const k = int(random, 14);
            const n = 2n * bigint(random, 6) + 1n;
            // n / 2^k written exactly as a decimal: n x 5^k / 10^k.
            const text = decimalText(n * 5n ** BigInt(k), k);
            const got = sizeBytes(size(text, 'KiB'));
            expect(got.ok, `${text} KiB`).toBe(k <= 10);
            if (got.ok) expect(got.value).toBe((n * 1024n) / 2n ** BigInt(k));
        }
    });

    test('sumDecimals is exact: a list and its negated sum add up to 0, in any order', () => {
        const random = prng(5);
        for (let run = 0; run < RUNS; run++) {
            const values = Array.from({ length: 1 + int(random, 8) }, () =>
                decimalText((random() < 0.3 ? -1n : 1n) * bigint(random, 14), int(random, 14)),
            );
            const sum = sumDecimals(values)!;
            const negated = decimalText(-sum.numerator, sum.scale);
            expect(sumDecimals([...values, negated])!.numerator, values.join(' + ')).toBe(0n);
            const shuffled = [...values].sort(() => random() - 0.5);
            const again = sumDecimals(shuffled)!;
            expect(again.numerator * 10n ** BigInt(sum.scale)).toBe(sum.numerator * 10n ** BigInt(again.scale));
        }
    });

    test('lcm x gcd = a x b, and the lcm is a multiple of both', () => {
        const random = prng(6);
        for (let run = 0; run < RUNS; run++) {
            const a = bigint(random, 12) + 1n;
            const b = bigint(random, 12) + 1n;
            expect(lcm(a, b) * gcd(a, b)).toBe(a * b);
            expect(lcm(a, b) % a).toBe(0n);
            expect(lcm(a, b) % b).toBe(0n);
        }
    });

    test('pmfs: probabilities summing exactly to 1 validate; a sum off by more than 1e-9 is an error, by at most 1e-9 is not', async () => {
        const random = prng(7);
        for (let run = 0; run < 40; run++) {
            const scale = 10 + int(random, 6);
            const entries = 1 + int(random, 6);
            // Random positive parts of 10^scale.
            const total = 10n ** BigInt(scale);
            const cuts = Array.from({ length: entries - 1 }, () => bigint(random, scale) % total).sort((x, y) =>
                x < y ? -1 : x > y ? 1 : 0,
            );
            const parts = [...cuts, total].map((cut, i) => cut - (i === 0 ? 0n : cuts[i - 1]));
            if (parts.some(p => p <= 0n)) continue;
            // Off by d / 10^scale: within the tolerance iff d x 10^9 <= 10^scale.
            const d = [0n, 1n, 10n ** BigInt(scale - 9), 2n * 10n ** BigInt(scale - 9), 10n ** BigInt(scale - 9) + 1n][
                int(random, 5)
            ];
            const sign = random() < 0.5 ? -1n : 1n;
            const last = parts[parts.length - 1] + sign * d;
            if (last <= 0n) continue;
            const probabilities = [...parts.slice(0, -1), last].map(p => decimalText(p, scale));
            const pmf = probabilities.map((p, i) => `${i + 1} ms: ${p}`).join(', ');
            const doc = await check(`ptts T { component A period 100 ms etp pmf { ${pmf} } }`);
            const expected = [
                ...(d * 1_000_000_000n > total ? ['pmf-sum'] : []),
                ...(last > total ? ['pmf-probability'] : []),
            ];
            expect(
                issues(doc).map(i => i.split(' ')[1]),
                pmf,
            ).toEqual(expected);
        }
    });
});
