/**
 * The one writer of `pmf { … }` text: weights per time become probabilities that are exact decimals
 * summing to exactly 1 (the pmf-sum check accepts them without tolerance). Used by the normalise quick
 * fix and by the ETP the language server writes from a run's measurement.
 */
import { formatRatio } from './units.js';

/** Digits beyond which a probability is not refined (a weight that small is not worth a point). */
const MAX_DIGITS = 30;

/**
 * weights[i] / Σ weights rounded half up to `digits` decimals (more where a positive weight would round
 * to 0); the rounding remainder goes to the first largest, so the decimals sum to exactly 1.
 */
export function exactProbabilities(weights: readonly bigint[], digits = 6): string[] {
    const total = weights.reduce((a, b) => a + b, 0n);
    if (total <= 0n || weights.some(w => w < 0n)) return weights.map(() => '0');
    let scale = 10n ** BigInt(digits);
    let units = weights.map(w => (2n * w * scale + total) / (2n * total));
    while (units.some((u, i) => u === 0n && weights[i] > 0n) && digits < MAX_DIGITS) {
        digits++;
        scale *= 10n;
        units = weights.map(w => (2n * w * scale + total) / (2n * total));
    }
    const largest = units.indexOf(units.reduce((a, b) => (b > a ? b : a)));
    units[largest] += scale - units.reduce((a, b) => a + b, 0n);
    return units.map(u => formatRatio(u, scale, digits));
}

/** `pmf { 20.13 ms: 0.25, … }` from [time as written, weight] entries, in their order. */
export function pmfText(entries: ReadonlyArray<readonly [string, bigint]>, digits = 6): string {
    const probabilities = exactProbabilities(
        entries.map(([, weight]) => weight),
        digits,
    );
    return `pmf { ${entries.map(([time], i) => `${time}: ${probabilities[i]}`).join(', ')} }`;
}
