/** analyze, simulate, explore, plan and synth through the real CLI and the real Python backend. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import { chainlab, tempDir } from './cli-helpers.js';

const FIG52 = 'samples/ptts/thesis-fig5-2.chain';

describe('chainlab analyze', () => {
    test('--json gives the documented fields; the thesis example has hyper-period 40600 ms and 203 roots', async () => {
        const result = await chainlab(['analyze', FIG52, '--ptts', 'Fig52', '--json']);
        expect(result.stderr).toBe('');
        const r = JSON.parse(result.stdout);
        for (const key of [
            'hyperperiod_ms',
            'roots',
            'distribution',
            'mean_ms',
            'std_ms',
            'min_ms',
            'max_ms',
            'percentiles',
            'loss_probability',
            'analysis_ms',
        ]) {
            expect(r).toHaveProperty(key);
        }
        expect(r.hyperperiod_ms).toBe(40600);
        expect(r.roots).toBe(203);
        expect(Object.keys(r.percentiles).sort()).toEqual(['50', '90', '99', '99.9']);
        const total = r.distribution.reduce((s: number, [, p]: [number, number]) => s + p, 0);
        expect(total).toBeCloseTo(1, 9);
        const xs = r.distribution.map(([x]: [number, number]) => x);
        expect(xs).toEqual([...xs].sort((a, b) => a - b));
        expect(r.distribution.every(([, p]: [number, number]) => p > 0)).toBe(true);
        expect(r.loss_probability).toBeGreaterThan(1.17e-6);
    });

    test('the readable form shows percentiles, requirements and a text CDF; a failed requirement exits 3', async () => {
        const result = await chainlab(['analyze', 'samples/ptts/case-study.chain', '--ptts', 'ConfigD']);
        expect(result.stdout).toMatch(/p50 .* p90 .* p99 .* p99\.9 /);
        expect(result.stdout).toContain('CDF P(latency <= x)');
        expect(result.stdout).toMatch(/requirements\n/);
        expect([0, 3]).toContain(result.status);
        const dir = tempDir('chainlab-analyze');
        const file = join(dir, 'strict.chain');
        writeFileSync(
            file,
            'ptts T {\n  component A period 10 ms etp uniform 1 ms .. 9 ms\n  component B period 7 ms etp point 1 ms\n  require latency p99 < 2 ms\n}\n',
        );
        const strict = await chainlab(['analyze', file]);
        expect(strict.status).toBe(3);
        expect(strict.stdout).toMatch(/FAIL +latency p99 < 2 ms/);
    });

    test('an unknown ptts is a clear error naming what exists', async () => {
        const result = await chainlab(['analyze', FIG52, '--ptts', 'Nope']);
        expect(result.status).toBe(1);
        expect(result.stderr).toContain("has no ptts named 'Nope' (it has: Fig52, Fig57)");
        expect(result.stderr).not.toMatch(/Traceback|internal error/);
    });

    test('an analysis above the limit is refused with nearby periods and the simulator', async () => {
        const result = await chainlab([
            'analyze',
            'samples/ptts/table5-1.chain',
            '--ptts',
            'ConfigC',
            '--max-trees',
            '1000',
        ]);
        expect(result.status).toBe(1);
        expect(result.stderr).toMatch(/latency trees/);
        expect(result.stderr).toMatch(/simulat/);
        expect(result.stderr).toMatch(/proposal|period/);
    });
});

describe('chainlab simulate and explore', () => {
    test('simulate reports a confidence band and the KS distance to the exact result', async () => {
        const result = await chainlab(['simulate', FIG52, '--ptts', 'Fig52', '--iterations', '2000', '--json']);
        expect(result.status).toBe(0);
        const r = JSON.parse(result.stdout);
        expect(r.iterations).toBe(2000);
        expect(r.ks_distance).toBeLessThan(r.dkw_epsilon);
    });

    test('explore sweeps an offset in parallel and names the best one', async () => {
        const result = await chainlab([
            'explore',
            'samples/ptts/case-study.chain',
            '--ptts',
            'ConfigE',
            '--vary',
            'Wall',
            '--step',
            '4 ms',
            '--json',
        ]);
        expect(result.status).toBe(0);
        const r = JSON.parse(result.stdout);
        expect(r.points.length).toBe(5); // 0, 4, 8, 12, 16 ms of a 16.6 ms period
        expect(r.points.map((p: { p99_ms: number }) => p.p99_ms)).toContain(r.best.p99_ms);
        expect(Math.min(...r.points.map((p: { p99_ms: number }) => p.p99_ms))).toBe(r.best.p99_ms);
    });

    test('explore refuses an unknown component', async () => {
        const result = await chainlab([
            'explore',
            'samples/ptts/case-study.chain',
            '--ptts',
            'ConfigE',
            '--vary',
            'C9',
        ]);
        expect(result.status).toBe(1);
        expect(result.stderr).toContain("no component named 'C9'");
    });
});

describe('chainlab plan and synth', () => {
    test('Appendix A: 6 sub-boxes, 3 buffers of 262144 B, arena 786432 B, 8 signals of which 4 with a token', async () => {
        const result = await chainlab(['plan', 'samples/chains/appendix-a.chain', '--json']);
        expect(result.status).toBe(0);
        const plan = JSON.parse(result.stdout);
        expect(plan.sub_boxes).toHaveLength(6);
        expect(plan.buffers.map((b: { size: number }) => b.size)).toEqual([262144, 262144, 262144]);
        expect(plan.arena_bytes).toBe(786432);
        expect(plan.signals).toHaveLength(8);
        expect(plan.signals.filter((s: { initial_tokens: number }) => s.initial_tokens > 0)).toHaveLength(4);
        expect(plan.threads[0].sub_boxes).toEqual(['f8.0', 'f6.0', 'f7.0', 'f9.0']);
        expect(plan.threads[1].sub_boxes).toEqual(['f6.1', 'f7.1']);
    });

    test('the readable plan shows threads, buffers, signals and the predicted latency', async () => {
        const result = await chainlab(['plan', 'samples/xray.chain', '--schedule', 'predictable', '--threads', '2']);
        expect(result.status).toBe(0);
        expect(result.stdout).toMatch(/predictable schedule on 2 thread\(s\)/);
        expect(result.stdout).toMatch(/arena .* lower bound .* sum of buffers/);
        expect(result.stdout).toContain('predicted latency');
    });

    test('bad options are refused before anything runs', async () => {
        expect((await chainlab(['plan', 'samples/xray.chain', '--schedule', 'fastest'])).stderr).toContain(
            "--schedule is one of simple, barrier, fixed, predictable, reduced, not 'fastest'",
        );
        const tooMany = await chainlab(['plan', 'samples/xray.chain', '--threads', '9']);
        expect(tooMany.status).toBe(1);
        expect(tooMany.stderr).not.toMatch(/Traceback|internal error/);
    });

    test('synth prints a chain that checks clean and plans', async () => {
        const synth = await chainlab(['synth', '--boxes', '40', '--seed', '7']);
        expect(synth.status).toBe(0);
        const dir = tempDir('chainlab-synth');
        const file = join(dir, 'synth.chain');
        writeFileSync(file, synth.stdout);
        expect((await chainlab(['check', file])).status).toBe(0);
        expect((await chainlab(['plan', file, '--json'])).status).toBe(0);
    });
});
