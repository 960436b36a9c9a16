import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { irSchemaErrors } from '../../src/ir/ir-schema.js';

const dir = join(__dirname, '..', '..', '..', 'tests', 'ir-vectors');
const vectors = readdirSync(dir)
    .filter(f => f.endsWith('.json'))
    .map(f => ({ file: f, ...JSON.parse(readFileSync(join(dir, f), 'utf-8')) }));

describe('shared IR vectors against the TypeScript schema check', () => {
    test('there are vectors', () => expect(vectors.length).toBeGreaterThanOrEqual(10));
    test.each(vectors)('$file', vector => {
        const errors = irSchemaErrors(vector.ir);
        if (vector.valid) {
            expect(errors).toEqual([]);
        } else {
            expect(
                errors.some(e => e.startsWith(vector.error_path)),
                errors.join('\n'),
            ).toBe(true);
        }
    });
});
