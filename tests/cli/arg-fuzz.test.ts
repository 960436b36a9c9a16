/**
 * The CLI's arguments under seeded hostile argument vectors (issue 17): every command and option of the real program,
 * with sample models, temporary files, directories, devices and missing paths, and values that are huge, negative,
 * hex, NaN, units, empty, control characters, very long, repeated or unknown. See arg-fuzz/harness.ts for the oracle.
 *
 *   CHAINLAB_CLI_FUZZ_CASES (250 in npm test; bench/cli runs 10,000+), CHAINLAB_CLI_FUZZ_SEED (17),
 *   CHAINLAB_CLI_FUZZ_PROCESS_EVERY (every 25th case also runs as its own process), CHAINLAB_CLI_FUZZ_ONLY=INDEX.
 */
import { symlinkSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { createProgram } from '../../language/src/cli/main.js';
import { generateCase, unknownOptions, type FileSpace, type FuzzCase } from './arg-fuzz/cases.js';
import {
    describeFailure,
    fuzzFiles,
    InProcessRunner,
    judge,
    MAX_RSS_BYTES,
    outsideSnapshot,
    runProcess,
    type CaseResult,
} from './arg-fuzz/harness.js';
import { chainlab, repo, tempDir } from './cli-helpers.js';

const CASES = Number(process.env.CHAINLAB_CLI_FUZZ_CASES ?? 250);
const SEED = Number(process.env.CHAINLAB_CLI_FUZZ_SEED ?? 17) >>> 0;
const PROCESS_EVERY = Number(process.env.CHAINLAB_CLI_FUZZ_PROCESS_EVERY ?? 25);
const ONLY = process.env.CHAINLAB_CLI_FUZZ_ONLY;
/** A case ends within this (a valid run builds and measures a few iterations; everything else takes < 5 s). */
const TIME_BOUND_MS = 90_000;
/** Failures listed in full (the first ones are the useful ones). */
const MAX_REPORTED = 12;

const program = createProgram();
let root: string;
let files: FileSpace;
let runner: InProcessRunner;
let before: string;
const results: CaseResult[] = [];

beforeAll(() => {
    root = tempDir('chainlab-arg-fuzz');
    files = fuzzFiles(root, SEED);
    runner = new InProcessRunner(root, TIME_BOUND_MS);
    before = outsideSnapshot();
});

afterAll(async () => {
    await runner?.stop();
    if (results.length > 0) {
        const ms = results.map(r => r.ms).sort((a, b) => a - b);
        const statuses = new Map<number | null, number>();
        for (const r of results) statuses.set(r.status, (statuses.get(r.status) ?? 0) + 1);
        const peak = Math.max(0, ...runner.peaks, ...results.map(r => r.rss));
        console.log(
            `cli fuzz seed ${SEED}: ${results.length} cases, exit statuses ${JSON.stringify([...statuses])}, ` +
                `median ${ms[ms.length >> 1].toFixed(0)} ms, max ${ms[ms.length - 1].toFixed(0)} ms, ` +
                `total ${(ms.reduce((a, b) => a + b, 0) / 1000).toFixed(1)} s, peak RSS ${(peak / 2 ** 20).toFixed(0)} MiB`,
        );
    }
});

const cases = (): FuzzCase[] =>
    ONLY !== undefined
        ? [generateCase(program, files, SEED, Number(ONLY))]
        : Array.from({ length: CASES }, (_, i) => generateCase(program, files, SEED, i));

describe('chainlab arguments, seeded', () => {
    test('every option that takes a value has a value kind in the generator', () => {
        expect(unknownOptions(program)).toEqual([]);
    });

    test(
        `${CASES} seeded cases through the CLI's entry point: exit 0-3, one readable line per message, no stack, no hang`,
        async () => {
            const failures: string[] = [];
            let failed = 0;
            for (const fuzzCase of cases()) {
                const result = await runner.run(fuzzCase);
                results.push(result);
                const problems = judge(result, TIME_BOUND_MS);
                if (problems.length > 0 && failed++ < MAX_REPORTED)
                    failures.push(describeFailure(fuzzCase, result, problems));
                if (CASES >= 2000 && results.length % 1000 === 0)
                    console.log(`${results.length} cases, ${failed} failed, ${new Date().toISOString()}`);
            }
            await runner.stop(); // its peak memory, backends included, comes from /usr/bin/time at its end
            expect(failures.join('\n'), `${failed} of ${results.length} cases failed`).toBe('');
            expect(Math.max(0, ...runner.peaks)).toBeLessThan(MAX_RSS_BYTES);
        },
        24 * 3600_000,
    );

    test(
        'a sample of the cases as separate real processes: the same verdict and exit status',
        async () => {
            const failures: string[] = [];
            // a folder of their own, laid out as the first: what the in-process cases wrote there (an experiment's
            // results.csv, which a second run refuses to overwrite) would make the same arguments mean another thing
            const processRoot = tempDir('chainlab-arg-fuzz-process');
            const processFiles = fuzzFiles(processRoot, SEED);
            for (const { index } of cases().filter(c => c.index % PROCESS_EVERY === 0)) {
                const fuzzCase = generateCase(program, processFiles, SEED, index);
                const result = await runProcess(fuzzCase, processRoot, TIME_BOUND_MS);
                const problems = judge(result, TIME_BOUND_MS);
                const inProcess = results.find(r => r.index === fuzzCase.index);
                if (inProcess && !inProcess.hang && inProcess.status !== result.status)
                    problems.push(`exit ${result.status} as a process, ${inProcess.status} in the worker`);
                if (problems.length > 0) failures.push(describeFailure(fuzzCase, result, problems));
            }
            expect(failures.join('\n')).toBe('');
        },
        24 * 3600_000,
    );

    test('no file outside the temporary folder changed', () => {
        expect(outsideSnapshot()).toBe(before);
    });
});

/** What the fuzzer found, each as a real process (failing before its fix). */
describe('found by the argument fuzzer', () => {
    const fig52 = join(repo, 'samples', 'ptts', 'thesis-fig5-2.chain');

    test('a model named twice (check a.chain ./a.chain) is checked once, not an internal error', async () => {
        const result = await chainlab(['check', fig52, relative(repo, fig52), `./${relative(repo, fig52)}`]);
        expect(result.stderr).toBe('1 file(s) checked: 0 error(s), 0 warning(s)\n');
        expect(result.status).toBe(0);
    });

    test("a command's usage error is exit 2 like the program's, through main (not commander's exit 1)", async () => {
        for (const args of [['explore'], ['run', fig52, '--iterations', '0x10'], ['check'], ['bogus']]) {
            const result = await chainlab(args);
            expect(result.status, args.join(' ')).toBe(2);
            expect(result.stderr).toMatch(/^chainlab: error: .*\n\(run chainlab --help for usage\)\n$/);
        }
    });

    test('synth: small chains fit their inputs and outputs; boxes outside 3..50000 are refused by the CLI', async () => {
        const small = await chainlab(['synth', '--boxes', '3', '--seed', '1']);
        expect(small.status, small.stderr).toBe(0);
        expect(small.stdout).toContain('chain Synth');
        for (const boxes of ['2', '50001']) {
            const refused = await chainlab(['synth', '--boxes', boxes]);
            expect(refused.status).toBe(2);
            expect(refused.stderr).toContain(`--boxes takes a whole number from 3 to 50000, not '${boxes}'`);
        }
    });
    test('a refused argument is quoted as one short escaped line (commander quoted 100,000 characters and raw escapes)', async () => {
        const long = await chainlab(['plan', fig52, '--memory', 'y'.repeat(100_000)]);
        expect(long.status).toBe(2);
        expect(long.stderr).toContain(
            "argument 'yyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyyy...' (100000 characters) is invalid",
        );
        expect(long.stderr.length).toBeLessThan(400);
        const unknown = await chainlab(['x'.repeat(5000)]);
        expect(unknown.stderr).toContain(
            "unknown command 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx...' (5000 characters)",
        );
        const escapes = await chainlab(['plan', fig52, '--schedule', 'line\r\nbreak\x1b]0;pwned\x07']);
        expect(escapes.stderr.split('\n')[0]).toContain("argument 'line\\r\\nbreak\\x1b]0;pwned\\x07' is invalid");
        // eslint-disable-next-line no-control-regex
        expect(escapes.stderr).not.toMatch(/[\x00-\x09\x0b-\x1f]/);
    });
    test('an output folder that is a link loop is one line naming it (Python 3.11 raised RuntimeError: exit 70)', async () => {
        const dir = tempDir('chainlab-loop');
        symlinkSync('loop', join(dir, 'loop'));
        const app = join(repo, 'samples', 'chains', 'appendix-a.chain');
        const fig35 = join(repo, 'samples', 'chains', 'fig3-5.chain');
        for (const args of [
            ['run', app, '--iterations', '2', '-o', join(dir, 'loop')],
            ['deploy', fig35, '--iterations', '2', '--scenario', 'baseline', '--runs', join(dir, 'loop')],
        ]) {
            const result = await chainlab(args, { cwd: dir });
            expect(result.status, result.stderr).toBe(1);
            expect(result.stderr).toMatch(/^chainlab: error: \S*loop\S*: Too many levels of symbolic links\n$/);
        }
    });
});
