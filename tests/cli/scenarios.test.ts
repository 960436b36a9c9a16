/** `chainlab run --scenario` (baseline, congested, throttled) and Ctrl-C during a run, through the real CLI. */
import { describe, expect, test } from 'vitest';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainlab, cli, repo, tempDir } from './cli-helpers.js';

/** The Appendix A chain with a 2-core local target: chain on core 0, the hog on core 1, duty-cycled. */
function labChain(dir: string): string {
    const file = join(dir, 'lab.chain');
    writeFileSync(
        file,
        readFileSync(join(repo, 'samples/chains/appendix-a.chain'), 'utf-8') +
            `
throttle Duty {
    duty-cycle  counter llc-misses  sample 100 us  suspend 900 us  threshold 25 %
    mechanism sigstop
}
target bench {
    local
    rt-cores 0
    be-cores 1
    throttle Duty
    workload hog
}
`,
    );
    return file;
}

function hogsOf(dir: string): string[] {
    return spawnSync('ps', ['-eo', 'stat,args'], { encoding: 'utf-8' })
        .stdout.split('\n')
        .filter(line => line.includes(dir));
}

describe('chainlab run --scenario', () => {
    test('baseline, congested and throttled: same checksum, the throttler suspends the hog, nothing left running', async () => {
        const dir = tempDir('chainlab-scen');
        const out = join(dir, 'runs');
        const result = await chainlab([
            'run',
            labChain(dir),
            '--target',
            'bench',
            '--scenario',
            'baseline,congested,throttled',
            '--iterations',
            '2000',
            '-o',
            out,
        ]);
        expect(result.stderr).toBe('');
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(/^baseline\s+[\d.]+/m);
        expect(result.stdout).toMatch(/^congested\s+(-?[\d.]+\s+){5}[+-][\d.]+\s+[\d.]+\s+[\d.]+/m);
        expect(result.stdout).toMatch(/^throttled\s+/m);
        const results = JSON.parse(readFileSync(join(out, 'report.json'), 'utf-8'));
        const scenarios = results.scenarios;
        expect(scenarios.map((s: { scenario: string }) => s.scenario)).toEqual(['baseline', 'congested', 'throttled']);
        expect(results.checksums_equal).toBe(true);
        const [, congested, throttled] = scenarios;
        expect(congested.be_bytes_per_s).toBeGreaterThan(0);
        expect(throttled.throttle.source).toBe('coop');
        expect(throttled.throttle.cores[0].suspensions).toBeGreaterThan(0);
        // suspended 900 of every ~1000 us while over the threshold: the hog moves far less
        expect(throttled.be_bytes_per_s).toBeLessThan(0.6 * congested.be_bytes_per_s);
        for (const s of ['baseline', 'congested', 'throttled'])
            expect(existsSync(join(out, s, 'latencies.csv'))).toBe(true);
        expect(readFileSync(join(out, 'throttled', 'throttle-args.txt'), 'utf-8')).toContain('mechanism=sigstop');
        const remote = results.remote_dir;
        expect(remote).toBe(out); // a local target runs in the run's own folder
        expect(hogsOf(remote)).toEqual([]);
    });

    test('an unknown scenario or a target without be-cores is refused', async () => {
        const bad = await chainlab(['run', 'samples/xray.chain', '--chain', 'XRay', '--scenario', 'baseline,storm']);
        expect(bad.status).not.toBe(0);
        expect(bad.stderr).toContain("unknown scenario 'storm'");
        const dir = tempDir('chainlab-scen');
        const file = join(dir, 'nobe.chain');
        writeFileSync(
            file,
            readFileSync(join(repo, 'samples/chains/appendix-a.chain'), 'utf-8') +
                '\ntarget solo {\n    local\n    rt-cores 0\n}\n',
        );
        const none = await chainlab(['run', file, '--target', 'solo', '--scenario', 'congested', '--iterations', '5']);
        expect(none.status).toBe(1);
        expect(none.stderr).toContain('need be-cores');
        expect(none.stderr).not.toContain('Traceback');
    });
});

describe('Ctrl-C during chainlab run', () => {
    test('stops the chain, keeps and reports what was measured, exits 130', async () => {
        const out = tempDir('chainlab-ctrlc');
        const child = spawn(
            process.execPath,
            [cli, 'run', 'samples/chains/appendix-a.chain', '--iterations', '1000000', '-o', out],
            { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
        );
        let stdout = '';
        let stderr = '';
        child.stdout.on('data', chunk => {
            stdout += chunk;
        });
        child.stderr.on('data', chunk => {
            stderr += chunk;
        });
        // interrupt once the chain is measuring (its binary exists in the cache and runs)
        const started = Date.now();
        while (
            Date.now() - started < 60_000 &&
            !spawnSync('ps', ['-eo', 'args'], { encoding: 'utf-8' }).stdout.includes(`--out ${out}`)
        ) {
            await new Promise(r => setTimeout(r, 100));
        }
        await new Promise(r => setTimeout(r, 1500));
        child.kill('SIGINT');
        const code = await new Promise<number | null>(resolve => child.on('exit', resolve));
        expect(code).toBe(130);
        expect(stderr).toContain('interrupted');
        expect(stdout).toMatch(/^baseline .* \d+\/1000000 STOPPED$/m);
        const report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf-8'));
        expect(report.status).toBe('stopped');
        const [{ completed }] = report.scenarios;
        expect(completed).toBeGreaterThan(0);
        const rows = readFileSync(join(out, 'baseline', 'latencies.csv'), 'utf-8')
            .trim()
            .split('\n');
        expect(rows.length).toBe(completed + 1);
        expect(spawnSync('ps', ['-eo', 'args'], { encoding: 'utf-8' }).stdout).not.toContain(`--out ${out}`);
    }, 120_000);
});
