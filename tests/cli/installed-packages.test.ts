/**
 * The CLI and the backend as a user installs them, outside this repository: the backend's wheel
 * (backend/dist) into a fresh venv from backend/wheelhouse with no index, the CLI's npm package
 * (language/chainlab-cli-*.tgz) into a scratch npm project offline; then `chainlab` there, on copies of the samples,
 * finding the backend on PATH (no CHAINLAB_PYTHON), through the extension's pointer file, or nowhere.
 * scripts/setup.mjs builds the three; one install is shared by the file's tests.
 */
import {
    chmodSync,
    copyFileSync,
    existsSync,
    mkdirSync,
    mkdtempSync,
    readFileSync,
    readdirSync,
    symlinkSync,
    writeFileSync,
} from 'node:fs';
import { rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { repo, run, type CliResult } from './cli-helpers.js';

/** The one file in `dir` whose name matches, as setup.mjs built it. */
function built(dir: string, name: RegExp): string {
    const found = existsSync(join(repo, dir)) ? readdirSync(join(repo, dir)).filter(f => name.test(f)) : [];
    if (found.length !== 1)
        throw new Error(`expected one ${String(name)} in ${dir}, found ${found.length}: run 'node scripts/setup.mjs'`);
    return join(repo, dir, found[0]);
}

const wheel = built('backend/dist', /^chainlab_backend-.+-py3-none-any\.whl$/);
const cliTarball = built('language', /^chainlab-cli-.+\.tgz$/);
const SAMPLES = ['samples/xray.chain', 'samples/ptts/thesis-fig5-2.chain', 'samples/chains/fig3-5.chain'];

const scratch = mkdtempSync(join(tmpdir(), 'chainlab-installed-'));
const venv = join(scratch, 'venv');
const project = join(scratch, 'project'); // the npm project and the working folder of the runs
const noPointer = join(scratch, 'data-empty'); // an XDG_DATA_HOME without the extension's pointer file
/** PATH with a node but no interpreter that has the backend: python3 and python that fail the import check. */
const bare = join(scratch, 'bare-bin');

async function must(command: string, args: string[], cwd = scratch): Promise<CliResult> {
    const result = await run(command, args, { cwd, timeoutMs: 400_000 });
    if (result.status !== 0)
        throw new Error(`${command} ${args.join(' ')}: exit ${result.status}\n${result.stdout}${result.stderr}`);
    return result;
}

/** The interpreter backend/wheelhouse was filled for (the base Python of backend/.venv). */
async function basePython(): Promise<string> {
    const venvPython = join(repo, 'backend', '.venv', 'bin', 'python');
    return (await must(venvPython, ['-c', 'import sys; print(sys._base_executable)'])).stdout.trim();
}

function bareBin(): void {
    mkdirSync(bare);
    symlinkSync(process.execPath, join(bare, 'node'));
    for (const python of ['python3', 'python']) {
        writeFileSync(join(bare, python), '#!/bin/sh\nexit 1\n');
        chmodSync(join(bare, python), 0o755);
    }
}

beforeAll(async () => {
    const wheelhouse = join(repo, 'backend', 'wheelhouse');
    await must(await basePython(), ['-m', 'venv', venv]);
    const pip = join(venv, 'bin', 'pip');
    await must(pip, [
        'install',
        '--quiet',
        '--disable-pip-version-check',
        '--no-index',
        '--find-links',
        wheelhouse,
        wheel,
    ]);
    mkdirSync(project);
    writeFileSync(join(project, 'package.json'), '{ "name": "scratch", "version": "1.0.0", "private": true }\n');
    await must('npm', ['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', cliTarball], project);
    for (const sample of SAMPLES) copyFileSync(join(repo, sample), join(project, basename(sample)));
    mkdirSync(noPointer);
    bareBin();
}, 600_000);

// a venv is thousands of files: more than the default 10 s of a hook to remove on a busy machine
afterAll(() => rm(scratch, { recursive: true, force: true }), 120_000);

/** The installed `chainlab` in the scratch project, with the venv's bin/ first on PATH and no CHAINLAB_PYTHON. */
function chainlab(args: string[], env: Record<string, string> = {}): Promise<CliResult> {
    return run(join(project, 'node_modules', '.bin', 'chainlab'), args, {
        cwd: project,
        env: {
            PATH: `${join(venv, 'bin')}:${process.env.PATH}`,
            CHAINLAB_PYTHON: '', // empty is unset: the lookup must find the backend on its own
            XDG_DATA_HOME: noPointer,
            CHAINLAB_CACHE: join(scratch, 'cache'),
            ...env,
        },
    });
}

describe('the built packages', () => {
    test("the wheel carries the C runtime's and throttler's sources and the contract, and no build output", async () => {
        const listing = await must(join(venv, 'bin', 'python'), ['-m', 'zipfile', '-l', wheel]);
        const files = listing.stdout
            .split('\n')
            .slice(1)
            .map(line => line.split(/\s+/)[0]);
        const runtime = 'chainlab/resources/runtime-c';
        for (const file of [
            `${runtime}/CMakeLists.txt`,
            `${runtime}/lib/CMakeLists.txt`,
            `${runtime}/lib/include/chainlab/rt.h`,
            `${runtime}/lib/src/rt.c`,
            `${runtime}/lib/src/kernels.c`,
            `${runtime}/throttle/CMakeLists.txt`,
            `${runtime}/throttle/src/main.c`,
            `${runtime}/throttle/tests/test_replay.sh`,
            'chainlab/contract/ir.schema.json',
            'chainlab/contract/methods.json',
            'chainlab/rpc/server.py',
        ])
            expect(files, file).toContain(file);
        expect(files.filter(f => /(^|\/)(build|__pycache__|CMakeFiles)\/|\.(o|a|pyc)$/.test(f))).toEqual([]);
        expect(files.some(f => f.endsWith('entry_points.txt'))).toBe(true);
        expect(existsSync(join(venv, 'bin', 'chainlab-backend'))).toBe(true);
    });

    test('the npm package is one file with no dependencies', () => {
        const manifest = JSON.parse(
            readFileSync(join(project, 'node_modules', 'chainlab-cli', 'package.json'), 'utf-8'),
        );
        expect(manifest).toMatchObject({ name: 'chainlab-cli', license: 'MIT', engines: { node: '>=20.19' } });
        expect(manifest.bin).toEqual({ chainlab: 'bin/chainlab.js' });
        expect(manifest.dependencies).toBeUndefined();
        expect(readdirSync(join(project, 'node_modules')).filter(d => !d.startsWith('.'))).toEqual(['chainlab-cli']);
    });
});

describe('chainlab installed, the backend on PATH', () => {
    test('check', async () => {
        const result = await chainlab(['check', 'xray.chain', 'thesis-fig5-2.chain', 'fig3-5.chain']);
        expect(result.status, result.stderr).toBe(0);
        expect(result.stderr).toContain('3 file(s) checked: 0 error(s), 0 warning(s)'); // the summary goes to stderr
    });

    test('analyze: the exact distribution of Fig52', async () => {
        const result = await chainlab(['analyze', 'thesis-fig5-2.chain', '--ptts', 'Fig52']);
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toContain('hyper-period 40.6 s, 203 latency trees');
        expect(result.stdout).toMatch(/p50 197 ms {2}p90 253 ms {2}p99 285 ms {2}p99\.9 301 ms/);
        expect(result.stdout).toContain('loss probability 8.57·10⁻⁵ per frame');
    });

    test('plan', async () => {
        const result = await chainlab(['plan', 'fig3-5.chain', '--chain', 'Fig35']);
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/chain Fig35: reduced schedule on 4 thread\(s\), memory reuse; deadlock-free/);
        expect(result.stdout).toMatch(/^ {2}thread3 {2}core 3 {2}W /m);
        expect(result.stdout).toMatch(/predicted latency .*mean [\d.]+ ms/);
    });

    test('generate: a C project from the packaged runtime that builds with cmake', async () => {
        const result = await chainlab(['generate', 'fig3-5.chain', '--chain', 'Fig35', '-o', 'gen']);
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toContain('chain Fig35: reduced/reuse, 4 thread(s)');
        const gen = join(project, 'gen');
        for (const file of [
            'CMakeLists.txt',
            '.chainlab-generated',
            'runtime/src/rt.c',
            'runtime/include/chainlab/rt.h',
        ])
            expect(existsSync(join(gen, file)), file).toBe(true);
        await must('cmake', ['-S', gen, '-B', join(gen, 'build'), '-DCMAKE_BUILD_TYPE=Release']);
        await must('cmake', ['--build', join(gen, 'build'), '--parallel', '2']);
        expect(existsSync(join(gen, 'build', 'chain'))).toBe(true);
    });

    test('run --target here: measured against predicted, files written', async () => {
        const result = await chainlab([
            'run',
            'fig3-5.chain',
            '--chain',
            'Fig35',
            '--target',
            'here',
            '--iterations',
            '20',
        ]);
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/^baseline +[\d.]+ .* 20\/20$/m);
        expect(result.stdout).toMatch(/^predicted +[\d.]+ +[\d.]+/m);
        const out = join(project, 'chainlab-runs', 'Fig35');
        for (const file of ['baseline/run.json', 'baseline/tasks.csv', 'report.json', 'report.html', 'cdf.svg'])
            expect(existsSync(join(out, file)), file).toBe(true);
        const rows = readFileSync(join(out, 'baseline', 'latencies.csv'), 'utf-8')
            .trim()
            .split('\n')
            .slice(1);
        expect(rows).toHaveLength(20);
        expect(rows.every(row => /\d/.test(row))).toBe(true);
    });
});

describe('chainlab installed, the backend elsewhere', () => {
    test("found through the VS Code extension's pointer file", async () => {
        const data = join(scratch, 'data-pointer');
        mkdirSync(join(data, 'chainlab'), { recursive: true });
        writeFileSync(join(data, 'chainlab', 'backend.json'), JSON.stringify({ python: join(venv, 'bin', 'python') }));
        const result = await chainlab(['analyze', 'thesis-fig5-2.chain', '--ptts', 'Fig52'], {
            PATH: bare,
            XDG_DATA_HOME: data,
        });
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toContain('203 latency trees');
    });

    test('none on PATH and no pointer file: what to do, and a non-zero exit', async () => {
        const result = await chainlab(['analyze', 'thesis-fig5-2.chain', '--ptts', 'Fig52'], { PATH: bare });
        expect(result.status).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr.trim()).toBe(
            'chainlab: error: no chainlab backend found: install it (python3 -m pip install chainlab-backend, or the ' +
                'chainlab_backend wheel), set CHAINLAB_PYTHON to an interpreter that has it, or open a .chain file ' +
                'once in VS Code with the chainlab extension',
        );
    });
});
