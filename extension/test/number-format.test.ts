/** The one number format of plots and verdicts: 3 significant digits, scientific below 10⁻³. */
import { describe, expect, test } from 'vitest';
import {
    formatLevel,
    formatMs,
    formatNumber,
    formatPercent,
    formatProbability,
    powerOfTen,
} from '../src/number-format';

describe('formatNumber', () => {
    test.each([
        [200, '200'],
        [200.0001, '200'],
        [197.4, '197'],
        [128, '128'],
        [110.2, '110'],
        [12.34, '12.3'],
        [0.0451, '0.0451'],
        [0.001, '0.001'],
        [1, '1'],
        [0, '0'],
        [21800.4, '21800'],
        [123456, '123000'],
        [-32.04, '-32'],
    ])('%s → %s', (value, text) => expect(formatNumber(value)).toBe(text));

    test.each([
        [0.0000857, '8.57·10⁻⁵'],
        [8.6e-5, '8.6·10⁻⁵'],
        [1e-4, '10⁻⁴'],
        [1.6158875759257146e-7, '1.62·10⁻⁷'],
        [0.000999, '9.99·10⁻⁴'],
        [2.5e-12, '2.5·10⁻¹²'],
    ])('below 10⁻³ it is scientific: %s → %s', (value, text) => expect(formatNumber(value)).toBe(text));

    test('no number reads as a dash, never NaN', () => {
        for (const v of [NaN, Infinity, undefined, null]) expect(formatNumber(v)).toBe('–');
    });

    test('units and probabilities use the same format', () => {
        expect(formatMs(31.96)).toBe('32 ms');
        expect(formatMs(0.0451)).toBe('0.0451 ms');
        expect(formatProbability(1e-4)).toBe('10⁻⁴');
        expect(formatProbability(2.220446049250313e-16)).toBe('< 10⁻¹²'); // 1 − 0.9999999999999998
        expect(formatProbability(0)).toBe('0');
        expect(formatPercent(0.2)).toBe('20 %');
        expect(formatPercent(0.0666666)).toBe('6.67 %');
        expect(powerOfTen(-6)).toBe('10⁻⁶');
        expect(powerOfTen(12)).toBe('10¹²');
    });

    test('a requirement level stays as written (3 digits would make 99.99 % into 100 %)', () => {
        expect(formatLevel(99.99)).toBe('99.99');
        expect(formatLevel(0.9999 * 100)).toBe('99.99');
        expect(formatLevel(99.9)).toBe('99.9');
        expect(formatLevel(50)).toBe('50');
    });
});
