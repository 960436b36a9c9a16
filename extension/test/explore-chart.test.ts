/**
 * The explore and nearby-periods charts of the plot webview in Chromium (Debian's, through playwright-core) with the
 * current source bundled, fed with real replies: offset sweeps over one and two components of the case study's
 * configuration E, and the thesis' Figure 5.2, whose objective is flat along an offset; the backend's periods reply
 * for the X-ray sample. Checks the axes, the best point and where the model is now, flat objectives said in words,
 * Apply, the proposals' table, and a WCAG contrast ≥ 4.5:1 of every text in light, dark and high-contrast themes.
 * Screenshots go to test-results/plot/.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { ExploreResult, PeriodsResult } from '@chainlab/contract';
import { contrastOffenders } from '../../diagram/test/contrast.js';
import { exploreChart } from '../src/explore-data';
import { formatMs } from '../src/number-format';
import { periodsChart } from '../src/periods-data';
import { plotCsv } from '../src/plot-csv';
import {
    PlotPanel,
    cli,
    describeThemes,
    expectOneFormat,
    overlaps,
    periodsVector,
    texts,
    type Posted,
} from './plot-page';

let panel: PlotPanel;
let sweep1: ExploreResult;
let sweep2: ExploreResult;
let flatSweep: ExploreResult;
let tiedSweep: ExploreResult;

beforeAll(async () => {
    panel = await PlotPanel.open();
    // the case study's configuration E: the wall's offset moves the p99 by 15 ms
    const sample = 'samples/ptts/case-study.chain';
    sweep1 = cli('explore', sample, '--ptts', 'ConfigE', '--vary', 'Wall', '--step', '1 ms', '--json');
    sweep2 = cli('explore', sample, '--ptts', 'ConfigE', '--vary', 'Wall', 'GPU', '--step', '2 ms', '--json');
    // the thesis' Figure 5.2: its mean does not depend on C1's offset (200 ms, noise in the 14th digit), its p99
    // depends on C2's offset only
    const fig52 = ['samples/ptts/thesis-fig5-2.chain', '--ptts', 'Fig52'];
    flatSweep = cli('explore', ...fig52, '--vary', 'C1', '--objective', 'mean', '--json');
    tiedSweep = cli('explore', ...fig52, '--vary', 'C1', 'C2', '--objective', 'p99', '--json');
}, 240_000);

afterAll(async () => {
    await panel?.close();
});

describe('explore chart', () => {
    test('one component: the objective over its offset, the best marked, Apply best offsets', async () => {
        const page = await panel.show(exploreChart(sweep1), 'light', undefined, 'explore-line-light');
        expect(await texts(page, 'g[aria-label="x-axis label"] text')).toEqual(['offset of Wall (ms)']);
        expect(await texts(page, 'g[aria-label="y-axis label"] text')).toEqual(['p99 latency (ms)']);
        expect(await page.locator('g.series path').count()).toBe(1);
        expect(await texts(page, 'g.best-label text')).toEqual([
            `best: ${formatMs(sweep1.best.offsets_ms.Wall)} → ${formatMs(sweep1.best.p99_ms)}`,
        ]);
        expect(await overlaps(page, 'svg.plot-chart text')).toEqual([]);
        await page.click('button[data-action="apply"]');
        expect(await page.evaluate(() => (window as unknown as Posted).__posted.at(-1))).toEqual({ type: 'applyBest' });
        await page.close();
        const dark = await panel.show(exploreChart(sweep1), 'dark', undefined, 'explore-line-dark');

        await dark.close();
    });

    test('two components: a heat map with a colour legend, the best cell outlined', async () => {
        const page = await panel.show(exploreChart(sweep2), 'light', undefined, 'explore-heatmap-light');
        expect(await page.locator('g.cells rect').count()).toBe(sweep2.points.length);
        expect(await page.locator('g.best rect').count()).toBe(1);
        expect(await texts(page, 'g[aria-label="y-axis label"] text')).toEqual(['offset of GPU (ms)']);
        expect(await texts(page, 'svg.colour-legend text')).toContain('p99 latency (ms)');
        expect(await overlaps(page, 'g[aria-label$="tick label"] text')).toEqual([]);
        await page.close();
        const dark = await panel.show(exploreChart(sweep2), 'dark', undefined, 'explore-heatmap-dark');

        await dark.close();
    });
});

/** The y of every vertex of the first path under `selector`, in pixels. */
const pathYs = (page: Page, selector: string) =>
    page
        .locator(selector)
        .first()
        .evaluate(path =>
            (path.getAttribute('d') ?? '')
                .split(/[ML]/)
                .filter(Boolean)
                .map(pair => Number(pair.split(',')[1])),
        );

describe('explore chart: a flat objective, tied points', () => {
    test('a flat mean is a straight line with a sentence, ticks that tell each other apart, nothing to apply', async () => {
        const data = exploreChart(flatSweep);
        const page = await panel.show(data, 'light', undefined, 'explore-flat-light');
        expect(await page.locator('svg.plot-chart.flat').count()).toBe(1);
        const ys = await pathYs(page, 'g.series path');
        expect(ys.length).toBe(flatSweep.points.length);
        expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(0.5); // no zigzag of rounding noise
        expect(await texts(page, 'g.flat-note text')).toEqual(["the mean latency does not depend on C1's offset"]);
        expect(await texts(page, 'p.summary')).toEqual([
            "the mean latency does not depend on C1's offset (200 ms at every offset swept): the current offsets stay",
        ]);
        // the model's point is marked, not a best picked by noise
        expect(await texts(page, 'g.best-label text')).toEqual(['now: 30 ms → 200 ms']);
        const yTicks = await texts(page, 'g[aria-label="y-axis tick label"] text');
        expect(yTicks.length).toBeGreaterThanOrEqual(3);
        expect(new Set(yTicks).size).toBe(yTicks.length); // not every tick '200'
        expectOneFormat(yTicks);
        expect(await overlaps(page, 'svg.plot-chart text')).toEqual([]);
        const apply = page.locator('button[data-action="apply"]');
        expect(await apply.isDisabled()).toBe(true);
        expect(await apply.getAttribute('title')).toBe('the current offsets are already the best');
        await page.close();
        const dark = await panel.show(data, 'dark', undefined, 'explore-flat-dark');
        expect(await dark.evaluate(contrastOffenders, 4.5)).toMatchObject({ offenders: [] });
        await dark.close();
    });

    test('ticks take their digits from the range: 200.001 … 200.004, not five ticks that read 200', async () => {
        const data = exploreChart(sweep1);
        const narrow = {
            ...data,
            key: 'narrow',
            points: data.points.map((p, i) => ({ ...p, value: 200 + (i % 4) * 0.001 })),
            best: { ...data.best, value: 200 },
        };
        const page = await panel.show(narrow, 'light', undefined, 'explore-narrow-light');
        const yTicks = await texts(page, 'g[aria-label="y-axis tick label"] text');
        expect(new Set(yTicks).size).toBe(yTicks.length);
        expect(yTicks).toContain('200.002');
        expect(await overlaps(page, 'svg.plot-chart text')).toEqual([]); // the longer ticks clear of the axis title
        await page.close();
    });

    test('p99 over C1 × C2, tied along C1: the best keeps C1 at 30 ms, where the model is now is outlined', async () => {
        const data = exploreChart(tiedSweep);
        expect(data.best.x).toBe(30);
        expect(data.current).toMatchObject({ x: 30, y: 8 });
        const page = await panel.show(data, 'light', undefined, 'explore-tied-light');
        expect(await page.locator('g.cells rect').count()).toBe(tiedSweep.points.length);
        expect(await page.locator('g.best rect').count()).toBe(1);
        expect(await page.locator('g.current rect').count()).toBe(1);
        expect(await texts(page, 'p.summary')).toEqual([expect.stringMatching(/does not depend on C1's offset$/)]);
        const legend = await texts(page, 'svg.colour-legend g.tick text');
        expect(new Set(legend).size).toBe(legend.length);
        expect(await page.locator('button[data-action="apply"]').isDisabled()).toBe(false);
        await page.close();
        const dark = await panel.show(data, 'dark', undefined, 'explore-tied-dark');
        expect(await dark.evaluate(contrastOffenders, 4.5)).toMatchObject({ offenders: [] });
        await dark.close();
    });

    test('a heat map of an objective that depends on neither offset is one colour, said in words', async () => {
        // the tied sweep with its p99 set to one value plus rounding noise, as the backend would call it flat
        const flat: ExploreResult = {
            ...tiedSweep,
            points: tiedSweep.points.map((p, i) => ({ ...p, p99_ms: 285 + (i % 3) * 1e-13 })),
            // the best keeps the current offsets where nothing changes the objective
            best: {
                ...tiedSweep.points.find(p => p.offsets_ns.C1 === 30_000_000 && p.offsets_ns.C2 === 8_000_000)!,
                p99_ms: 285,
            },
            depends: { offsets: { C1: false, C2: false }, periods: {} },
        };
        const data = exploreChart(flat);
        expect(data.flat).toBe(true);
        const page = await panel.show(data, 'light', undefined, 'explore-flat-heatmap-light');
        const fills = await page.locator('g.cells rect').evaluateAll(cells => cells.map(c => c.getAttribute('fill')));
        expect(new Set(fills).size).toBe(1);
        expect(await page.locator('g.best rect').count()).toBe(1);
        expect(await page.locator('g.current rect').count()).toBe(0); // the best is where the model is now
        expect(await page.locator('button[data-action="apply"]').isDisabled()).toBe(true);
        expect(await texts(page, 'p.summary')).toEqual([
            "the p99 latency does not depend on C1's offset or C2's offset (285 ms at every offset swept): the current offsets stay",
        ]);
        await page.close();
        const dark = await panel.show(data, 'dark', undefined, 'explore-flat-heatmap-dark');
        await dark.close();
    });
});

describe('nearby periods', () => {
    test('each proposal by its latency trees and p99, the current count, a table with Apply per row', async () => {
        const result = periodsVector();
        const page = await panel.show(periodsChart(result), 'light', undefined, 'periods-light');
        expect(await texts(page, 'g[aria-label="x-axis label"] text')).toEqual([
            'latency trees (the cost of one exact analysis)',
        ]);
        expect(await texts(page, 'g[aria-label="y-axis label"] text')).toEqual(['p99 latency (ms)']);
        expect(await texts(page, 'g.current-label text')).toEqual(['now: 13,861 trees']);
        const analysed = result.proposals.filter(p => p.analysis);
        expect(await page.locator('g.proposals circle').count()).toBe(analysed.length);
        expect(await overlaps(page, 'svg.plot-chart text')).toEqual([]);
        // no label over a dot (the dots of two close proposals may touch each other; hover names both)
        const labelsOnDots = await page.evaluate(() => {
            const dots = [...document.querySelectorAll('svg.plot-chart g.proposals circle')];
            const labels = [...document.querySelectorAll('svg.plot-chart g.best-label text')];
            const meet = (a: DOMRect, b: DOMRect) =>
                Math.min(a.right, b.right) > Math.max(a.left, b.left) &&
                Math.min(a.bottom, b.bottom) > Math.max(a.top, b.top);
            return labels
                .filter(l => dots.some(d => meet(l.getBoundingClientRect(), d.getBoundingClientRect())))
                .map(l => l.textContent);
        });
        expect(labelsOnDots).toEqual([]);
        // the table: fewest trees first, each with its numbers and an Apply button
        const rows = await page
            .locator('table.proposals tr[data-index]')
            .evaluateAll(trs => trs.map(tr => [...tr.querySelectorAll('td')].map(td => td.textContent)));
        expect(rows).toHaveLength(result.proposals.length);
        expect(rows[0].slice(0, 4)).toEqual([
            'Sensor 66.6 ms, Process 33.3 ms, GPU 16.65 ms, Wall 16.65 ms',
            '1',
            '≤ 0.301 %',
            '108',
        ]);
        // hyper-periods in the one duration format: seconds from 10 s on, never 923000 ms
        const hyper = rows.map(row => row[6] ?? '');
        expect(hyper.every(text => /^[\d.]+ (ms|s)$/.test(text))).toBe(true);
        const long = result.proposals.findIndex(p => p.hyperperiod_ms >= 10_000);
        if (long >= 0) expect(hyper[long]).toMatch(/ s$/);
        const second = page.locator('table.proposals tr[data-index]').nth(1);
        const index = Number(await second.getAttribute('data-index'));
        await second.locator('button').click();
        expect(await page.evaluate(() => (window as unknown as Posted).__posted.at(-1))).toEqual({
            type: 'applyProposal',
            index,
        });
        expect(plotCsv(periodsChart(result)).split('\n')[0]).toBe(
            '"periods","latency trees","periods move (%)","p99 (ms)","mean (ms)","loss","hyper-period (ms)"',
        );
        await page.close();
        const dark = await panel.show(periodsChart(result), 'dark', undefined, 'periods-dark');
        await dark.close();
    });

    test('no proposal: the panel says that no period set within 2 % shortens the hyper-period, and no table', async () => {
        // the thesis' Figure 5.2 has none (its hyper-period: 40.6 s, 203 trees); its reply has the vector's form
        const result: PeriodsResult = {
            source: 'samples/ptts/thesis-fig5-2.chain',
            name: 'Fig52',
            current: { periods_ms: { C0: 200, C1: 58, C2: 56 }, roots: 203, hyperperiod_ms: 40_600 },
            proposals: [],
        };
        const page = await panel.show(periodsChart(result), 'light', undefined, 'periods-none-light', 'p.note');
        expect(await texts(page, 'p.note')).toEqual([
            'no period set within 2 % shortens the hyper-period: the current periods stay',
        ]);
        expect(await texts(page, 'p.summary')).toEqual([
            'now C0 200 ms, C1 58 ms, C2 56 ms: 203 latency trees, hyper-period 40.6 s',
        ]);
        expect(await page.locator('table.proposals').count()).toBe(0);
        await page.close();
        const dark = await panel.show(periodsChart(result), 'dark', undefined, 'periods-none-dark', 'p.note');
        expect(await dark.evaluate(contrastOffenders, 4.5)).toMatchObject({ offenders: [] });
        await dark.close();
    });
});

describeThemes(
    () => panel,
    [
        ['explore line', () => exploreChart(sweep1)],
        ['explore heat map', () => exploreChart(sweep2)],
        ['periods', () => periodsChart(periodsVector())],
    ],
);
