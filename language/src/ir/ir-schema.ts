/** The contract's IR schema (contract/schemas/ir.schema.json, shared with the backend), checked on every export. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import { SCHEMAS } from '@chainlab/contract';
import type { IrModel } from './ir-types.js';

export const IR_SCHEMA: object = SCHEMAS['ir.schema.json'];

const validate = new Ajv2020({ allErrors: true, strict: true }).compile(IR_SCHEMA);

export function irSchemaErrors(value: unknown): string[] {
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
}

export function assertValidIr(value: unknown): asserts value is IrModel {
    const errors = irSchemaErrors(value);
    if (errors.length > 0)
        throw new Error(`internal error: exported IR does not match its schema:\n  ${errors.join('\n  ')}`);
}
