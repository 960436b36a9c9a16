/**
 * `chainlab import-timings` as a real process with the real backend: CSVs of samples and of bins, the unit in a
 * column or the header, cost and etp, --dry-run's diff, and refusals with the CSV's row that leave the model as it was.
 */
import { describe, expect, it } from 'vitest';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { chainlab as run, repo, tempDir } from './cli-helpers.js';

const dir = tempDir('import-timings');
const chainlab = (args: string[]) => run(args, { cwd: dir, timeoutMs: 120_000 });

let copies = 0;
/** A fresh copy of a sample model in the test folder, and a CSV beside it. */
function setUp(sample: string, csv: string): { model: string; csv: string; original: string } {
    copies++;
    const model = `m${copies}.chain`;
    copyFileSync(join(repo, 'samples', sample), join(dir, model));
    writeFileSync(join(dir, `t${copies}.csv`), csv);
    return { model, csv: `t${copies}.csv`, original: readFileSync(join(dir, model), 'utf-8') };
}

const read = (file: string) => readFileSync(join(dir, file), 'utf-8');

async function expectChecks(model: string): Promise<void> {
    const check = await chainlab(['check', model]);
    expect(check.stderr).toContain('0 error(s)');
    expect(check.status).toBe(0);
}

describe('chainlab import-timings', () => {
    it('sets the median of per-sample times (unit in the header) as the cost of boxes, by box or instance name', async () => {
        const t = setUp('chains/fig3-5.chain', 'box,time [us]\nConv,3100\nConv,3300.5\ngain,800\nConv,3150\n');
        const r = await chainlab(['import-timings', t.model, t.csv, '--chain', 'Fig35']);
        expect(r.stderr).toContain('chain Fig35: box Conv: cost 3.15 ms (median of 3 samples)');
        expect(r.stderr).toContain('box Gain: cost 800 us (median of 1 sample)');
        expect(r.status).toBe(0);
        const text = read(t.model);
        expect(text).toMatch(/kernel convolution\(5\)\n {4}split rows {2}depends halo 2\n {4}cost 3\.15 ms\n\}/);
        expect(text).toContain('cost 800 us');
        expect(text.split('\n').length).toBe(t.original.split('\n').length);
        await expectChecks(t.model);
    });

    it('writes the binned times (a count and a unit column) as etp pmf of ptts components', async () => {
        const t = setUp(
            'ptts/thesis-fig5-2.chain',
            'Component;Time;Count;Unit\nC0;50;3;ms\nC0;51;1;ms\nC1;25500;2;µs\n',
        );
        const r = await chainlab(['import-timings', t.model, t.csv, '--ptts', 'Fig52', '--as', 'etp']);
        expect(r.status).toBe(0);
        const text = read(t.model);
        expect(text).toContain('component C0  period 200 ms  offset  0 ms  etp pmf { 50 ms: 0.75, 51 ms: 0.25 }\n');
        expect(text).toContain('component C1  period  58 ms  offset 30 ms  etp pmf { 25500 us: 1 }\n');
        expect(text).toContain('component C2  period  56 ms  offset  8 ms  etp point 5 ms\n');
        await expectChecks(t.model);
    });

    it('inserts an etp where a box has none, as its neighbours are laid out, and p99 as a component cost', async () => {
        const rows = Array.from({ length: 200 }, (_, i) => `Gain,${0.5 + (i % 100) / 1000}\n`).join('');
        const t = setUp('chains/fig3-5.chain', `name,time_ms\n${rows}`);
        const r = await chainlab(['import-timings', t.model, t.csv, '--as', 'etp']);
        expect(r.status).toBe(0);
        expect(read(t.model)).toMatch(
            / {4}cost 0\.8 ms\n {4}etp pmf \{ 0\.5 ms: 0\.01, 0\.505 ms: 0\.05, [^\n]* 0\.6 ms: 0\.04 \}\n\}/,
        );
        await expectChecks(t.model);
        const p = setUp('ptts/thesis-fig5-2.chain', 'task,duration (ms)\nC2,4\nC2,6\nC2,5\n');
        const q = await chainlab([
            'import-timings',
            p.model,
            p.csv,
            '--ptts',
            'Fig57',
            '--as',
            'cost',
            '--statistic',
            'max',
        ]);
        expect(q.status).toBe(0);
        expect(read(p.model)).toMatch(
            /ptts Fig57 \{[\s\S]*component C2 {2}period {2}56 ms {2}offset {2}8 ms {2}etp point 6 ms\n\}/,
        );
    });

    it('--dry-run prints a unified diff and writes nothing', async () => {
        const t = setUp('chains/fig3-5.chain', 'box,time_ms\nMul,1.25\n');
        const r = await chainlab(['import-timings', t.model, t.csv, '--dry-run', '--statistic', 'mean']);
        expect(r.status).toBe(0);
        expect(r.stdout).toContain(`--- a/${t.model}\n+++ b/${t.model}\n@@ -72,7 +72,7 @@\n`);
        expect(r.stdout).toContain('-    cost 0.9 ms\n+    cost 1.25 ms\n');
        expect(read(t.model)).toBe(t.original);
    });

    it.each([
        [
            'an unknown name',
            'box,time_ms\nConv,3\nGian,1\n',
            /t\d+\.csv:3: unknown name 'Gian' .*did you mean 'Gain'\?/,
        ],
        ['a missing unit', 'box,time\nConv,3\n', /t\d+\.csv:1: no unit: name it in the header/],
        ['a negative time', 'box,time_ms\nConv,3\nConv,-1\n', /t\d+\.csv:3: time '-1' is negative/],
        ['a non-numeric time', 'box,time_ms\nConv,3\nConv,fast\n', /t\d+\.csv:3: time 'fast' is not a number/],
        ['a row with too many fields', 'box,time_ms\nConv,3,4\n', /t\d+\.csv:2: 3 field\(s\), the header has 2/],
        ['an empty file', '', /t\d+\.csv: empty: no header row/],
    ])('refuses %s with the row and leaves the model as it was', async (_what, csv, message) => {
        const t = setUp('chains/fig3-5.chain', csv);
        const r = await chainlab(['import-timings', t.model, t.csv]);
        expect(r.status).toBe(1);
        expect(r.stderr).toMatch(message);
        expect(r.stderr).toMatch(/^chainlab: error: /);
        expect(r.stderr).not.toMatch(/Traceback|internal error/);
        expect(read(t.model)).toBe(t.original);
    });

    it('refuses an unknown chain and two names for one box in words', async () => {
        const t = setUp('chains/fig3-5.chain', 'box,time_ms\nGain,1\ngain,2\n');
        const r = await chainlab(['import-timings', t.model, t.csv, '--chain', 'Nope']);
        expect(r.status).toBe(1);
        expect(r.stderr).toContain('no chain named Nope (chain Fig35)');
        const s = await chainlab(['import-timings', t.model, t.csv]);
        expect(s.status).toBe(1);
        expect(s.stderr).toContain('box Gain has times under two names, Gain and gain');
        expect(read(t.model)).toBe(t.original);
    });
});
