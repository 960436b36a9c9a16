import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, test } from 'vitest';
import { chainlab, tempDir } from './cli-helpers.js';

describe('chainlab generate / run', () => {
    test('generate writes a standalone C project that builds with -Werror and runs without arguments', async () => {
        // a folder name a shell would split or run: the printed build line must still work pasted
        const out = join(tempDir('chainlab-gen'), 'my out&touch pasted');
        const result = await chainlab([
            'generate',
            'samples/chains/appendix-a.chain',
            '-o',
            out,
            '--schedule',
            'reduced',
            '--memory',
            'reuse',
        ]);
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        expect(result.stdout).toContain('chain App: reduced/reuse, 2 thread(s)');
        for (const file of ['CMakeLists.txt', 'README.md', 'src/chain.c', 'src/main.c', 'runtime/src/rt.c'])
            expect(existsSync(join(out, file))).toBe(true);
        expect(readFileSync(join(out, 'src/chain.c'), 'utf-8')).toContain(
            'static void sb_f6_0(void *user, uint64_t it)',
        );
        const build = /^build: (.*)$/m.exec(result.stdout)![1];
        const pasted = spawnSync('bash', ['-c', build], { cwd: dirname(out), encoding: 'utf-8' });
        expect(pasted.status, pasted.stdout + pasted.stderr).toBe(0);
        expect(existsSync(join(dirname(out), 'pasted'))).toBe(false);
        const run = spawnSync(join(out, 'build', 'chain'), ['--iterations', '20'], { cwd: out, encoding: 'utf-8' });
        expect(run.status).toBe(0);
        const reference = spawnSync(join(out, 'build', 'chain'), ['--iterations', '20', '--reference'], {
            cwd: out,
            encoding: 'utf-8',
        });
        expect(run.stdout).toMatch(/checksum [0-9a-f]{16}/);
        expect(run.stdout.match(/checksum (\w+)/)![1]).toBe(reference.stdout.match(/checksum (\w+)/)![1]);
    });

    test('run --target here measures, predicts and writes the report', async () => {
        const out = tempDir('chainlab-run');
        const result = await chainlab([
            'run',
            'samples/chains/appendix-a.chain',
            '--target',
            'here',
            '--iterations',
            '200',
            '-o',
            out,
            '--json',
        ]);
        expect(result.status, result.stderr).toBe(0);
        const report = JSON.parse(result.stdout);
        expect(report).toMatchObject({ chain: 'App', target: 'here', status: 'ok', iterations: 200 });
        expect(report.scenarios[0]).toMatchObject({ scenario: 'baseline', status: 'ok', completed: 200 });
        expect(report.scenarios[0].measured.samples).toBe(200);
        expect(report.summary).toMatch(/^baseline +[\d.]+ +[\d.]+/m);
        expect(report.summary).toMatch(/^predicted +[\d.]+ +[\d.]+/m);
        for (const file of ['baseline/latencies.csv', 'baseline/run.json', 'report.json', 'report.html', 'cdf.png'])
            expect(existsSync(join(out, file)), file).toBe(true);
        const text = await chainlab(['run', 'samples/chains/appendix-a.chain', '--iterations', '50', '-o', out]);
        expect(text.status).toBe(0);
        expect(text.stdout).toMatch(/^baseline .* 50\/50$/m);
        expect(text.stdout).toContain(`report: ${out}/report.html`);
    });

    // an ssh target runs through the same pipeline as deploy: backend/tests/deploy runs `run --target` on the lab
    test('an unknown target is refused with a message', async () => {
        const none = await chainlab([
            'run',
            'samples/xray.chain',
            '--chain',
            'XRay',
            '--target',
            'mars',
            '--iterations',
            '5',
        ]);
        expect(none.status).toBe(1);
        expect(none.stderr).toContain("no target named 'mars'");
    });
});
