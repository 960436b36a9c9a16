/**
 * "Update ETP from measurement": a run's latencies.csv becomes `etp pmf { … }` in place of `etp chain X`;
 * the edited model checks clean and the PTTS analysis runs on it. The plot's measured series and
 * percentiles agree with the raw latencies.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, test } from 'vitest';
import { chainEtpRanges, pmfText, readLatencies } from '../src/measurement';
import { measuredPoints, percentile } from '../src/plot-data';

const repo = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const dir = mkdtempSync(join(tmpdir(), 'chainlab-etp-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A run's latencies: 2,000 frames between 20 and 30 ms, skewed (deterministic). */
function writeRun(): { csv: string; latencies: number[] } {
    const latencies = Array.from({ length: 2000 }, (_, i) => Math.round(20e6 + 10e6 * ((i * 7919) % 2000 / 2000) ** 2));
    const lines = ['iteration,start_ns,end_ns', ...latencies.map((l, i) => `${i},${1e9 + i * 33.3e6},${1e9 + i * 33.3e6 + l}`)];
    const csv = join(dir, 'latencies.csv');
    writeFileSync(csv, `${lines.join('\n')}\n`);
    return { csv, latencies };
}

/** The chainlab CLI: exit status, stdout and stderr. */
const cli = (...args: string[]) => {
    const r = spawnSync(process.execPath, [join(repo, 'language', 'bin', 'chainlab.js'), ...args], { encoding: 'utf-8', cwd: repo });
    return { status: r.status, stdout: r.stdout, stderr: r.stderr };
};

describe('update ETP from measurement', () => {
    test('the latencies become a pmf of exact decimals summing to one', () => {
        const { csv, latencies } = writeRun();
        expect(readLatencies(csv)).toEqual(latencies);
        const text = pmfText(latencies);
        const entries = [...text.matchAll(/([\d.]+) ms: ([\d.]+)/g)].map(m => [Number(m[1]), m[2]] as const);
        expect(entries.length).toBeGreaterThan(5);
        expect(entries.length).toBeLessThanOrEqual(20);
        expect(entries.every(([ms]) => ms >= 20 && ms <= 30.01)).toBe(true);
        const millionths = entries.reduce((sum, [, p]) => sum + Math.round(Number(p) * 1e6), 0);
        expect(millionths).toBe(1e6);
    });

    test('written back into the sample, the model checks clean and analyses', () => {
        const { csv } = writeRun();
        const sample = readFileSync(join(repo, 'samples', 'xray.chain'), 'utf-8');
        const ranges = chainEtpRanges(sample, 'XRay');
        expect(ranges).toHaveLength(1);
        const [start, end] = ranges[0];
        const edited = sample.slice(0, start) + `etp ${pmfText(readLatencies(csv))}` + sample.slice(end);
        const file = join(dir, 'xray-measured.chain');
        writeFileSync(file, edited);
        const checked = cli('check', file);
        expect(checked.status, checked.stderr).toBe(0);
        expect(checked.stdout + checked.stderr).toMatch(/1 file\(s\) checked: 0 error\(s\)/);
        const analyzed = cli('analyze', file, '--ptts', 'System', '--json');
        expect([0, 3], analyzed.stderr).toContain(analyzed.status); // 3: the analysis ran and a requirement fails
        const analysis = JSON.parse(analyzed.stdout);
        expect(analysis.percentiles['99']).toBeGreaterThan(0);
        expect(analyzed.status).toBe(analysis.requirements.every((r: { passed: boolean }) => r.passed) ? 0 : 3);
    });

    test('the plot series of a measurement: a pmf on 0.05 ms bins whose p50/p99 match the raw latencies', () => {
        const { latencies } = writeRun();
        const points = measuredPoints(latencies);
        expect(points.reduce((sum, [, p]) => sum + p, 0)).toBeCloseTo(1, 9);
        const sorted = [...latencies].sort((a, b) => a - b);
        for (const q of [0.5, 0.99]) {
            const exact = sorted[Math.ceil(q * sorted.length) - 1] / 1e6;
            expect(Math.abs(percentile(points, q) - exact)).toBeLessThanOrEqual(0.05 + 1e-9); // one 0.05 ms bin
        }
    });
});
