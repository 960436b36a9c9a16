/** Option parsers shared by the CLI commands. */
import { InvalidArgumentError } from 'commander';
import { SCENARIOS, SCHEMAS } from '@chainlab/contract';
import { durationNs } from '../dsl/units.js';

/**
 * Limits of the integer options, checked before anything runs. Iterations and calibration repetitions are those
 * the generated chain binary accepts (runtime-c/lib/include/chainlab/rt.h: CL_MAX_ITERATIONS, CL_MAX_CALIBRATE).
 */
/** The range of synth's --boxes: the contract's (SynthParams), which the backend checks too. */
const SYNTH_BOXES = (
    SCHEMAS['rpc-plan.schema.json'] as {
        $defs: { SynthParams: { properties: { boxes: { minimum: number; maximum: number } } } };
    }
).$defs.SynthParams.properties.boxes;

export const LIMITS = {
    iterations: 1_000_000_000,
    calibrate: 1_000_000,
    threads: 1024,
    simulateIterations: 100_000_000,
    synthBoxes: { min: SYNTH_BOXES.minimum, max: SYNTH_BOXES.maximum },
    any: Number.MAX_SAFE_INTEGER,
} as const;

/**
 * The one parser of integer options: decimal digits only (not 0x10, 1e3, -1, 1.0 or ' 5', which Number()
 * would take), from min to max; anything else is refused with a message naming the option and the range.
 */
export function integer(option: string, min: number, max: number = LIMITS.any): (value: string) => number {
    return value => {
        const digits = /^[0-9]+$/.test(value) ? value.replace(/^0+(?=.)/, '') : undefined;
        // compared as digit strings first: 99999999999999999999 must not round to something in range
        const n = digits !== undefined && digits.length <= 16 ? Number(digits) : undefined;
        if (n === undefined || n < min || n > max) {
            const shown = value.length > 40 ? `${value.slice(0, 40)}...` : value;
            throw new InvalidArgumentError(
                `${option} takes a whole number from ${min} to ${max}, not '${shown.replace(/[^\x20-\x7e]/g, '?')}'`,
            );
        }
        return n;
    };
}

export function positiveInt(option: string, max: number = LIMITS.any): (value: string) => number {
    return integer(option, 1, max);
}

export function nonNegativeInt(option: string, max: number = LIMITS.any): (value: string) => number {
    return integer(option, 0, max);
}

/** `2 ms`, `2ms` or `0.5 us` → integer nanoseconds. */
export function duration(option: string): (value: string) => number {
    return value => {
        const match = /^\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(s|ms|us|ns)\s*$/.exec(value);
        const ns = match ? durationNs({ value: match[1], unit: match[2] } as never) : undefined;
        // at most 2^53 - 1 ns (104 days): the backend's integers, and no rounding on the way there
        if (!ns?.ok || ns.value <= 0n || ns.value > BigInt(Number.MAX_SAFE_INTEGER))
            throw new InvalidArgumentError(
                `${option} takes a positive duration up to 104 days such as '1 ms', not '${value.slice(0, 40)}'`,
            );
        return Number(ns.value);
    };
}

export function oneOf<T extends string>(option: string, choices: readonly T[]): (value: string) => T {
    return value => {
        if (!(choices as readonly string[]).includes(value))
            throw new InvalidArgumentError(`${option} is one of ${choices.join(', ')}, not '${value}'`);
        return value as T;
    };
}

/** --scenario: a comma-separated subset of baseline, congested, throttled. */
export function scenarioList(value: string): string {
    const names = value
        .split(',')
        .map(s => s.trim())
        .filter(Boolean);
    const unknown = names.filter(n => !(SCENARIOS as readonly string[]).includes(n));
    if (names.length === 0 || unknown.length > 0)
        throw new InvalidArgumentError(
            `unknown scenario '${unknown.join(', ') || value}': choose from ${SCENARIOS.join(', ')}`,
        );
    return names.join(',');
}
