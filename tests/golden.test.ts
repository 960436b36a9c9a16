/**
 * Golden IR: the export of every sample is compared with tests/golden/<sample>.ir.json.
 * After an intended change of the IR, regenerate with CHAINLAB_UPDATE_GOLDEN=1 and review the diff.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { describe, expect, test } from 'vitest';
import { chainlab, repo } from './cli/cli-helpers.js';

function chainFiles(dir: string): string[] {
    return readdirSync(dir).flatMap(entry => {
        const path = join(dir, entry);
        return statSync(path).isDirectory() ? chainFiles(path) : path.endsWith('.chain') ? [path] : [];
    });
}

const samples = chainFiles(join(repo, 'samples'))
    .map(p => relative(repo, p))
    .sort();
const update = process.env.CHAINLAB_UPDATE_GOLDEN === '1';

describe('golden IR of the samples', () => {
    test.each(samples)('%s', async sample => {
        const result = await chainlab(['export', sample, '--json']);
        expect(result.status, result.stderr).toBe(0);
        const golden = join(repo, 'tests', 'golden', sample.replace(/\.chain$/, '.ir.json'));
        if (update || !existsSync(golden)) {
            if (!update)
                throw new Error(
                    `no golden file ${relative(repo, golden)}: run with CHAINLAB_UPDATE_GOLDEN=1 and review it`,
                );
            mkdirSync(dirname(golden), { recursive: true });
            writeFileSync(golden, result.stdout);
        }
        expect(JSON.parse(result.stdout)).toEqual(JSON.parse(readFileSync(golden, 'utf-8')));
    });
});
