/**
 * The check registry of the .chain language. The checks live in one file per
 * concern; every diagnostic carries a stable `code` (see diagnostic-codes.ts)
 * that tests and quick fixes refer to.
 */
import type { ValidationChecks } from 'langium';
import type { ChainAstType } from '../../generated/ast.js';
import type { ChainServices } from '../chain-module.js';
import { boxChecks } from './box-checks.js';
import { chainChecks } from './chain-checks.js';
import { nameChecks } from './name-checks.js';
import { numberChecks } from './number-checks.js';
import { pttsChecks } from './ptts-checks.js';
import { systemChecks } from './system-checks.js';

export class ChainValidator {
    readonly checks: ValidationChecks<ChainAstType> = mergeChecks([
        nameChecks,
        numberChecks,
        boxChecks,
        chainChecks,
        pttsChecks,
        systemChecks,
    ]);
}

export function registerValidationChecks(services: ChainServices): void {
    const registry = services.validation.ValidationRegistry;
    const validator = services.validation.ChainValidator;
    registry.register(validator.checks, validator);
}

function mergeChecks(groups: ValidationChecks<ChainAstType>[]): ValidationChecks<ChainAstType> {
    const merged: Record<string, unknown[]> = {};
    for (const group of groups) {
        for (const [type, checks] of Object.entries(group)) {
            const list = Array.isArray(checks) ? checks : [checks];
            (merged[type] ??= []).push(...list);
        }
    }
    return merged;
}
