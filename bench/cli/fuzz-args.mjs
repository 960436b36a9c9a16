#!/usr/bin/env node
/**
 * The CLI's arguments under 10,000+ seeded hostile argument vectors (issue 17): runs the fuzz test of
 * tests/cli/arg-fuzz.test.ts with more cases (npm test runs 250). Every case goes through the CLI's entry point in
 * one worker process (the backend a real process); every 100th also as its own `node language/bin/chainlab.js`.
 *
 *   node bench/cli/fuzz-args.mjs [--cases 10000] [--seed 17] [--process-every 100]
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
const seed = argument('--seed', '17');
const every = argument('--process-every', '100');
const started = Date.now();
const result = spawnSync(
    join(root, 'node_modules', '.bin', 'vitest'),
    ['run', 'tests/cli/arg-fuzz.test.ts', '--config', 'tests/vitest.config.ts', '-t', 'chainlab arguments, seeded'],
    {
        cwd: root,
        stdio: 'inherit',
        env: {
            ...process.env,
            CHAINLAB_CLI_FUZZ_CASES: cases,
            CHAINLAB_CLI_FUZZ_SEED: seed,
            CHAINLAB_CLI_FUZZ_PROCESS_EVERY: every,
        },
    },
);
console.log(
    `${cases} cases, seed ${seed}: ${result.status === 0 ? 'all passed' : 'FAILED'} in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
process.exit(result.status ?? 1);
