import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { BACKEND_METHODS, ERRORS, METHOD_SCHEMAS, type BackendMethod, type ErrorName } from '@chainlab/contract';
import { schemaErrors } from './contract-ajv.js';

interface Vector {
    file: string;
    description: string;
    method?: BackendMethod;
    error?: ErrorName;
    valid: boolean;
    value: unknown;
    error_path?: string;
}

const dir = join(__dirname, '..', '..', '..', 'tests', 'rpc-vectors');
const vectors: Vector[] = readdirSync(dir)
    .filter(f => f.endsWith('.json'))
    .map(f => ({ file: f, ...JSON.parse(readFileSync(join(dir, f), 'utf-8')) }));

function schemaOf(vector: Vector): string {
    if (vector.method) return METHOD_SCHEMAS.backend[vector.method].result;
    const error = ERRORS[vector.error!];
    if (!('data' in error)) throw new Error(`${vector.error} carries no data`);
    return error.data;
}

describe('shared reply vectors against the TypeScript (ajv) check of the contract', () => {
    test('every backend method has vectors', () => {
        expect(new Set(vectors.map(v => v.method))).toEqual(new Set([...BACKEND_METHODS, undefined]));
    });
    test.each(vectors)('$file', vector => {
        const errors = schemaErrors(schemaOf(vector), vector.value);
        if (vector.valid) {
            expect(errors).toEqual([]);
        } else {
            expect(
                errors.some(e => e.startsWith(vector.error_path!)),
                errors.join('\n'),
            ).toBe(true);
        }
    });
});
