/** The IR schema shared with the backend, checked with ajv on every export. */
import { createRequire } from 'node:module';
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import type { IrModel } from './ir-types.js';

const require = createRequire(import.meta.url);
export const IR_SCHEMA = require('../../../backend/chainlab/ir/chainlab-ir.schema.json') as object;

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(IR_SCHEMA);

export function irSchemaErrors(value: unknown): string[] {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
}

export function assertValidIr(value: unknown): asserts value is IrModel {
    const errors = irSchemaErrors(value);
    if (errors.length > 0) throw new Error(`internal error: exported IR does not match its schema:\n  ${errors.join('\n  ')}`);
}
