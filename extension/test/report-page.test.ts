/**
 * A run's report.html in Chromium (Debian's, through playwright-core), opened from disk as a user opens a file
 * they were sent: the page of a real run on this machine (the CLI's `run`, the current source of the plot view
 * bundled into it), next to the plot panel drawing the same report. Checks that it is the panel's view: the same
 * series in the same colours (light, and dark where the system is dark), the CCDF down to 10⁻⁶, the requirements'
 * verdicts with margins, the overload banner, the scenario table stacked in a half-width panel, text contrast,
 * exports with title and legend; and that it loads nothing, logs no error and shows no raw True, object or NaN.
 * Screenshots go to test-results/report/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import type { RunReport } from '@chainlab/contract';
import { launchBrowser } from '../../diagram/test/browser.js';
import { contrastOffenders } from '../../diagram/test/contrast.js';
import { THEMES, themeScript } from '../../diagram/test/vscode-themes.js';
import { buildPlotWebview, buildReportPage } from '../esbuild.mjs';
import { runPlot } from '../src/plot-data';
import type { PlotRequest } from '../src/plot-messages';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const dist = join(here, '..', 'dist');
const artifacts = join(repo, 'test-results', 'report');
const FULL = { width: 1200, height: 1000 };
/** A half-width editor panel beside the model on a laptop. */
const HALF = { width: 600, height: 1000 };

/** VS Code's default chart colours (Light Modern, Dark Modern), which the report gives its series too. */
const CHARTS = {
    light: { 'charts-orange': '#d18616', 'charts-green': '#388a34', 'charts-red': '#e51400' },
    dark: { 'charts-orange': '#d18616', 'charts-green': '#89d185', 'charts-red': '#f14c4c' },
};

const work = mkdtempSync(join(tmpdir(), 'chainlab-report-'));
let browser: Browser;
let report: RunReport;
let reportUrl: string;
let overloadedUrl: string;
let panelUrl: string;

/** The sample of appendix A with two requirements: one it meets, one it cannot. */
function chainWithRequirements(): string {
    const model = readFileSync(join(repo, 'samples', 'chains', 'appendix-a.chain'), 'utf-8');
    const file = join(work, 'appendix-a.chain');
    writeFileSync(
        file,
        model.replace(
            /(\n {4}memory simple\n)/,
            '$1    require latency p99 < 50 ms\n    require latency p50 < 10 us\n',
        ),
    );
    return file;
}

beforeAll(async () => {
    await Promise.all([buildReportPage(), buildPlotWebview()]); // the view under test is the current source
    mkdirSync(artifacts, { recursive: true });
    const out = join(work, 'run');
    execFileSync(
        process.execPath,
        [
            join(repo, 'language', 'bin', 'chainlab.js'),
            'run',
            chainWithRequirements(),
            '--iterations',
            '200',
            '-o',
            out,
        ],
        { cwd: repo, stdio: 'ignore' },
    );
    report = JSON.parse(readFileSync(join(out, 'report.json'), 'utf-8')) as RunReport;
    reportUrl = pathToFileURL(join(out, 'report.html')).href;
    // the same page with its first scenario overloaded: the embedded report is data, not the script the CSP hashes
    const overloaded = join(work, 'overloaded.html');
    const html = readFileSync(join(out, 'report.html'), 'utf-8');
    const embedded = /<script type="application\/json" id="chainlab-report">(.*?)<\/script>/s.exec(html)![1];
    const changed = JSON.parse(embedded) as RunReport;
    changed.scenarios[0].overloaded = true;
    writeFileSync(
        overloaded,
        html.replace(embedded, () => JSON.stringify(changed).replace(/</g, '\\u003c')),
    );
    overloadedUrl = pathToFileURL(overloaded).href;
    const panel = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="${pathToFileURL(join(dist, 'plot.css')).href}"></head>
<body><div id="plot"></div><script src="${pathToFileURL(join(dist, 'plot.js')).href}"></script></body></html>`;
    writeFileSync(join(work, 'panel.html'), panel);
    panelUrl = pathToFileURL(join(work, 'panel.html')).href;
    browser = await launchBrowser();
}, 240_000);

afterAll(async () => {
    await browser?.close();
    rmSync(work, { recursive: true, force: true });
});

interface Opened {
    page: Page;
    errors: string[];
    /** Every URL the page asked for besides itself. */
    requests: string[];
}

async function open(url: string, scheme: 'light' | 'dark' = 'light', viewport = FULL): Promise<Opened> {
    const page = await browser.newPage({ viewport, colorScheme: scheme });
    const errors: string[] = [];
    const requests: string[] = [];
    page.on('pageerror', e => errors.push(e.message));
    page.on('console', m => {
        if (m.type() === 'error' || m.type() === 'warning') errors.push(m.text());
    });
    page.on('request', r => {
        if (r.url() !== url && !/^(data|blob):/.test(r.url())) requests.push(r.url());
    });
    await page.addInitScript('window.__name = f => f'); // esbuild's keepNames helper, for functions sent to the page
    await page.goto(url);
    await page.waitForSelector('svg.plot-chart', { timeout: 10_000 }).catch((e: Error) => {
        throw new Error(`${e.message}\n${errors.join('\n')}`);
    });
    return { page, errors, requests };
}

/** The plot panel drawing the same report, in VS Code's default theme of that kind. */
async function panel(kind: 'light' | 'dark'): Promise<Page> {
    const page = await browser.newPage({ viewport: FULL });
    await page.addInitScript(() => {
        const w = window as unknown as { acquireVsCodeApi(): unknown };
        w.acquireVsCodeApi = () => ({ postMessage: (_: PlotRequest) => undefined });
    });
    await page.goto(panelUrl);
    await page.evaluate(themeScript({ ...THEMES[kind], vars: { ...THEMES[kind].vars, ...CHARTS[kind] } }));
    await page.evaluate(d => window.postMessage(d, '*'), runPlot(report.chain, report.target, report));
    await page.waitForSelector('svg.plot-chart');
    return page;
}

/** A computed colour as rgb(r, g, b): Chromium writes a relative colour (plot.css) as color(srgb r g b). */
function rgb(colour: string): string {
    const srgb = /^color\(srgb ([\d.]+) ([\d.]+) ([\d.]+)\)$/.exec(colour);
    return srgb
        ? `rgb(${srgb
              .slice(1)
              .map(v => Math.round(Number(v) * 255))
              .join(', ')})`
        : colour;
}

/** Each drawn series (its class and the computed stroke of its curve) and the legend. */
const drawn = async (page: Page) => {
    const found = await page.evaluate(() => ({
        series: Array.from(document.querySelectorAll('svg.plot-chart g[class^="series-"]')).map(g => ({
            kind: g.getAttribute('class'),
            stroke: getComputedStyle(g.querySelector('path')!).stroke,
        })),
        legend: Array.from(document.querySelectorAll('.legend-item')).map(e => e.textContent),
        stats: Array.from(document.querySelectorAll('table.stats tr[data-series]')).map(tr => tr.textContent),
    }));
    return { ...found, series: found.series.map(s => ({ ...s, stroke: rgb(s.stroke) })) };
};

const texts = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll(list => list.map(e => (e.textContent ?? '').trim()));

describe('report.html of a run', () => {
    test('opened from disk: the panel’s series, colours, legend and statistics; nothing loaded, no error', async () => {
        const { page, errors, requests } = await open(reportUrl);
        const shown = await drawn(page);
        const measured = report.scenarios.filter(s => s.measured.samples).length;
        expect(shown.series.map(s => s.kind)).toEqual([
            'series-predicted',
            ...Array<string>(measured).fill('series-measured'),
        ]);
        // VS Code Light Modern's charts.blue and charts.orange, as the panel draws them in that theme
        expect(shown.series.map(s => s.stroke).slice(0, 2)).toEqual(['rgb(26, 133, 255)', 'rgb(209, 134, 22)']);
        const inPanel = await panel('light');
        expect(shown).toEqual(await drawn(inPanel));
        await inPanel.close();
        expect(shown.legend[1]).toMatch(/^measured baseline — KS \d(\.\d+)? vs predicted$/);
        expect(await page.locator('g.markers circle').count()).toBe(3 * (1 + measured));
        expect(await texts(page, 'g.marker-labels text')).toContainEqual(expect.stringMatching(/^p50 /));
        await page.screenshot({ path: join(artifacts, 'report-light.png'), fullPage: true });
        const body = await page.evaluate(() => document.body.innerText);
        expect(body).not.toMatch(/\b(True|False|None|nan|NaN|undefined|null)\b|\[object|\{'/);
        expect(await page.title()).toBe(`chainlab: chain ${report.chain} on ${report.target}`);
        expect(requests).toEqual([]);
        expect(errors).toEqual([]);
        await page.close();
    });

    test('the requirements: a verdict per series with its margin, one line per bound, FAIL in red', async () => {
        const { page, errors } = await open(reportUrl);
        const rows = await page
            .locator('table.verdicts tr[data-kind]')
            .evaluateAll(trs => trs.map(tr => Array.from(tr.querySelectorAll('td'), td => td.textContent)));
        const series = [
            'predicted',
            ...report.scenarios.filter(s => s.measured.samples).map(s => `measured ${s.scenario}`),
        ];
        expect(rows.map(r => [r[0], r[2]])).toEqual(
            series.flatMap(() => [
                ['latency p99 < 50 ms', '✓ PASS'],
                ['latency p50 < 0.01 ms', '✗ FAIL'],
            ]),
        );
        for (const [, found, , margin] of rows) {
            expect(series.some(s => found!.startsWith(`${s}: p`))).toBe(true);
            expect(margin).toMatch(/^\d+(\.\d+)? ms \(\d+(\.\d+)? %\) (below|over) the bound$/);
        }
        expect(await texts(page, 'g.requirement-label text')).toEqual([
            'latency p99 < 50 ms: PASS',
            'latency p50 < 0.01 ms: FAIL',
        ]);
        const failed = await page.evaluate(
            () => getComputedStyle(document.querySelectorAll('g.requirement line')[1]).stroke,
        );
        expect(rgb(failed)).toBe('rgb(229, 20, 0)'); // charts.red
        expect(errors).toEqual([]);
        await page.close();
    });

    test('the CCDF down to 10⁻⁶ and the PMF, as in the panel', async () => {
        const { page, errors } = await open(reportUrl);
        await page.click('button[data-mode="ccdf"]');
        await page.waitForSelector('svg.plot-ccdf');
        expect(await texts(page, 'g[aria-label="y-axis tick label"] text')).toEqual([
            '10⁻⁶',
            '10⁻⁵',
            '10⁻⁴',
            '10⁻³',
            '10⁻²',
            '10⁻¹',
            '1',
        ]);
        expect(await page.locator('svg.plot-ccdf g.series-predicted path').count()).toBe(1);
        expect(await page.locator('g.requirement-region rect').count()).toBe(2);
        await page.screenshot({ path: join(artifacts, 'report-ccdf-light.png') });
        await page.click('button[data-mode="pmf"]');
        await page.waitForSelector('svg.plot-pmf');
        expect(await page.locator('svg.plot-pmf g.series-measured rect').count()).toBeGreaterThan(0);
        expect(errors).toEqual([]);
        await page.close();
    });

    test('dark where the system is dark: Dark Modern’s colours, as the panel in that theme', async () => {
        const { page, errors } = await open(reportUrl, 'dark');
        const shown = await drawn(page);
        expect(shown.series[0].stroke).toBe('rgb(55, 148, 255)');
        const inPanel = await panel('dark');
        expect(shown.series).toEqual((await drawn(inPanel)).series);
        await inPanel.close();
        expect(await page.evaluate(() => getComputedStyle(document.body).backgroundColor)).toBe('rgb(31, 31, 31)');
        const contrast = await page.evaluate(contrastOffenders, 4.5);
        expect(contrast.offenders).toEqual([]);
        await page.screenshot({ path: join(artifacts, 'report-dark.png'), fullPage: true });
        expect(errors).toEqual([]);
        await page.close();
    });

    test('in a half-width panel: the scenario table stacks, nothing runs off to the side', async () => {
        const { page, errors } = await open(reportUrl, 'light', HALF);
        const layout = await page.evaluate(() => ({
            display: getComputedStyle(document.querySelector('table.details-scenarios td')!).display,
            overflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
            label: getComputedStyle(document.querySelector('table.details-scenarios td')!, '::before').content,
        }));
        expect(layout).toEqual({ display: 'flex', overflow: 0, label: '"scenario"' });
        expect(await texts(page, 'table.details-phases td:first-child')).toContain('total');
        const contrast = await page.evaluate(contrastOffenders, 4.5);
        expect(contrast.checked).toBeGreaterThan(20);
        expect(contrast.offenders).toEqual([]);
        await page.screenshot({ path: join(artifacts, 'report-half-light.png'), fullPage: true });
        await page.emulateMedia({ colorScheme: 'dark' });
        await page.screenshot({ path: join(artifacts, 'report-half-dark.png'), fullPage: true });
        expect(errors).toEqual([]);
        await page.close();
    });

    test('an overloaded run: the warning banner above the plot', async () => {
        const { page, errors } = await open(overloadedUrl);
        const banner = page.locator('.warning[role="alert"]');
        expect(await banner.textContent()).toMatch(/^⚠ Overloaded: baseline\. The latency grew through the run/);
        expect(await texts(page, 'table.details-scenarios td[data-label="status"]')).toEqual(['ok, overloaded']);
        expect(errors).toEqual([]);
        await page.close();
    });

    test('Export SVG and PNG: what is on screen, title and legend included, as downloads', async () => {
        const { page, errors } = await open(reportUrl);
        const saved = async (format: string) => {
            const [download] = await Promise.all([
                page.waitForEvent('download'),
                page.click(`button[data-export="${format}"]`),
            ]);
            const path = join(artifacts, `report-export.${format}`);
            await download.saveAs(path);
            return { name: download.suggestedFilename(), bytes: readFileSync(path) };
        };
        const svg = await saved('svg');
        expect(svg.name).toMatch(/\.svg$/);
        const text = svg.bytes.toString('utf-8');
        expect(text).toContain(`chain ${report.chain} on ${report.target}`);
        expect(text).toContain('measured baseline — KS');
        expect(text).toContain('latency (ms');
        expect(text).not.toContain('var(--');
        expect(text).not.toContain('color(srgb'); // colours any SVG viewer reads
        expect(text).toContain('rgb(26, 133, 255)');
        const png = await saved('png');
        expect(png.bytes.subarray(1, 4).toString()).toBe('PNG');
        expect(errors).toEqual([]);
        await page.close();
    });
});
