/**
 * Peak memory and time of `chainlab check` on valid models up to the 4 MiB size limit, against the anchor of
 * 100 bytes of peak resident memory per byte of model (the CLI's code and start-up heap included).
 *
 *   node bench/language/bench-memory.mjs [--boxes 15000,30000,61000] [--cli language/bin/chainlab.js]
 *
 * The models are the language benchmark's chains (language/test/large-model.js); 61,000 boxes make 3.99 MiB.
 * Peak RSS is the process's VmHWM, written by tests/cli/peak-rss.mjs as it exits.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { generateModel } from '../../language/test/large-model.js';

const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const ANCHOR = 100;

function option(name, fallback) {
    const i = process.argv.indexOf(`--${name}`);
    return i >= 0 ? process.argv[i + 1] : fallback;
}

const boxes = option('boxes', '15000,30000,61000').split(',').map(Number);
const cli = resolve(option('cli', join(repo, 'language', 'bin', 'chainlab.js')));
const dir = mkdtempSync(join(tmpdir(), 'chainlab-memory-'));
try {
    for (const count of boxes) {
        const { text } = generateModel(count, Math.round(count / 4));
        const file = join(dir, `bench-${count}.chain`);
        writeFileSync(file, text);
        const bytes = Buffer.byteLength(text);
        const started = performance.now();
        const preload = pathToFileURL(join(repo, 'tests', 'cli', 'peak-rss.mjs')).href;
        const result = spawnSync(process.execPath, ['--import', preload, cli, 'check', file], { encoding: 'utf-8' });
        const seconds = (performance.now() - started) / 1000;
        const peak = Number(/peak-rss-kib (\d+)/.exec(result.stderr)?.[1]) * 1024;
        if (result.status !== 0 || !peak) throw new Error(`check failed (${result.status}):\n${result.stderr}`);
        const ratio = peak / bytes;
        console.log(
            `${count} boxes, ${(bytes / 2 ** 20).toFixed(2)} MiB: peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB = ` +
                `${ratio.toFixed(1)} × its size = ${(ratio / ANCHOR).toFixed(2)} × the anchor (${ANCHOR} ×), ` +
                `${seconds.toFixed(1)} s`,
        );
    }
} finally {
    rmSync(dir, { recursive: true, force: true });
}
