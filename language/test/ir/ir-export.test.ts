/**
 * The IR writer and the numbers of a model: a number the IR (JSON, doubles) cannot carry is refused with the text
 * that gave it, never written as NaN or Infinity (which JSON.stringify would turn into null); one it can carry is the
 * double nearest to the text, 0 below the smallest one.
 */
import { describe, expect, test } from 'vitest';
import { exportIr, IrExportError } from '../../src/ir/ir-export.js';
import { assertValidIr } from '../../src/ir/ir-schema.js';
import { parse } from '../test-utils.js';

const NINES = '0.' + '9'.repeat(400); // 400 digits: Number(numerator) / 10 ** scale is Infinity / Infinity
const TINY = '0.' + '0'.repeat(399) + '1';

async function exported(etp: string, files: Record<string, string> = {}) {
    const document = await parse(`ptts P {
    component C0  period 200 ms  offset 0 ms  etp ${etp}
    component C1  period 58 ms  offset 30 ms  etp point 5 ms
}
`);
    return exportIr(document.parseResult.value, {
        file: 'm.chain',
        readFile: path => files[path] ?? '',
        resolvePath: path => path,
    });
}

async function refusal(etp: string, files: Record<string, string> = {}): Promise<string> {
    const error = await exported(etp, files).then(
        () => undefined,
        (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(IrExportError);
    return (error as Error).message;
}

describe('numbers the IR cannot carry', () => {
    test('a probability of 400 digits is the nearest double, not NaN', async () => {
        const ir = await exported(`pmf { 50 ms: ${NINES}, 51 ms: 1.0e-298 }`);
        assertValidIr(ir);
        const etp = ir.ptts[0].components[0].etp;
        expect(etp.kind === 'pmf' && etp.points).toEqual([
            [50_000_000, 1],
            [51_000_000, 1e-298],
        ]);
        expect(JSON.stringify(ir)).not.toMatch(/null\]/);
    });

    test('a probability below the smallest double is 0, as the backend reads it (a shared vector)', async () => {
        const ir = await exported(`pmf { 50 ms: 1.0, 51 ms: ${TINY} }`);
        const etp = ir.ptts[0].components[0].etp;
        expect(etp.kind === 'pmf' && etp.points).toEqual([
            [50_000_000, 1],
            [51_000_000, 0],
        ]);
    });

    test('a probability beyond a double is refused with its text', async () => {
        expect(await refusal(`pmf { 50 ms: 1.0, 51 ms: 1${'0'.repeat(400)}.5 }`)).toMatch(/is too large for the IR/);
    });

    test('a measured latency beyond 2^53 - 1 ns is refused with its file and line, not written as Infinity', async () => {
        for (const cell of ['1e400', '1e12']) {
            expect(await refusal(`histogram "lat.csv"`, { 'lat.csv': `5\n6\n${cell}\n` })).toBe(
                `lat.csv:3: '${cell}' is longer than 2^53 - 1 ns, the longest time the IR carries exactly`,
            );
        }
    });
});
