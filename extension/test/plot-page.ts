/**
 * The plot webview's Chromium page for the plot suites: the current source bundled into a folder of this test
 * file's own (suites run in parallel and must not read a bundle another one is writing), opened in a fresh page with
 * VS Code's theme variables and its webview API, fed one view. Also the measures the suites share: texts, overlaps,
 * the one number format, and the contrast of every view in light, dark and high-contrast themes.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import type { Browser, Page } from 'playwright-core';
import { describe, expect, test } from 'vitest';
import type { PeriodsResult } from '@chainlab/contract';
import { launchBrowser } from '../../diagram/test/browser.js';
import { contrastOffenders } from '../../diagram/test/contrast.js';
import { THEMES, themeScript, type Theme } from '../../diagram/test/vscode-themes.js';
import { plotOptions } from '../esbuild.mjs';
import type { PlotRequest, PlotViewData } from '../src/plot-messages';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '..', '..');
export const artifacts = join(repo, 'test-results', 'plot');
const PANEL = { width: 900, height: 1100 };

/** The chart colours and warning colours VS Code's default themes give a webview, besides the shared ones. */
const CHARTS: Record<keyof typeof THEMES, Record<string, string>> = {
    light: {
        'charts-foreground': '#616161',
        'charts-red': '#e51400',
        'charts-orange': '#d18616',
        'charts-green': '#388a34',
        'charts-purple': '#652d90',
        'charts-yellow': '#bf8803',
        'inputValidation-warningBackground': '#fff4ce',
        'inputValidation-warningBorder': '#b89500',
    },
    dark: {
        'charts-foreground': '#cccccc',
        'charts-red': '#f14c4c',
        'charts-orange': '#d18616',
        'charts-green': '#89d185',
        'charts-purple': '#b180d7',
        'charts-yellow': '#cca700',
        'inputValidation-warningBackground': '#352a05',
        'inputValidation-warningBorder': '#b89500',
    },
    'high-contrast': {
        'charts-foreground': '#ffffff',
        'charts-red': '#f48771',
        'charts-orange': '#d18616',
        'charts-green': '#89d185',
        'charts-purple': '#b180d7',
        'charts-yellow': '#ffd602',
        'inputValidation-warningBackground': '#000000',
        'inputValidation-warningBorder': '#ff0000',
    },
};
const theme = (kind: keyof typeof THEMES): Theme => ({
    ...THEMES[kind],
    vars: { ...THEMES[kind].vars, ...CHARTS[kind] },
});

export const cli = (...args: string[]) =>
    JSON.parse(
        execFileSync(process.execPath, [join(repo, 'language', 'bin', 'chainlab.js'), ...args], {
            cwd: repo,
            encoding: 'utf-8',
            stdio: ['ignore', 'pipe', 'ignore'],
        }),
    );

/** A cli call that exits 3 (a requirement failed) still prints its result. */
export const cliFailing = (...args: string[]) => {
    try {
        return cli(...args);
    } catch (error) {
        return JSON.parse((error as { stdout: string }).stdout);
    }
};

/** A real reply of the backend's ptts/periods for the X-ray sample (tests/rpc-vectors, checked against the schema). */
export const periodsVector = () =>
    (
        JSON.parse(readFileSync(join(repo, 'tests', 'rpc-vectors', 'valid-ptts-periods.json'), 'utf-8')) as {
            value: PeriodsResult;
        }
    ).value;

/** What the view posted to the extension, kept by the page's stand-in for VS Code's webview API. */
export type Posted = { __posted: PlotRequest[] };

/** Chromium with the plot webview's current source bundled, ready to show views. */
export class PlotPanel {
    private constructor(
        private readonly browser: Browser,
        private readonly pageUrl: string,
        private readonly folder: string,
    ) {}

    static async open(): Promise<PlotPanel> {
        const folder = mkdtempSync(join(tmpdir(), 'chainlab-plot-panel-'));
        await esbuild.build({ ...plotOptions, outdir: folder }); // the bundle under test is the current source
        copyFileSync(join(here, '..', 'webview', 'plot.css'), join(folder, 'plot.css'));
        mkdirSync(artifacts, { recursive: true });
        const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src file:; style-src file: 'unsafe-inline'; img-src data: blob:">
<link rel="stylesheet" href="${pathToFileURL(join(folder, 'plot.css')).href}"></head>
<body><div id="plot"></div><script src="${pathToFileURL(join(folder, 'plot.js')).href}"></script></body></html>`;
        writeFileSync(join(folder, 'panel.html'), html);
        const pageUrl = pathToFileURL(join(folder, 'panel.html')).toString();
        return new PlotPanel(await launchBrowser(), pageUrl, folder);
    }

    async close(): Promise<void> {
        await this.browser.close();
        rmSync(this.folder, { recursive: true, force: true });
    }

    /** The view drawn in a fresh page in `kind`'s theme (and `mode` picked in the toolbar). */
    async show(
        data: PlotViewData,
        kind: keyof typeof THEMES = 'light',
        mode?: string,
        shot?: string,
        ready = 'svg.plot-chart',
    ): Promise<Page> {
        const page = await this.browser.newPage({ viewport: PANEL });
        const errors: string[] = [];
        page.on('pageerror', e => errors.push(e.message));
        page.on('console', m => {
            if (m.type() === 'error') errors.push(m.text());
        });
        await page.addInitScript('window.__name = f => f'); // esbuild's keepNames helper, for functions sent to the page
        // VS Code's API as a webview has it: what the view posts is kept for the test
        await page.addInitScript(() => {
            const w = window as unknown as Posted & { acquireVsCodeApi(): unknown };
            w.__posted = [];
            w.acquireVsCodeApi = () => ({ postMessage: (m: PlotRequest) => w.__posted.push(m) });
        });
        await page.goto(this.pageUrl);
        await page.evaluate(themeScript(theme(kind)));
        await page.waitForFunction(() => (window as unknown as Posted).__posted.some(m => m.type === 'ready'));
        await page.evaluate(d => window.postMessage(d, '*'), data);
        await page.waitForSelector(ready, { timeout: 5000 }).catch((e: Error) => {
            throw new Error(`${e.message}\n${errors.join('\n')}`);
        });
        if (mode) {
            await page.click(`button[data-mode="${mode}"]`);
            await page.waitForSelector(`svg.plot-${mode}`);
        }
        if (shot) await page.screenshot({ path: join(artifacts, `${shot}.png`), fullPage: true });
        expect(errors).toEqual([]);
        return page;
    }
}

export const texts = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll(list => list.map(e => (e.textContent ?? '').trim()));

/** The pairs of texts under `selector` whose boxes overlap (by more than half a pixel). */
export const overlaps = (page: Page, selector: string) =>
    page.locator(selector).evaluateAll(list => {
        const boxes = list
            .map(e => ({ text: (e.textContent ?? '').trim(), r: e.getBoundingClientRect() }))
            .filter(b => b.r.width > 0 && b.text);
        const hits: string[] = [];
        for (let i = 0; i < boxes.length; i++)
            for (let j = i + 1; j < boxes.length; j++) {
                const a = boxes[i].r,
                    b = boxes[j].r;
                const w = Math.min(a.right, b.right) - Math.max(a.left, b.left);
                const h = Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top);
                if (w > 0.5 && h > 0.5) hits.push(`${boxes[i].text} × ${boxes[j].text}`);
            }
        return hits;
    });

/** The one number format: 3 significant digits, scientific (a·10⁻ⁿ) below 10⁻³. */
const NUMBER = /^-?(\d+(\.\d+)?|(\d(\.\d{1,2})?·)?10[⁻]?[⁰¹²³⁴⁵⁶⁷⁸⁹]+|< 10⁻¹²)$/;
const significant = (text: string) => text.replace(/^-|\.|^0+|^0\.0*/g, '').replace(/0+$/, '').length;

export function expectOneFormat(values: string[]) {
    for (const v of values) {
        if (v === '–') continue;
        expect(v, `"${v}" is not in the one number format`).toMatch(NUMBER);
        if (/^\d+(\.\d+)?$/.test(v)) expect(significant(v), v).toBeLessThanOrEqual(3);
    }
}

/** The numbers in a free text (`p99 = 128 ms, 32 ms below`) in the one format. */
export const numbersIn = (text: string) => text.match(/-?(\d·)?(\d+(\.\d+)?·)?10[⁻⁰¹²³⁴⁵⁶⁷⁸⁹]+|-?\d+(\.\d+)?/g) ?? [];

/** A view checked for contrast: its name (in the high-contrast screenshot's name), its data, the toolbar's mode. */
export type ThemedView = [name: string, data: () => PlotViewData, mode?: string];

/** The suite's views in light, dark and high-contrast themes: every text at a contrast of at least 4.5:1. */
export function describeThemes(panel: () => PlotPanel, views: ThemedView[]) {
    describe('themes', () => {
        test.each(['light', 'dark', 'high-contrast'] as const)(
            '%s: every text has a contrast of at least 4.5:1',
            async kind => {
                for (const [name, data, mode] of views) {
                    const shot =
                        kind === 'high-contrast' ? `contrast-${name.replace(/ /g, '-')}-high-contrast` : undefined;
                    const page = await panel().show(data(), kind, mode, shot);
                    const result = await page.evaluate(contrastOffenders, 4.5);
                    expect(result.checked, name).toBeGreaterThan(12);
                    expect(result.offenders, `${name} in ${kind}`).toEqual([]);
                    await page.close();
                }
            },
        );
    });
}
