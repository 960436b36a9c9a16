/**
 * Numbers as the IR (JSON of doubles) carries them. The nearest double of an exact decimal is rounded once, from
 * its text: numerator / 10 ** scale divides two rounded numbers, which for 400 digits is Infinity / Infinity, NaN,
 * and JSON carries no NaN (JSON.stringify would silently write null). A number beyond a double has no double to stand
 * for it and is refused with the reason; one below the smallest double is 0, as the backend reads it too
 * (tests/ptts-cost-vectors/zero-float-probability.json).
 */
import type { Exact, ExactDecimal } from '../dsl/units.js';

/** The double nearest to `value`·10^-`shift` (a percentage: shift 2). */
export function irDouble(value: ExactDecimal, shift = 0): Exact<number> {
    const double = Number(`${value.numerator}e${-(value.scale + shift)}`);
    if (!Number.isFinite(double))
        return { ok: false, reason: 'is too large for the IR (a double: at most about 1.8e308)' };
    return { ok: true, value: double };
}

/** The longest time the IR carries exactly, in ns: a double's whole numbers end at 2^53 - 1. */
export const MAX_IR_NS = BigInt(Number.MAX_SAFE_INTEGER);
