/**
 * `chainlab experiment heuristics` as a real process: three synthetic chains on the default LocalCluster, the
 * X-ray chain of the samples for Table I; the files it writes, a resume that plans nothing again, and refusals.
 */
import { describe, expect, it } from 'vitest';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainlab, tempDir } from './cli-helpers';

describe('chainlab experiment heuristics', () => {
    const out = join(tempDir('experiment'), 'out');

    it('plans every heuristic x allocator of 3 chains and prints the tables', async () => {
        const r = await chainlab(['experiment', 'heuristics', '--chains', '3', '--boxes', '30', '--out', out]);
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
        expect(r.stdout).toMatch(/## Table I shape: chain XRay \(\d+ sub-boxes\)/);
        expect(r.stdout).toMatch(/## Table II shape: synthetic chain seed 0 \(hash [0-9a-f]{16}\)/);
        expect(r.stdout).toMatch(/## All 3 chains: ratio to the chain's simple\/naive plan/);
        expect(r.stdout).toMatch(/## Table III shape: reduced heuristic, 4\/8\/16 threads/);
        // eight rows per table, in the papers' order; units in the headers; the papers' numbers beside ours
        expect(r.stdout).toContain('| schedule | memory | arena KiB | x̄ µs | σ µs | p99 µs | paper KiB |');
        expect(r.stdout).toMatch(/\| simple \| naive \| 1\.000 \(1\.000–1\.000\) \|/);
        expect(r.stdout).toMatch(
            /\| reduced \| reuse \| [\d,]+ \| [\d,]+ \| [\d.,]+ \| [\d,]+ \| 7,486 \| 1,871 \| 8 \|/,
        );
        expect(r.stdout).toMatch(
            /3 of 3 chain\(s\) \(0 read back from results.csv\) in [\d.]+ s \(planning [\d.]+ s on local/,
        );
        const csv = readFileSync(join(out, 'results.csv'), 'utf-8').trim().split('\n');
        expect(csv).toHaveLength(1 + 1 + 3); // header, XRay, three synthetic chains
        expect(csv[0]).toMatch(/^key,model_hash,chain,chain_seed,chain_hash,/);
        expect(
            csv
                .slice(2)
                .map(l => l.split(',')[0])
                .sort(),
        ).toEqual([0, 1, 2].map(s => `synth-b30-t4-s${s}`));
        expect(readFileSync(join(out, 'tables.md'), 'utf-8')).toContain('## Table II shape');
        for (const f of ['boxplot.png', 'boxplot.svg']) expect(existsSync(join(out, f))).toBe(true);
    }, 180_000);

    it('resumes without planning a chain again; an existing result is never overwritten', async () => {
        const before = readFileSync(join(out, 'results.csv'), 'utf-8');
        const refused = await chainlab(['experiment', 'heuristics', '--chains', '3', '--boxes', '30', '--out', out]);
        expect(refused.status).toBe(1);
        expect(refused.stderr).toMatch(/results\.csv already exists: resume it \(--resume\)/);
        const again = await chainlab([
            'experiment',
            'heuristics',
            '--chains',
            '3',
            '--boxes',
            '30',
            '--out',
            out,
            '--resume',
            '--json',
        ]);
        expect(again.status).toBe(0);
        const reply = JSON.parse(again.stdout);
        expect(reply.chains_resumed).toBe(3);
        expect(reply.engine).toMatch(/^none/);
        expect(readFileSync(join(out, 'results.csv'), 'utf-8')).toBe(before);
    }, 180_000);

    it('refuses bad options with one line', async () => {
        const r = await chainlab(['experiment', 'heuristics', '--chains', '0']);
        expect(r.status).toBe(2); // a bad option value is a usage error, like every command's
        expect(r.stderr).toMatch(/--chains takes a whole number from 1 to 100000, not '0'/);
        const s = await chainlab(['experiment', 'heuristics', '--chains', '1', '--scheduler', 'nowhere']);
        expect(s.status).toBe(2);
        expect(s.stderr).toMatch(/--scheduler is 'local', 'process' or a Dask scheduler address/);
        const t = await chainlab([
            'experiment',
            'heuristics',
            '--chains',
            '1',
            '--target',
            'nope',
            '--out',
            tempDir('x'),
        ]);
        expect(t.status).toBe(1);
        expect(t.stderr).toMatch(/no target named 'nope'/);
        expect(t.stderr).not.toMatch(/Traceback/);
    }, 120_000);
});
