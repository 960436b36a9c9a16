/**
 * The plot's data from real replies (tests/rpc-vectors: the backend's own replies on the samples, lists
 * shortened): what is drawn is the reply's, in ms; the verdicts and margins follow the reply's `passed`; the
 * distribution arithmetic keeps a tail of 10⁻⁹ next to 1; the CSV holds every point.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, test } from 'vitest';
import type { AnalyzeResult, ExploreResult, RequirementResult, RunReport } from '@chainlab/contract';
import { ccdf, cdf, histogram, niceStep, quantile, type Point } from '../src/distribution';
import { exploreChart } from '../src/explore-data';
import { plotCsv } from '../src/plot-csv';
import { analysisPlot, reportOf, requirementVerdict, runPlot, withComparison } from '../src/plot-data';

const vectors = join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'tests', 'rpc-vectors');
const reply = <T>(name: string) => (JSON.parse(readFileSync(join(vectors, name), 'utf-8')) as { value: T }).value;
const analysis = reply<AnalyzeResult>('valid-ptts-analyze.json');
const run = reply<RunReport>('valid-deploy-run.json');
const sweep = reply<ExploreResult>('valid-ptts-explore.json');

describe('distribution arithmetic', () => {
    const pmf: Point[] = [
        [3, 1e-9],
        [1, 0.5],
        [2, 0.5 - 1e-9],
    ];
    test('CDF and CCDF sorted by latency; the tail keeps 10⁻⁹ next to 1', () => {
        expect(cdf(pmf).map(([ms]) => ms)).toEqual([1, 2, 3]);
        expect(cdf(pmf).at(-1)![1]).toBeCloseTo(1, 12);
        const tail = ccdf(pmf);
        expect(tail[1][1]).toBe(1e-9); // 1 − (1 − 10⁻⁹) would lose it to rounding
        expect(tail[2][1]).toBe(0);
    });
    test('quantiles from the tail', () => {
        expect(quantile(pmf, 0.5)).toBe(1);
        expect(quantile(pmf, 0.9)).toBe(2);
        expect(quantile(pmf, 1 - 1e-10)).toBe(3);
    });
    test('bin widths on the 1-2-5 ladder; histograms keep the probability', () => {
        expect(niceStep(68, 60)).toBe(2);
        expect(niceStep(0.3, 60)).toBe(0.005);
        expect(niceStep(7, 60)).toBe(0.2);
        const bins = histogram(analysis.distribution, 0.2);
        expect(bins.reduce((s, [, p]) => s + p, 0)).toBeCloseTo(1, 12);
        expect(bins.map(([start]) => start)).toEqual([64, 64.2]);
    });
});

describe('analysis plot', () => {
    const plot = analysisPlot(analysis);
    test("the reply's distribution, percentiles as markers, one panel per ptts", () => {
        expect(plot.key).toBe('ptts System (xray.chain)');
        expect(plot.series).toEqual([{ name: 'predicted', kind: 'predicted', points: analysis.distribution }]);
        expect(plot.markers).toEqual([
            { series: 'predicted', level: '50', ms: 110.2 },
            { series: 'predicted', level: '99', ms: 128 },
            { series: 'predicted', level: '99.9', ms: 129.9 },
        ]);
        expect(plot.stats[0]).toMatchObject({ p50: 110.2, p99: 128, p999: 129.9, loss: analysis.loss_probability });
    });
    test('every requirement with its verdict and margin: latency, probability, loss', () => {
        expect(plot.requirements.map(r => [r.text, r.value, r.passed, r.margin])).toEqual([
            ['latency p99 < 160 ms', 'p99 = 128 ms', true, '32 ms (20 %) below the bound'],
            [
                'latency ≤ 200 ms with probability ≥ 99.99 %',
                'P(> 200 ms) < 10⁻¹², allowed 10⁻⁴',
                true,
                // the shortened vector's distribution ends at 64.3 ms
                'p99.99 = 64.3 ms: 136 ms below the deadline',
            ],
            ['loss < 10⁻⁴', 'loss = 1.62·10⁻⁷', true, '619× below the limit'],
        ]);
        expect(plot.requirements.map(r => [r.ms, r.exceedance])).toEqual([
            [160, expect.closeTo(0.01, 12)],
            [200, expect.closeTo(1e-4, 12)],
            [undefined, undefined],
        ]);
    });
    test("a failing requirement: the verdict is the reply's, the margin says by how much", () => {
        const [percentile, deadline, loss] = analysis.requirements;
        const failed = (r: RequirementResult, change: Partial<RequirementResult>) =>
            requirementVerdict({ ...r, ...change, passed: false, pass: false }, analysis.distribution);
        expect(failed(percentile, { bound_ms: 120 })).toMatchObject({
            passed: false,
            margin: '8 ms (6.67 %) over the bound',
        });
        expect(failed(deadline, { bound_ms: 64.1, probability: 0.9, value: 0.9 })).toMatchObject({
            passed: false,
            value: 'P(> 64.1 ms) = 0.1, allowed 10⁻⁴',
            margin: 'p99.99 = 64.3 ms: 0.2 ms over the deadline',
        });
        expect(failed(loss, { limit: 1e-8 })).toMatchObject({ passed: false, margin: '16.2× over the limit' });
    });
});

describe('run plot', () => {
    const plot = runPlot('App', 'bench', run);
    const baseline = run.scenarios[0];
    test('measured and predicted in ms, KS and percentiles of each measurement, the report', () => {
        expect(plot.key).toBe(`run ${run.out_dir.split('/').at(-1)}`);
        expect(plot.series.map(s => [s.name, s.kind, s.ks])).toEqual([
            ['predicted', 'predicted', undefined],
            ...run.scenarios.map(s => [`measured ${s.scenario}`, 'measured', s.ks]),
        ]);
        expect(plot.series[0].points).toEqual(run.predicted.points.map(([ns, p]) => [ns / 1e6, p]));
        expect(plot.markers.filter(m => m.series === 'measured baseline').map(m => m.ms)).toEqual(
            (['50', '99', '99.9'] as const).map(q => baseline.quantiles_ms![q].measured),
        );
        expect(plot.markers.filter(m => m.series === 'predicted').map(m => m.ms)).toEqual(
            (['50', '99', '99.9'] as const).map(q => baseline.quantiles_ms![q].predicted),
        );
        // the table's predicted p50/p99 are the markers' (one number for one thing)
        const predictedRow = plot.stats.find(s => s.name === 'predicted')!;
        expect([predictedRow.p50, predictedRow.p99]).toEqual([
            baseline.quantiles_ms!['50'].predicted,
            baseline.quantiles_ms!['99'].predicted,
        ]);
        expect(plot.report).toBe(`${run.out_dir}/report.html`);
        expect(plot.notes).toEqual(run.diagnosis);
        expect(plot.warnings).toBeUndefined();
    });
    test('the report comes from the files the reply lists, else the summary', () => {
        const { scenarios, predicted, diagnosis } = run;
        expect(reportOf({ scenarios, predicted, diagnosis, files: ['/x/report.json'] })).toBeUndefined();
        expect(reportOf({ scenarios, predicted, diagnosis, files: ['/x/report.html'] })).toBe('/x/report.html');
        expect(reportOf({ scenarios, predicted, diagnosis, summary: 'report: /y/report.html' })).toBe('/y/report.html');
    });
    test("Compare with…: the other result's curves, named after it, replacing an earlier overlay", () => {
        const once = withComparison(analysisPlot(analysis), plot);
        const twice = withComparison(once, plot);
        const label = run.out_dir.split('/').at(-1);
        expect(twice.series.map(s => [s.name, s.kind])).toEqual([
            ['predicted', 'predicted'],
            [`${label}: predicted`, 'compared'],
            [`${label}: measured baseline`, 'compared'],
            [`${label}: measured congested`, 'compared'],
            [`${label}: measured throttled`, 'compared'],
        ]);
        // each overlaid curve has its row of statistics, after the result's own
        expect(twice.stats.map(s => s.name)).toEqual(twice.series.map(s => s.name));
        expect(twice.stats.find(s => s.name === `${label}: measured baseline`)).toEqual({
            ...plot.stats.find(s => s.name === 'measured baseline'),
            name: `${label}: measured baseline`,
        });
    });
    test("the chain's requirements, judged on the prediction and each scenario, drawn once per bound", () => {
        const judged = (value_ms: number): RequirementResult => ({
            kind: 'percentile',
            op: '<',
            percentile: 99,
            bound_ms: 1,
            value: value_ms,
            value_ms,
            probability: 0.99,
            passed: value_ms < 1,
            pass: value_ms < 1,
        });
        const [first, ...rest] = run.scenarios;
        const withRequirements = {
            ...run,
            predicted: { ...run.predicted, requirements: [judged(0.5)] },
            scenarios: [{ ...first, requirements: [judged(1.5)] }, ...rest],
        };
        const verdicts = runPlot('App', 'bench', withRequirements).requirements;
        expect(verdicts.map(r => [r.series, r.text, r.value, r.passed])).toEqual([
            ['predicted', 'latency p99 < 1 ms', 'p99 = 0.5 ms', true],
            [`measured ${first.scenario}`, 'latency p99 < 1 ms', 'p99 = 1.5 ms', false],
        ]);
        expect(verdicts[1].margin).toBe('0.5 ms (50 %) over the bound');
    });
    test('the CSV has every point of every curve', () => {
        const lines = plotCsv(plot).trim().split('\n');
        expect(lines).toHaveLength(1 + plot.series.reduce((n, s) => n + s.points.length, 0));
        // the vector's 3 points, normalised
        const [name, kind, ...numbers] = lines[1].split(',');
        expect([name, kind]).toEqual(['"predicted"', '"predicted"']);
        numbers.map(Number).forEach((v, i) => expect(v).toBeCloseTo([1.81, 0.1, 0.1, 0.9][i], 12));
    });
});

describe('explore chart', () => {
    test('one component: the objective over its offset, the best point', () => {
        const chart = exploreChart(sweep);
        expect(chart.vary).toEqual(['Wall']);
        expect(chart.objective).toBe('p99 latency (ms)');
        expect(chart.points.map(p => [p.x, p.value])).toEqual([
            [0, 98.4],
            [4, 102.4],
            [8, 106.4],
            [12, 93.8],
        ]);
        expect(chart.best).toEqual({ x: 12, value: 93.8 });
        expect(plotCsv(chart).split('\n')[0]).toBe('"Wall offset (ms)","p99 latency (ms)"');
    });
    test('the deadline objective is the probability of missing it', () => {
        const chart = exploreChart({ ...sweep, objective: 'deadline' });
        expect(chart.objective).toBe('P(latency > 160 ms)');
        expect(chart.unit).toBe('probability');
        expect(chart.best.value).toBeCloseTo(0, 12);
    });
});
