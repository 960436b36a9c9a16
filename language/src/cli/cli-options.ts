/** Option parsers shared by the CLI commands. */
import { InvalidArgumentError } from 'commander';
import { SCENARIOS } from '@chainlab/contract';
import { durationNs } from '../dsl/units.js';

export function positiveInt(option: string): (value: string) => number {
    return value => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 1)
            throw new InvalidArgumentError(`${option} takes a positive integer, not '${value}'`);
        return n;
    };
}

export function nonNegativeInt(option: string): (value: string) => number {
    return value => {
        const n = Number(value);
        if (!Number.isInteger(n) || n < 0)
            throw new InvalidArgumentError(`${option} takes a whole number, not '${value}'`);
        return n;
    };
}

/** `2 ms`, `2ms` or `0.5 us` → integer nanoseconds. */
export function duration(option: string): (value: string) => number {
    return value => {
        const match = /^\s*(\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)\s*(s|ms|us|ns)\s*$/.exec(value);
        const ns = match ? durationNs({ value: match[1], unit: match[2] } as never) : undefined;
        if (!ns?.ok || ns.value <= 0n)
            throw new InvalidArgumentError(`${option} takes a positive duration such as '1 ms', not '${value}'`);
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
