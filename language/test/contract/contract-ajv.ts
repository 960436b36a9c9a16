/** The contract's schemas in one ajv: errors of a value against FILE#/$defs/NAME. */
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { SCHEMA_BASE, SCHEMAS } from '@chainlab/contract';

// As strict as the IR check, except that per-kind rules (if/then) require properties their parent object defines.
const ajv = new Ajv2020({ allErrors: true, strict: true, strictRequired: false, schemas: Object.values(SCHEMAS) });
const compiled = new Map<string, ValidateFunction>();

export function schemaErrors(ref: string, value: unknown): string[] {
    let validate = compiled.get(ref);
    if (!validate) compiled.set(ref, (validate = ajv.compile({ $ref: SCHEMA_BASE + ref })));
    if (validate(value)) return [];
    return (validate.errors ?? []).map((e: ErrorObject) => `${e.instancePath || '/'} ${e.message ?? ''}`.trim());
}
