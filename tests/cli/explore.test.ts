/**
 * `chainlab explore` on the sweep engine through the real CLI and backend: several components and candidate periods,
 * the Pareto front, the whole sweep's cost refused with a suggestion, --out/--resume, Ctrl-C keeping every finished
 * point, and a Dask scheduler with a worker started here as separate processes (the backend venv's `dask`).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { chainlab, cli, repo, tempDir } from './cli-helpers.js';

const CASE = 'samples/ptts/case-study.chain';
const SWEEP = ['explore', CASE, '--ptts', 'ConfigE', '--vary', 'GPU,Wall', '--step', '4 ms'];
const PERIODS = ['--periods', 'Wall=16.6ms,16.7ms'];

interface Point {
    offsets_ns: Record<string, number>;
    periods_ns: Record<string, number>;
    p99_ms: number;
    loss: number;
}

function oneLine(stderr: string, ...parts: string[]): void {
    const line = stderr.trim().split('\n')[0];
    for (const part of parts) expect(line, stderr).toContain(part);
    expect(stderr).not.toMatch(/Traceback|internal error|\n\s+at /);
}

describe('chainlab explore', () => {
    test('several components × candidate periods: every point, the best and the Pareto front of p99 and loss', async () => {
        const result = await chainlab([...SWEEP, ...PERIODS, '--pareto', 'p99,loss', '--json']);
        expect(result.status, result.stderr).toBe(0);
        const r = JSON.parse(result.stdout);
        expect(r.vary).toEqual(['GPU', 'Wall']);
        expect(r.periods_ns).toEqual({ Wall: [16_600_000, 16_700_000] });
        // GPU (16.6 ms) 5 offsets × Wall 5 offsets, for each of the 2 Wall periods
        expect(r.total_points).toBe(50);
        expect(r.points).toHaveLength(50);
        expect(r.complete).toBe(true);
        expect(new Set(r.points.map((p: Point) => p.periods_ns.Wall))).toEqual(new Set([16_600_000, 16_700_000]));
        expect(r.best.p99_ms).toBe(Math.min(...r.points.map((p: Point) => p.p99_ms)));
        const front: Point[] = r.pareto.points;
        for (const p of r.points as Point[]) {
            const beaten = r.points.some(
                (q: Point) => q.p99_ms <= p.p99_ms && q.loss <= p.loss && (q.p99_ms < p.p99_ms || q.loss < p.loss),
            );
            expect(front.some(f => JSON.stringify(f) === JSON.stringify(p))).toBe(!beaten);
        }
        expect(r.cost.eq_5_15).toBeGreaterThan(0);
    });

    test('the readable output names the engine, the cost, the best point and the front', async () => {
        const result = await chainlab([...SWEEP, ...PERIODS, '--pareto', 'p99,loss', '--objective', 'p50']);
        expect(result.status, result.stderr).toBe(0);
        expect(result.stdout).toMatch(/50 of 50 points \(offsets of GPU, Wall × 2 periods of Wall; exact, /);
        expect(result.stdout).toMatch(/cost: eq\. 5\.15 summed over the points/);
        expect(result.stdout).toMatch(/best for p50: GPU offset .* Wall period /);
        expect(result.stdout).toMatch(/Pareto front of p99 and loss \(\d+ points\)/);
    });

    test('--out writes every point with the model hash; --resume recomputes none; another model is refused', async () => {
        const dir = tempDir('chainlab-explore-out');
        const out = join(dir, 'sweep.csv');
        const first = await chainlab([...SWEEP, '--out', out, '--json']);
        expect(first.status, first.stderr).toBe(0);
        const lines = readFileSync(out, 'utf-8').trim().split('\n');
        expect(lines[0]).toBe(
            'key,model_hash,offset_ns.GPU,offset_ns.Wall,mean_ms,p50_ms,p99_ms,max_ms,loss,p_deadline',
        );
        expect(lines).toHaveLength(1 + 25);
        expect(new Set(lines.slice(1).map(l => l.split(',')[1])).size).toBe(1);
        const again = await chainlab([...SWEEP, '--out', out, '--resume', '--json']);
        expect(again.status, again.stderr).toBe(0);
        const r = JSON.parse(again.stdout);
        expect(r.resumed_points).toBe(25);
        expect(r.points).toEqual(JSON.parse(first.stdout).points);
        expect(readFileSync(out, 'utf-8').trim().split('\n')).toHaveLength(1 + 25);

        const overwrite = await chainlab([...SWEEP, '--out', out]);
        expect(overwrite.status).toBe(1);
        oneLine(overwrite.stderr, out, 'already exists', '--resume');
        const other = await chainlab([...SWEEP.map(a => (a === 'ConfigE' ? 'ConfigD' : a)), '--out', out, '--resume']);
        expect(other.status).toBe(1);
        oneLine(other.stderr, out, 'another model');
    });

    test.each([
        [['--periods', 'Wall'], '--periods takes COMPONENT=PERIOD'],
        [['--periods', 'Wall=16.6 parsecs'], 'positive duration'],
        [['--pareto', 'p99'], '--pareto takes two different objectives'],
        [['--pareto', 'p99,speed'], '--pareto is one of'],
        [['--scheduler', 'localhost'], '--scheduler takes a Dask scheduler address tcp://HOST:PORT'],
        [['--engine', 'gpu'], '--engine is one of process, local'],
        [['--resume'], '--resume continues the file of --out'],
        [['--periods', 'Cam=16ms'], "no component named 'Cam'"],
        [
            ['--max-operations', '1000'],
            'operations (eq. 5.15 summed over 25 points; limit 1e+03): use a step of at least',
        ],
    ])('explore %s is refused in one line', async (extra, message) => {
        const result = await chainlab([...SWEEP, ...extra]);
        expect(result.status).not.toBe(0);
        oneLine(result.stderr, message);
    });

    test('without --vary or --periods there is nothing to sweep', async () => {
        const result = await chainlab(['explore', CASE, '--ptts', 'ConfigE']);
        expect(result.status).toBe(1);
        oneLine(result.stderr, 'explore needs --vary COMPONENTS or --periods');
    });

    test('too costly with candidate periods: the costliest period is named', async () => {
        const result = await chainlab([...SWEEP, '--periods', 'Wall=16.6ms,16.67ms', '--max-operations', '1000000']);
        expect(result.status).toBe(1);
        oneLine(result.stderr, 'fewer periods (the costliest, Wall=16.67 ms');
    });

    test('Ctrl-C keeps every finished point: the reply and the file have them, --resume finishes the rest', async () => {
        const dir = tempDir('chainlab-explore-stop');
        const out = join(dir, 'sweep.csv');
        // 16.67 ms makes each point cost ~1e6 operations (a long hyper-period): the sweep runs long enough to stop
        const args = [...SWEEP, '--step', '1 ms', '--periods', 'Wall=16.67ms', '--engine', 'local', '--out', out];
        const child = spawn(process.execPath, [cli, ...args, '--json'], { cwd: repo });
        let stdout = '';
        let stderr = '';
        child.stdout.setEncoding('utf-8').on('data', (s: string) => (stdout += s));
        child.stderr.setEncoding('utf-8').on('data', (s: string) => (stderr += s));
        const rows = () => (existsSync(out) ? readFileSync(out, 'utf-8').trim().split('\n').length - 1 : 0);
        while (rows() < 3 && child.exitCode === null) await new Promise(r => setTimeout(r, 100));
        child.kill('SIGINT');
        const status = await new Promise<number | null>(resolve => child.on('close', resolve));
        expect(status, stderr).toBe(130);
        const r = JSON.parse(stdout);
        expect(r.complete).toBe(false);
        expect(r.done_points).toBeLessThan(r.total_points);
        expect(rows()).toBe(r.done_points);
        expect(stderr).toContain(`stopped after ${r.done_points} of ${r.total_points} points`);
        const rest = await chainlab([...args, '--resume', '--json']);
        expect(rest.status, rest.stderr).toBe(0);
        const whole = JSON.parse(rest.stdout);
        expect(whole.resumed_points).toBe(r.done_points);
        expect(whole.done_points).toBe(whole.total_points);
        expect(readFileSync(out, 'utf-8').trim().split('\n')).toHaveLength(1 + whole.total_points);
    }, 240_000);
});

describe('chainlab explore --scheduler', () => {
    const dask = join(repo, 'backend', '.venv', 'bin', 'dask');
    const started: ChildProcess[] = [];
    afterAll(async () => {
        for (const p of started.reverse()) p.kill('SIGTERM');
        await Promise.all(started.map(p => new Promise(r => (p.exitCode !== null ? r(null) : p.on('close', r)))));
    });

    function freePort(): Promise<number> {
        return new Promise(resolve => {
            const server = createServer().listen(0, '127.0.0.1', () => {
                const port = (server.address() as { port: number }).port;
                server.close(() => resolve(port));
            });
        });
    }

    test('an existing scheduler with a worker (separate processes) gives the same points as this process', async () => {
        const port = await freePort();
        const address = `tcp://127.0.0.1:${port}`;
        const quiet = { stdio: 'ignore' as const };
        started.push(
            spawn(dask, ['scheduler', '--host', '127.0.0.1', '--port', String(port), '--no-dashboard'], quiet),
        );
        started.push(
            spawn(dask, ['worker', address, '--nthreads', '1', '--host', '127.0.0.1', '--no-dashboard'], quiet),
        );
        const remote = await chainlab([...SWEEP, ...PERIODS, '--scheduler', address, '--json']);
        expect(remote.status, remote.stderr).toBe(0);
        const here = await chainlab([...SWEEP, ...PERIODS, '--engine', 'process', '--json']);
        const [r, h] = [JSON.parse(remote.stdout), JSON.parse(here.stdout)];
        expect(r.engine).toBe(address);
        expect(r.workers).toBe(1);
        expect(r.points).toEqual(h.points);
    }, 240_000);

    test('a scheduler that is not there is one clear line', async () => {
        const port = await freePort();
        const result = await chainlab([...SWEEP, '--scheduler', `tcp://127.0.0.1:${port}`]);
        expect(result.status).toBe(1);
        oneLine(result.stderr, `cannot reach the Dask scheduler at tcp://127.0.0.1:${port}`);
    }, 120_000);
});
