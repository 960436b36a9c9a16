#!/usr/bin/env node
/**
 * The language server's stdio framing under 10,000+ seeded hostile cases (issue 17 F18): runs the fuzz test of
 * language/test/lsp/hostile-input.test.ts against the bundled server with more cases. Each case (bad Content-Length,
 * malformed headers, bodies that are no JSON-RPC, random bytes) is followed by a sentinel request that must be
 * answered exactly once; at the end the server must still answer a hover, alive, with nothing on stderr.
 *
 *   node bench/lsp/fuzz-framing.mjs [--cases 10000] [--seed 18]
 */
import { spawnSync } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const argument = (name, fallback) => {
    const at = process.argv.indexOf(name);
    return at > 0 ? process.argv[at + 1] : fallback;
};
const cases = argument('--cases', '10000');
const seed = argument('--seed', '18');
const started = Date.now();
const result = spawnSync(
    join(root, 'node_modules', '.bin', 'vitest'),
    ['run', 'test/lsp/hostile-input.test.ts', '-t', 'seeded hostile cases'],
    {
        cwd: join(root, 'language'),
        stdio: 'inherit',
        env: { ...process.env, CHAINLAB_LSP_FUZZ_CASES: cases, CHAINLAB_LSP_FUZZ_SEED: seed },
    },
);
console.log(
    `${cases} cases, seed ${seed}: ${result.status === 0 ? 'all passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(result.status ?? 1);
