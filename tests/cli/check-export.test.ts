import { readdirSync, statSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { chainlab, repo, tempDir } from './cli-helpers.js';

function chainFiles(dir: string): string[] {
    return readdirSync(dir).flatMap(entry => {
        const path = join(dir, entry);
        return statSync(path).isDirectory() ? chainFiles(path) : path.endsWith('.chain') ? [path] : [];
    });
}

const samples = chainFiles(join(repo, 'samples'))
    .map(p => relative(repo, p))
    .sort();

describe('chainlab check', () => {
    test('the required samples exist', () => {
        for (const required of [
            'samples/xray.chain',
            'samples/ptts/thesis-fig5-2.chain',
            'samples/ptts/table5-1.chain',
            'samples/ptts/case-study.chain',
            'samples/chains/fig3-1.chain',
            'samples/chains/fig3-5.chain',
            'samples/chains/appendix-a.chain',
        ]) {
            expect(samples).toContain(required);
        }
    });

    test('every sample checks clean (exit 0, no errors)', async () => {
        const result = await chainlab(['check', ...samples]);
        expect(result.stderr).not.toMatch(/: error: /);
        expect(result.status).toBe(0);
        expect(result.stderr).toContain(`${samples.length} file(s) checked: 0 error(s)`);
    });

    test('errors are gcc-style file:line:col lines and exit 1', async () => {
        const dir = tempDir('chainlab-check');
        const file = join(dir, 'broken.chain');
        writeFileSync(file, 'platform P { cores 2 }\nbox B { in i: Missing kernel blur(3) }\n');
        const result = await chainlab(['check', file]);
        expect(result.status).toBe(1);
        expect(result.stderr).toContain(
            `${file}:2:15: error: Unknown image type 'Missing'; there are no image types here.`,
        );
        expect(result.stderr).toMatch(new RegExp(`${file}:2:30: error: Unknown kernel 'blur'`));
    });

    test('syntax errors are reported with their position, never a crash', async () => {
        const dir = tempDir('chainlab-check');
        const file = join(dir, 'syntax.chain');
        writeFileSync(file, 'box { kernel gain(1.5 }\nptts T { component C period ms }\n');
        const result = await chainlab(['check', file]);
        expect(result.status).toBe(1);
        expect(result.stderr).toMatch(new RegExp(`${file}:1:5: error: `));
        expect(result.stderr).not.toContain('internal error');
    });

    test('a missing file or a wrong extension is a clear error', async () => {
        expect(await chainlab(['check', 'nope.chain'])).toMatchObject({
            status: 1,
            stderr: expect.stringContaining('nope.chain: no such file'),
        });
        expect((await chainlab(['check', 'README.md'])).stderr).toContain('README.md: not a .chain file');
    });

    test('--help lists the commands', async () => {
        const help = await chainlab(['--help']);
        expect(help.status).toBe(0);
        expect(help.stdout).toContain('check <files...>');
        expect(help.stdout).toContain('export');
    });
});

describe('chainlab export', () => {
    test('exports IR that the Python backend accepts', async () => {
        const result = await chainlab(['export', 'samples/xray.chain', '--json']);
        expect(result.status).toBe(0);
        const ir = JSON.parse(result.stdout);
        expect(ir.ir_version).toBe('1.0');
        expect(ir.chains.map((c: { name: string }) => c.name)).toContain('XRay');
        const python = join(repo, 'backend', '.venv', 'bin', 'python');
        const check = spawnSync(
            python,
            [
                '-c',
                'import json,sys; from chainlab.ir import validate_ir; print(validate_ir(json.load(sys.stdin))["source"])',
            ],
            { input: result.stdout, encoding: 'utf-8' },
        );
        expect(check.stderr).toBe('');
        expect(check.stdout.trim()).toBe('samples/xray.chain');
    });

    test('refuses a model with errors', async () => {
        const dir = tempDir('chainlab-export');
        const file = join(dir, 'bad.chain');
        writeFileSync(file, 'ptts T { component C period 0 ms etp point 1 ms }\n');
        const result = await chainlab(['export', file, '--json']);
        expect(result.status).toBe(1);
        expect(result.stdout).toBe('');
        expect(result.stderr).toContain('not exported');
    });
});
