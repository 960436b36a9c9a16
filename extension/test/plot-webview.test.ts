/**
 * The latency plot webview in Chromium (Debian's, through playwright-core) with the current source bundled, fed with
 * real replies: the exact analysis of the X-ray sample (its requirements pass) and of a copy with stricter ones
 * (they fail), and a run on this machine (measured vs predicted, KS).
 * Checks what a measurement engineer reads: axis titles with units, 1-2-5 ticks that do not collide, p50/p99/p99.9
 * markers, the CCDF's log axis down to 10⁻⁶, verdicts and margins, one number format, KS in the legend, the
 * overload banner, exports, and a WCAG contrast ≥ 4.5:1 of every text in light, dark and high-contrast themes.
 * The explore and periods charts are in explore-chart.test.ts. Screenshots go to test-results/plot/.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { AnalyzeResult, RunReport } from '@chainlab/contract';
import { formatMs } from '../src/number-format';
import { analysisPlot, runPlot, withComparison } from '../src/plot-data';
import type { PlotRequest } from '../src/plot-messages';
import {
    PlotPanel,
    artifacts,
    cli,
    cliFailing,
    describeThemes,
    expectOneFormat,
    numbersIn,
    overlaps,
    repo,
    texts,
    type Posted,
} from './plot-page';

const work = mkdtempSync(join(tmpdir(), 'chainlab-plot-'));
let panel: PlotPanel;
let passing: AnalyzeResult;
let failing: AnalyzeResult;
let run: RunReport;

beforeAll(async () => {
    panel = await PlotPanel.open();
    passing = cli('analyze', 'samples/xray.chain', '--ptts', 'System', '--json');
    // the same model with requirements it misses: 99 % within 120 ms, 99.99 % within 125 ms, loss below 10⁻⁸
    const strict = join(work, 'strict.chain');
    writeFileSync(
        strict,
        readFileSync(join(repo, 'samples', 'xray.chain'), 'utf-8')
            .replace('require latency p99 < 160 ms', 'require latency p99 < 120 ms')
            .replace(
                'require latency <= 200 ms with probability >= 99.99 %',
                'require latency <= 125 ms with probability >= 99.99 %',
            )
            .replace('require loss < 1e-4', 'require loss < 1e-8'),
    );
    failing = cliFailing('analyze', strict, '--ptts', 'System', '--json');
    // a small chain measured on this machine, two scenarios
    const small = join(work, 'small.chain');
    writeFileSync(small, readFileSync(join(repo, 'tests', 'fixtures', 'small-here.chain'), 'utf-8'));
    run = cli(
        'deploy',
        small,
        '--chain',
        'Small',
        '--target',
        'here',
        '--scenario',
        'baseline,congested',
        '--iterations',
        '200',
        '--runs',
        join(work, 'runs'),
        '--json',
    );
}, 240_000);

afterAll(async () => {
    await panel?.close();
    rmSync(work, { recursive: true, force: true });
});

describe('latency plot of an exact analysis', () => {
    test('CDF: axis titles with units, 1-2-5 ticks that do not collide, p50/p99/p99.9 markers', async () => {
        const page = await panel.show(analysisPlot(passing), 'light', undefined, 'analysis-cdf-light');
        expect(await texts(page, 'g[aria-label="x-axis label"] text')).toEqual(['latency (ms)']);
        expect(await texts(page, 'g[aria-label="y-axis label"] text')).toEqual(['P(latency ≤ x)']);
        const xTicks = (await texts(page, 'g[aria-label="x-axis tick label"] text')).map(Number);
        expect(xTicks.length).toBeGreaterThanOrEqual(4);
        const steps = new Set(xTicks.slice(1).map((v, i) => Number((v - xTicks[i]).toPrecision(6))));
        expect(steps.size, `ticks ${xTicks.join(', ')}`).toBe(1);
        const [step] = steps;
        expect(step / Math.pow(10, Math.floor(Math.log10(step)))).toBeOneOf([1, 2, 5]);
        expect(await overlaps(page, 'g[aria-label$="tick label"] text')).toEqual([]);
        // every text of the chart stands free: ticks, titles, markers, requirement labels
        expect(await overlaps(page, 'svg.plot-chart text')).toEqual([]);
        const markers = await texts(page, 'g.marker-labels text');
        expect(markers).toEqual([
            `p50 ${formatMs(passing.percentiles['50'])}`,
            `p99 ${formatMs(passing.percentiles['99'])}`,
            `p99.9 ${formatMs(passing.percentiles['99.9'])}`,
        ]);
        expect(await page.locator('g.markers circle').count()).toBe(3);

        await page.close();
    });

    test('CCDF: a log axis down to 10⁻⁶, the tail drawn, the requirement regions', async () => {
        const page = await panel.show(analysisPlot(passing), 'light', 'ccdf', 'analysis-ccdf-light');
        expect(await texts(page, 'g[aria-label="y-axis label"] text')).toEqual(['P(latency > x)']);
        const yTicks = await texts(page, 'g[aria-label="y-axis tick label"] text');
        expect(yTicks).toEqual(['10⁻⁶', '10⁻⁵', '10⁻⁴', '10⁻³', '10⁻²', '10⁻¹', '1']);
        // 10⁻⁶ sits at the bottom of the frame: the axis reaches it
        const bottom = await page.evaluate(() => {
            const frame = document.querySelector(
                'svg.plot-chart g[aria-label="frame"] rect, svg.plot-chart [aria-label="frame"]',
            )!;
            const ticks = [...document.querySelectorAll('g[aria-label="y-axis tick label"] text')];
            return { frame: frame.getBoundingClientRect().bottom, tick: ticks[0].getBoundingClientRect() };
        });
        expect(Math.abs(bottom.tick.y + bottom.tick.height / 2 - bottom.frame)).toBeLessThan(4);
        expect(await overlaps(page, 'svg.plot-chart text')).toEqual([]);
        expect(await page.locator('g.requirement-region rect').count()).toBe(2); // p99 and the deadline
        expect(await texts(page, 'g.marker-labels text')).toHaveLength(3);
        // the loss requirement: its limit is a level of the tail (a lost frame never arrives); the loss found,
        // 1.62·10⁻⁷, is under the axis and named at its floor
        expect(await page.locator('g.loss-limit line').count()).toBe(1);
        expect(await texts(page, 'g.loss-limit-label text')).toEqual(['loss < 10⁻⁴: PASS']);
        expect(await texts(page, 'g.loss-level-label text')).toEqual(['lost frames 1.62·10⁻⁷ (below the axis)']);
        const limitY = await page.evaluate(() => {
            const line = document.querySelector('g.loss-limit line')!.getBoundingClientRect().y;
            const ticks = [...document.querySelectorAll('g[aria-label="y-axis tick label"] text')];
            const tick = ticks.find(t => t.textContent === '10⁻⁴')!.getBoundingClientRect();
            return { line, tick: tick.y + tick.height / 2 };
        });
        expect(Math.abs(limitY.line - limitY.tick)).toBeLessThan(3); // drawn at 10⁻⁴
        await page.close();
        const dark = await panel.show(analysisPlot(passing), 'dark', 'ccdf', 'analysis-ccdf-dark');
        await dark.close();
        const darkCdf = await panel.show(analysisPlot(passing), 'dark', undefined, 'analysis-cdf-dark');
        await darkCdf.close();
    });

    test('the wheel zooms the latency axis around the pointer; a double click shows all of it again', async () => {
        const page = await panel.show(analysisPlot(passing));
        const span = async () => {
            const ticks = (await texts(page, 'g[aria-label="x-axis tick label"] text')).map(Number);
            return ticks.at(-1)! - ticks[0];
        };
        const all = await span();
        const box = (await page.locator('svg.plot-chart').boundingBox())!;
        await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
        for (let i = 0; i < 4; i++) {
            await page.mouse.wheel(0, -100);
            await page.waitForTimeout(50);
        }
        await expect.poll(span).toBeLessThan(all / 1.5);
        expect(await overlaps(page, 'g[aria-label$="tick label"] text')).toEqual([]);
        await page.dblclick('svg.plot-chart');
        await expect.poll(span).toBe(all);
        await page.close();
    });

    test('verdicts: the sample passes every requirement, with the margin of each', async () => {
        const page = await panel.show(analysisPlot(passing));
        const rows = await page
            .locator('table.verdicts tr[data-kind]')
            .evaluateAll(trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent)));
        expect(rows).toEqual([
            ['latency p99 < 160 ms', 'p99 = 128 ms', '✓ PASS', '32 ms (20 %) below the bound'],
            [
                'latency ≤ 200 ms with probability ≥ 99.99 %',
                expect.stringMatching(/^P\(> 200 ms\) (< 10⁻¹²|= 0), allowed 10⁻⁴$/),
                '✓ PASS',
                expect.stringMatching(/^p99.99 = 1\d\d ms: \d+(\.\d)? ms below the deadline$/),
            ],
            ['loss < 10⁻⁴', 'loss = 1.62·10⁻⁷', '✓ PASS', '619× below the limit'],
        ]);
        expect(await texts(page, 'g.requirement-label text')).toEqual([
            'latency p99 < 160 ms: PASS',
            'latency ≤ 200 ms with probability ≥ 99.99 %: PASS',
        ]);
        await page.close();
    });

    test('verdicts: stricter requirements fail, each by how much', async () => {
        expect(failing.requirements.every(r => !r.passed)).toBe(true);
        const page = await panel.show(analysisPlot(failing), 'light', 'ccdf', 'analysis-failing-ccdf-light');
        const rows = await page
            .locator('table.verdicts tr[data-kind]')
            .evaluateAll(trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent)));
        expect(rows.map(r => r[2])).toEqual(['✗ FAIL', '✗ FAIL', '✗ FAIL']);
        expect(rows[0]).toEqual(['latency p99 < 120 ms', 'p99 = 128 ms', '✗ FAIL', '8 ms (6.67 %) over the bound']);
        expect(rows[1][3]).toMatch(/^p99.99 = 1\d\d ms: \d+(\.\d+)? ms over the deadline$/);
        expect(rows[2]).toEqual(['loss < 10⁻⁸', 'loss = 1.62·10⁻⁷', '✗ FAIL', '16.2× over the limit']);
        expect(await texts(page, 'g.requirement-label text')).toEqual([
            'latency p99 < 120 ms: FAIL',
            'latency ≤ 125 ms with probability ≥ 99.99 %: FAIL',
        ]);
        // both loss levels under the axis: named side by side at its floor, no line drawn
        expect(await page.locator('g.loss-limit line, g.loss-level line').count()).toBe(0);
        expect(await texts(page, 'g.loss-limit-label text')).toEqual(['loss < 10⁻⁸: FAIL (below the axis)']);
        expect(await texts(page, 'g.loss-level-label text')).toEqual(['lost frames 1.62·10⁻⁷ (below the axis)']);
        expect(await overlaps(page, 'svg.plot-chart text')).toEqual([]);
        await page.close();
    });

    test('one number format in every table cell, verdict and tick', async () => {
        for (const mode of ['cdf', 'ccdf', 'pmf']) {
            const page = await panel.show(analysisPlot(passing), 'light', mode);
            expectOneFormat(await texts(page, 'table.stats td:not(:first-child)'));
            expectOneFormat(await texts(page, 'g[aria-label$="tick label"] text'));
            for (const text of await texts(page, 'table.verdicts td'))
                expectOneFormat(numbersIn(text).filter(n => n !== '99.99'));
            expect(await page.locator('table.stats').textContent()).not.toMatch(/nan|NaN|undefined|e-\d/);
            await page.close();
        }
    });

    test('PMF: one histogram per curve on a 1-2-5 bin width, named in the axis title', async () => {
        const page = await panel.show(analysisPlot(passing), 'light', 'pmf', 'analysis-pmf-light');
        const [title] = await texts(page, 'g[aria-label="y-axis label"] text');
        expect(title).toMatch(/^probability per (1|2|5)(0*|\.0*[125]?) ms bin$/);
        expect(await page.locator('g.series-predicted rect').count()).toBeGreaterThan(10);
        expect(await overlaps(page, 'g[aria-label$="tick label"] text')).toEqual([]);

        await page.close();
    });
});

describe('latency plot of a run on this machine', () => {
    test('measured and predicted overlaid, KS of each measurement in the legend, Open report', async () => {
        const plot = runPlot('Small', 'here', run);
        const page = await panel.show(plot, 'light', undefined, 'run-cdf-light');
        expect(await page.locator('g[class^="series-"] path').count()).toBe(3);
        const legend = await texts(page, '.legend-item');
        expect(legend[0]).toBe('predicted');
        for (const s of run.scenarios)
            expect(legend).toContain(`measured ${s.scenario} — KS ${Number(s.ks!.toPrecision(3))} vs predicted`);
        expect(await page.locator('button[data-action="report"]').count()).toBe(1);
        await page.click('button[data-action="report"]');
        expect(await page.evaluate(() => (window as unknown as Posted).__posted.at(-1))).toEqual({
            type: 'openReport',
        });
        expect(plot.report).toMatch(/report\.html$/);
        expect(await overlaps(page, 'g[aria-label$="tick label"] text')).toEqual([]);
        await page.close();
        const dark = await panel.show(plot, 'dark', 'ccdf', 'run-ccdf-dark');

        await dark.close();
    });

    test('curves decades apart get a log latency axis (1-2-5 ticks); the toggle brings the linear one back', async () => {
        // the X-ray analysis (64..200 ms) against the small chain's run (under a millisecond to a few)
        const page = await panel.show(withComparison(analysisPlot(passing), runPlot('Small', 'here', run)));
        const xTitle = () => texts(page, 'g[aria-label="x-axis label"] text');
        expect(await xTitle()).toEqual(['latency (ms, log scale)']);
        const ticks = (await texts(page, 'g[aria-label="x-axis tick label"] text')).map(Number);
        expect(ticks.length).toBeGreaterThanOrEqual(3);
        for (const t of ticks)
            expect(t / Math.pow(10, Math.floor(Math.log10(t) + 1e-9)), String(t)).toBeOneOf([1, 2, 5]);
        expect(await overlaps(page, 'svg.plot-chart text')).toEqual([]);
        await page.click('button[data-action="log-x"]');
        await expect.poll(xTitle).toEqual(['latency (ms)']);
        expect(await page.getAttribute('button[data-action="log-x"]', 'aria-pressed')).toBe('false');
        await page.screenshot({ path: join(artifacts, 'compare-linear-light.png') });
        await page.click('button[data-action="log-x"]');
        await expect.poll(xTitle).toEqual(['latency (ms, log scale)']);
        await page.screenshot({ path: join(artifacts, 'compare-log-light.png') });
        await page.close();
    });

    test('an overloaded run keeps its warning banner above the plot', async () => {
        const [first, ...rest] = run.scenarios;
        const overloaded = {
            ...run,
            scenarios: [{ ...first, overloaded: true }, ...rest],
        };
        const page = await panel.show(runPlot('Small', 'here', overloaded));
        const banner = page.locator('.warning[role="alert"]');
        expect(await banner.textContent()).toMatch(/^⚠ Overloaded: baseline\. The latency grew through the run/);
        const above = await page.evaluate(
            () =>
                document.querySelector('.warning')!.getBoundingClientRect().bottom <=
                document.querySelector('svg.plot-chart')!.getBoundingClientRect().top,
        );
        expect(above).toBe(true);
        await page.close();
    });

    test("Compare with…: another run's curves overlaid, dashed, named after it", async () => {
        const other = { ...runPlot('Small', 'here', run), key: 'run other-run' };
        const page = await panel.show(withComparison(analysisPlot(passing), other));
        expect(await page.locator('g.series-compared path').count()).toBe(3);
        expect(await texts(page, '.legend-item')).toContain('other-run: measured baseline');
        // each overlaid curve has its own row of statistics
        const rows = await page
            .locator('table.stats tr[data-series]')
            .evaluateAll(trs => trs.map(tr => tr.getAttribute('data-series')));
        expect(rows).toEqual([
            'predicted',
            'other-run: predicted',
            'other-run: measured baseline',
            'other-run: measured congested',
        ]);
        await page.close();
    });

    test('export: SVG (theme resolved), PNG through a canvas, CSV of every point', async () => {
        const plot = runPlot('Small', 'here', run);
        const page = await panel.show(plot, 'dark');
        const exported = async (format: string) => {
            await page.click(`button[data-export="${format}"]`);
            await page.waitForFunction(
                f => (window as unknown as Posted).__posted.some(m => m.type === 'export' && m.format === f),
                format,
            );
            return page.evaluate(
                f => (window as unknown as Posted).__posted.find(m => m.type === 'export' && m.format === f),
                format,
            ) as Promise<Extract<PlotRequest, { type: 'export' }>>;
        };
        const svg = await exported('svg');
        expect(svg.name).toMatch(/^run-.*Small-here\.svg$/);
        expect(svg.content).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        expect(svg.content).toContain('latency (ms');
        expect(svg.content).not.toContain('var(--vscode'); // a viewer has no theme
        // what is on screen: the title and the legend with the chart
        expect(svg.content).toContain(plot.title);
        expect(svg.content).toContain('measured baseline — KS');
        expect(svg.content).not.toContain('color(srgb');
        writeFileSync(join(artifacts, 'export.svg'), svg.content);
        const png = await exported('png');
        const bytes = Buffer.from(png.content, 'base64');
        expect(bytes.subarray(1, 4).toString()).toBe('PNG');
        expect(bytes.length).toBeGreaterThan(5000);
        writeFileSync(join(artifacts, 'export.png'), bytes);
        const csv = await exported('csv');
        const lines = csv.content.trim().split('\n');
        expect(lines[0]).toBe('"series","kind","latency (ms)","probability","P(latency <= x)","P(latency > x)"');
        expect(lines.length - 1).toBe(plot.series.reduce((n, s) => n + s.points.length, 0));
        await page.close();
    });
});

describeThemes(
    () => panel,
    [
        ['analysis cdf', () => analysisPlot(passing)],
        ['analysis ccdf', () => analysisPlot(failing), 'ccdf'],
        ['analysis pmf', () => analysisPlot(passing), 'pmf'],
        ['run cdf', () => runPlot('Small', 'here', run)],
    ],
);
