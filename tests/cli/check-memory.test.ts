/**
 * Memory of `chainlab check` on a valid model at the size limit: the process's peak resident memory stays within
 * 100 times the model's size (the CLI's own code and heap at start included). The model is the language benchmark's
 * chain (language/test/large-model.js), as many boxes as fit under the 4 MiB limit.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { describe, expect, test } from 'vitest';
import { generateModel } from '../../language/test/large-model.js';
import { cli, run, tempDir } from './cli-helpers.js';

const LIMIT_BYTES = 4 * 1024 * 1024;
const BOXES = 61_000; // 3.99 MiB

describe('check at the size limit', () => {
    test('a valid model of 3.99 MiB: peak memory ≤ 100 × its size', { timeout: 240_000 }, async () => {
        const { text } = generateModel(BOXES, BOXES / 4);
        const bytes = Buffer.byteLength(text);
        expect(bytes).toBeLessThan(LIMIT_BYTES);
        expect(bytes).toBeGreaterThan(0.99 * LIMIT_BYTES);
        const file = join(tempDir('check-memory'), 'large.chain');
        writeFileSync(file, text);
        const result = await run(process.execPath, [
            '--import',
            pathToFileURL(join(__dirname, 'peak-rss.mjs')).href,
            cli,
            'check',
            file,
        ]);
        expect(result.stderr).toContain('1 file(s) checked: 0 error(s), 0 warning(s)');
        expect(result.status).toBe(0);
        const peakKib = Number(/peak-rss-kib (\d+)/.exec(result.stderr)?.[1]);
        const ratio = (peakKib * 1024) / bytes;
        console.log(
            `check of ${(bytes / 2 ** 20).toFixed(2)} MiB: peak RSS ${(peakKib / 1024).toFixed(0)} MiB = ${ratio.toFixed(1)} × its size`,
        );
        expect(ratio).toBeLessThanOrEqual(100);
    });
});
