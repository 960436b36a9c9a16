/**
 * Readability, zoom and theming of every view, in a half-width panel (800 × 1000 CSS px) in Chromium, with
 * models the language server laid out for that panel: a diagram opens with text of at least 11 px, the
 * toolbar's zoom buttons (Readable, −, +, 100 %, Fit) and the wheel (1.15× a notch) zoom, a resize fits again,
 * zoomed-out labels collapse to names and come back, each view shows only its own controls, and every text
 * has a WCAG contrast ≥ 4.5:1 in light, dark and high-contrast themes. Screenshots of each view in light and
 * dark go to test-results/diagram/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import * as esbuild from 'esbuild';
import { DiagramClient } from '../../language/test/diagram-server/diagram-client.js';
import { webviewOptions } from '../esbuild.mjs';
import { launchBrowser } from './browser.js';
import { contrastOffenders } from './contrast.js';
import { smallestDiagramText } from './readable-text.js';
import { THEMES, themeScript, type Theme } from './vscode-themes.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const PANEL = { width: 800, height: 1000 };
const TOOLBAR = 36; // the page's toolbar row above the diagram
const samples = {
    xray: join(repo, 'samples', 'xray.chain'),
    fig35: join(repo, 'samples', 'chains', 'fig3-5.chain'),
    ptts: join(repo, 'samples', 'ptts', 'thesis-fig5-2.chain'),
};
/** Every view of the three samples: [name, sample, view]. */
const VIEWS: Array<[string, keyof typeof samples, string]> = [
    ['xray-chain', 'xray', 'chain'],
    ['xray-plan', 'xray', 'plan'],
    ['xray-lanes', 'xray', 'lanes'],
    ['fig3-5-chain', 'fig35', 'chain'],
    ['ptts', 'ptts', 'ptts'],
    ['timeline', 'ptts', 'timeline'],
];

type Api = {
    show(m: unknown): Promise<void>;
    viewport(): Promise<{ zoom: number; scroll: { x: number; y: number }; canvas: { width: number; height: number } }>;
};

let client: DiagramClient;
let browser: Browser;
let pageUrl: string;
const models = new Map<string, Record<string, unknown>>();

beforeAll(async () => {
    await esbuild.build(webviewOptions);
    mkdirSync(artifacts, { recursive: true });
    const dist = join(here, '..', 'dist');
    const html = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="${pathToFileURL(join(dist, 'standalone.css')).href}"></head>
<body><div id="toolbar"></div><div id="sprotty" style="width:100%;height:calc(100vh - ${TOOLBAR}px)"></div><script src="${pathToFileURL(join(dist, 'standalone.js')).href}"></script></body></html>`;
    writeFileSync(join(artifacts, 'panel.html'), html);
    pageUrl = pathToFileURL(join(artifacts, 'panel.html')).toString();
    client = await DiagramClient.start();
    for (const file of Object.values(samples))
        await client.open(pathToFileURL(file).toString(), readFileSync(file, 'utf-8'));
    const viewport = { width: PANEL.width, height: PANEL.height - TOOLBAR };
    for (const [name, sample, view] of VIEWS) {
        const reply = await client.requestModel(`panel-${name}`, pathToFileURL(samples[sample]).toString(), {
            view,
            viewport,
        });
        models.set(name, reply.newRoot);
    }
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

async function open(name: string, theme: Theme = THEMES.light, extra: Record<string, unknown> = {}): Promise<Page> {
    const page = await browser.newPage({ viewport: PANEL });
    const errors: string[] = [];
    page.on('pageerror', e => errors.push(e.message));
    await page.addInitScript('window.__name = f => f'); // esbuild's keepNames helper, for functions sent to the page
    await page.goto(pageUrl);
    await page.waitForFunction(() => 'chainlabDiagram' in window, undefined, { timeout: 10_000 });
    await page.evaluate(themeScript(theme));
    await page.evaluate(m => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.show(m), {
        ...models.get(name)!,
        ...extra,
    });
    await page.waitForSelector('svg.sprotty-graph g.sprotty-node');
    await page.waitForTimeout(100);
    expect(errors).toEqual([]);
    return page;
}

const viewport = (page: Page) =>
    page.evaluate(() => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.viewport());

const smallestText = (page: Page) => page.evaluate(smallestDiagramText);

describe('diagrams in a half-width panel', () => {
    test('every view opens with text of at least 11 px on screen; screenshots in light and dark', async () => {
        for (const [name] of VIEWS) {
            for (const kind of ['light', 'dark'] as const) {
                const page = await open(name, THEMES[kind]);
                const text = await smallestText(page);
                expect(text.count, name).toBeGreaterThan(0);
                expect(text.min, `${name}: smallest text ${text.min.toFixed(1)} px`).toBeGreaterThanOrEqual(10.9);
                await page.screenshot({ path: join(artifacts, `panel-${name}-${kind}.png`) });
                await page.close();
            }
        }
    });

    test('a long chain is laid out for the panel: it fills its width and scrolls down, not sideways', async () => {
        const page = await open('xray-chain');
        const { zoom, canvas } = await viewport(page);
        const width = await page.evaluate(
            () => document.querySelector('svg.sprotty-graph > g')!.getBoundingClientRect().width,
        );
        expect(zoom).toBeGreaterThanOrEqual(11 / 12);
        expect(width).toBeLessThanOrEqual(canvas.width * 1.05);
        await page.close();
    });

    test('toolbar: Readable, −, +, 100 %, Fit zoom; the wheel zooms 1.15× per notch', async () => {
        const page = await open('fig3-5-chain');
        const zoomOf = async () => (await viewport(page)).zoom;
        const fitted = await zoomOf();
        await page.click('button[data-control="zoom-in"]');
        await expect.poll(zoomOf).toBeCloseTo(fitted * 1.15, 3);
        await page.click('button[data-control="zoom-out"]');
        await page.click('button[data-control="zoom-out"]');
        await expect.poll(zoomOf).toBeCloseTo(fitted / 1.15, 3);
        await page.click('button[data-control="zoom-reset"]');
        await expect.poll(zoomOf).toBeCloseTo(1, 5);
        await page.click('button[data-control="fit"]'); // the whole diagram: no larger than readable (overview.test.ts)
        await expect.poll(zoomOf).toBeLessThanOrEqual(Math.max(fitted, 1));
        await page.click('button[data-control="readable"]');
        await expect.poll(zoomOf).toBeCloseTo(fitted, 5);
        await page.mouse.move(400, 500);
        await page.mouse.wheel(0, -100); // one notch in Chromium
        await expect.poll(zoomOf).toBeCloseTo(fitted * 1.15, 3);
        await page.mouse.wheel(0, 100);
        await expect.poll(zoomOf).toBeCloseTo(fitted, 3);
        await page.close();
    });

    test('resizing the panel fits the diagram again', async () => {
        const page = await open('ptts');
        const before = await viewport(page);
        await page.setViewportSize({ width: 1600, height: 1000 });
        // centred again in the wider canvas: the scroll moved left by half the added width
        await expect
            .poll(async () => (await viewport(page)).scroll.x)
            .toBeCloseTo(before.scroll.x - 800 / 2 / before.zoom, 0);
        await page.close();
    });

    test('smart zoom: zoomed out, details collapse and names stay legible; zoomed in, they come back', async () => {
        const page = await open('xray-chain');
        const details = () =>
            page.evaluate(
                () =>
                    [...document.querySelectorAll('svg text.sprotty-label.detail')].filter(
                        t => getComputedStyle(t).display !== 'none',
                    ).length,
            );
        expect(await details()).toBeGreaterThan(0);
        for (let i = 0; i < 6; i++) await page.click('button[data-control="zoom-out"]');
        await expect.poll(details).toBe(0);
        expect(await page.locator('g.summary text').count()).toBeGreaterThan(0);
        expect((await smallestText(page)).min).toBeGreaterThanOrEqual(10.9);
        await page.screenshot({ path: join(artifacts, 'panel-xray-chain-summary.png') });
        for (let i = 0; i < 6; i++) await page.click('button[data-control="zoom-in"]');
        await expect.poll(details).toBeGreaterThan(0);
        expect(await page.locator('g.summary').count()).toBe(0);
        await page.close();
    });

    test('each view shows only the controls that mean something in it', async () => {
        const visible = async (page: Page) =>
            (await page
                .locator('.chainlab-toolbar [data-control]:visible')
                .evaluateAll(es => es.map(e => (e as HTMLElement).dataset.control))) as string[];
        const zoom = ['fit', 'readable', 'zoom-out', 'zoom-in', 'zoom-reset'];
        const expected: Record<string, string[]> = {
            'fig3-5-chain': [...zoom, 'palette', 'ports', 'costs', 'options', 'export'],
            'xray-plan': [...zoom, 'heuristic', 'critical', 'options', 'export'],
            'xray-lanes': [...zoom, 'heuristic', 'critical', 'export'],
            ptts: [...zoom, 'export'],
            timeline: [...zoom, 'export'],
        };
        for (const [name, controls] of Object.entries(expected)) {
            const page = await open(name, THEMES.dark);
            expect(await visible(page), name).toEqual(controls);
            await page.screenshot({
                path: join(artifacts, `toolbar-${name}-dark.png`),
                clip: { x: 0, y: 0, ...PANEL, height: 40 },
            });
            if (name === 'fig3-5-chain') {
                // unticking "ports" asks for a model without port labels (in VS Code the widget re-requests it)
                await page.locator('[data-control="ports"] input').uncheck();
                const changes = await page.evaluate(() =>
                    (
                        window as unknown as { chainlabDiagram: { optionChanges(): unknown[] } }
                    ).chainlabDiagram.optionChanges(),
                );
                expect(changes).toEqual([
                    { showPorts: false, showCosts: true, heuristic: '', showMeasured: false, showCritical: true },
                ]);
            }
            await page.close();
        }
    });

    test('the stale banner is one line above the drawing and unfolds, wrapped inside the panel, on a click', async () => {
        const reason = `3 error(s), first at 3:5: no box NoSuchBox; ${'the rest of a long message '.repeat(8)}`;
        const page = await open('xray-chain', THEMES.dark, { stale: true, staleReason: reason });
        const banner = page.locator('.stale-banner');
        const folded = (await banner.boundingBox())!;
        expect(folded.height).toBeLessThan(30); // one line in its strip (it covers no node there)
        await banner.click();
        await expect.poll(async () => (await banner.boundingBox())!.height).toBeGreaterThan(30); // wrapped
        const box = (await banner.boundingBox())!;
        expect(box.x + box.width).toBeLessThanOrEqual(PANEL.width);
        await page.screenshot({ path: join(artifacts, 'panel-stale-dark.png') });
        await banner.click();
        await expect.poll(async () => (await banner.boundingBox())!.height).toBeLessThan(box.height);
        await page.close();
    });

    test('every text has a contrast of at least 4.5:1 in light, dark and high-contrast themes', async () => {
        const report: string[] = [];
        for (const [kind, theme] of Object.entries(THEMES)) {
            for (const [name] of VIEWS) {
                const page = await open(
                    name,
                    theme,
                    name === 'xray-chain' ? { stale: true, staleReason: 'an error' } : {},
                );
                const { checked, offenders, lowest } = await page.evaluate(contrastOffenders, 4.5);
                expect(checked, `${kind} ${name}`).toBeGreaterThan(3);
                console.log(`contrast ${kind} ${name}: ${checked} texts, lowest ${lowest.ratio}:1 ("${lowest.text}")`);
                for (const o of offenders)
                    report.push(`${kind} ${name}: "${o.text}" ${o.ratio}:1 (${o.fg} on ${o.bg})`);
                await page.close();
            }
        }
        expect(report).toEqual([]);
        // the check itself finds a bad colour: light-grey labels on the light theme's boxes
        const page = await open('fig3-5-chain');
        await page.addStyleTag({ content: '.sprotty-label { fill: #d0d0d0 !important; }' });
        const { offenders } = await page.evaluate(contrastOffenders, 4.5);
        expect(offenders.length).toBeGreaterThan(5);
        await page.close();
    });
});
