/**
 * A run's tables under its plot, from a real reply (tests/rpc-vectors): every scenario and phase in words and the
 * one number format, never a raw flag, object or NaN.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { RunReport } from '@chainlab/contract';
import { runTables } from '../src/run-tables';

const vectors = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'rpc-vectors');
const run = (JSON.parse(readFileSync(join(vectors, 'valid-deploy-run.json'), 'utf-8')) as { value: RunReport }).value;

describe('run tables', () => {
    test('one row per scenario, a cell per column, in words and the one number format', () => {
        const [scenarios, phases] = runTables(run);
        expect(scenarios.rows.map(r => r[0])).toEqual(run.scenarios.map(s => s.scenario));
        for (const row of scenarios.rows) expect(row).toHaveLength(scenarios.head.length);
        const text = JSON.stringify(runTables(run));
        expect(text).not.toMatch(/true|false|null|undefined|NaN|\[object/);
        expect(phases.rows.at(-1)![0]).toBe('total');
        for (const [, time] of phases.rows) expect(time).toMatch(/^\d+(\.\d+)? s$/);
    });
    test('an overloaded, failed scenario says so; throttling and best-effort load in their units', () => {
        const [first] = run.scenarios;
        const [scenarios] = runTables({
            scenarios: [
                {
                    ...first,
                    status: 'failed',
                    overloaded: true,
                    error: 'x'.repeat(300),
                    be_bytes_per_s: 2.5e9,
                    measured: { samples: 0 },
                    throttle: null,
                },
            ],
            checksums_equal: false,
        });
        const cell = (name: string) => scenarios.rows[0][scenarios.head.indexOf(name)];
        expect(cell('status')).toMatch(/^FAILED, overloaded: x{199}…$/);
        expect(cell('mean ms')).toBe('–');
        expect(cell('best-effort load')).toBe('2.5 GB/s');
        expect(cell('cores suspended')).toBe('–');
        expect(cell('checksum')).toMatch(/ \(differs\)$|^–$/);
    });
});
