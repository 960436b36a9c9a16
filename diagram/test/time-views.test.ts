/**
 * The views this work changed, rendered in Chromium from models the real language server generated, in a light
 * and a dark theme (the CSS variables VS Code gives a webview): the trigger timeline's axis, grid, point windows
 * and legend; the thread lanes' Gantt bars, signal arrows and label column, which stays in view when the diagram
 * scrolls; the PTTS view's sparklines; the box chain's edge labels; and a node's hover popup with the server's
 * content. Screenshots go to test-results/diagram/<view>-<theme>.png.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient, elements } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { contrastOffenders } from './contrast.js';
import { THEMES as VSCODE_THEMES, themeScript } from './vscode-themes.js';
import { givePopup } from './popup-model.js';
import { standalonePage } from './standalone-page.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const sample = join(repo, 'samples', 'xray.chain');
const uri = pathToFileURL(sample).toString();

/** What VS Code's Dark Modern and Light Modern themes give a webview (the variables our CSS reads). */
const THEMES = {
    light: {
        class: 'vscode-light',
        vars: {
            '--vscode-editor-background': '#ffffff',
            '--vscode-foreground': '#3b3b3b',
            '--vscode-editor-foreground': '#3b3b3b',
            '--vscode-descriptionForeground': '#6e6e6e',
            '--vscode-editorWidget-background': '#f8f8f8',
            '--vscode-editorWidget-border': '#c8c8c8',
            '--vscode-charts-blue': '#1a85ff',
            '--vscode-charts-green': '#388a34',
            '--vscode-charts-orange': '#d18616',
            '--vscode-charts-purple': '#652d90',
            '--vscode-editorHoverWidget-background': '#f8f8f8',
            '--vscode-editorHoverWidget-foreground': '#3b3b3b',
            '--vscode-editorHoverWidget-border': '#c8c8c8',
        },
    },
    dark: {
        class: 'vscode-dark',
        vars: {
            '--vscode-editor-background': '#1f1f1f',
            '--vscode-foreground': '#cccccc',
            '--vscode-editor-foreground': '#cccccc',
            '--vscode-descriptionForeground': '#9d9d9d',
            '--vscode-editorWidget-background': '#202020',
            '--vscode-editorWidget-border': '#454545',
            '--vscode-charts-blue': '#3794ff',
            '--vscode-charts-green': '#89d185',
            '--vscode-charts-orange': '#d18616',
            '--vscode-charts-purple': '#b180d7',
            '--vscode-editorHoverWidget-background': '#202020',
            '--vscode-editorHoverWidget-foreground': '#cccccc',
            '--vscode-editorHoverWidget-border': '#454545',
        },
    },
} as const;
type Theme = keyof typeof THEMES;

let client: DiagramClient;
let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
    pageUrl = await standalonePage(artifacts, 'time-page.html');
    client = await DiagramClient.start();
    await client.open(uri, readFileSync(sample, 'utf-8'));
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

type Api = {
    show(m: unknown): Promise<void>;
    setPopups(p: Record<string, unknown>): void;
    reveal(id: string): Promise<void>;
};

async function show(view: string, theme: Theme, viewport = { width: 1400, height: 900 }) {
    const reply = await client.requestModel(`time-${view}-${theme}`, uri, { view });
    const model = reply.newRoot;
    const page = await browser.newPage({ viewport });
    const errors: string[] = [];
    page.on('pageerror', e => errors.push(e.message));
    await page.goto(pageUrl);
    await page.evaluate(({ cls, vars }) => {
        document.body.classList.add(cls);
        for (const [k, v] of Object.entries(vars)) document.body.style.setProperty(k, v);
        document.body.style.background = vars['--vscode-editor-background'];
    }, THEMES[theme]);
    await page.waitForFunction(() => 'chainlabDiagram' in window, undefined, { timeout: 10_000 });
    await page.evaluate(m => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.show(m), model);
    await page.waitForSelector('svg.sprotty-graph g.sprotty-node');
    return { page, model, errors, clientId: `time-${view}-${theme}` };
}

async function shot(page: Page, name: string): Promise<void> {
    await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}

describe.each(['light', 'dark'] as const)('time-scaled views in Chromium, %s theme', theme => {
    test('trigger timeline: axis ticks and grid, point windows as ticks, a legend', async () => {
        const { page, model, errors } = await show('timeline', theme);
        const axis = elements(model).find(e => e.type === 'node:axis') as unknown as { ticks: Array<{ text: string }> };
        expect(await page.locator('g.time-axis text.axis-label').allTextContents()).toEqual(
            axis.ticks.map(t => t.text),
        );
        expect(await page.locator('g.time-axis line.axis-grid').count()).toBe(axis.ticks.length);
        const points = page.locator('g.interval-point rect.interval-body');
        expect(await points.count()).toBeGreaterThan(0);
        for (const box of await points.evaluateAll(rs => rs.map(r => r.getBoundingClientRect().width)))
            expect(box).toBeGreaterThanOrEqual(1.5); // visible after fit-to-screen, not 0 px
        const legend = await page.locator('g.legend text.legend-text').allTextContents();
        expect(legend.length).toBe(4);
        await shot(page, `timeline-${theme}`);
        expect(errors).toEqual([]);
        await page.close();
    });

    test('thread lanes: Gantt bars, signal arrows, a legend', async () => {
        const { page, model, errors } = await show('lanes', theme);
        const all = elements(model);
        expect(await page.locator('g.lane').count()).toBe(all.filter(e => e.type === 'node:lane').length);
        expect(await page.locator('g.step-execute').count()).toBe(all.filter(e => e.type === 'node:step').length);
        expect(await page.locator('g.signal-arrow polygon.arrow-head').count()).toBeGreaterThanOrEqual(
            all.filter(e => e.type === 'node:arrow').length,
        );
        await shot(page, `lanes-${theme}`);
        expect(errors).toEqual([]);
        await page.close();
    });

    test('PTTS view and box chain (sparklines with a visible step, edge labels)', async () => {
        for (const view of ['ptts', 'chain']) {
            const { page, errors } = await show(view, theme);
            await shot(page, `${view}-${theme}`);
            if (view === 'chain') {
                // the whole chain fits only tiny: zoomed in on its middle, the edge labels can be read
                await page.mouse.move(600, 450);
                for (let i = 0; i < 3; i++) await page.mouse.wheel(0, -150);
                await shot(page, `chain-zoomed-${theme}`);
            }
            expect(errors).toEqual([]);
            await page.close();
        }
    });
});

describe('thread lanes after a real run on this machine', () => {
    test('with the overlay picked: measured bars under the predicted ones, in the legend, readable in every theme', async () => {
        const fig = join(repo, 'samples', 'chains', 'fig3-5.chain');
        const figUri = pathToFileURL(fig).toString();
        await client.open(figUri, readFileSync(fig, 'utf-8'));
        const runs = mkdtempSync(join(tmpdir(), 'chainlab-lanes-'));
        // Run on target as the editor asks for it: baseline on `here`, a short run with the trace on
        const reply = await client.connection.sendRequest<{ scenarios: Array<{ tasks?: unknown[] }> }>(
            'chainlab/deploy',
            {
                uri: figUri,
                chain: 'Fig35',
                target: 'here',
                scenario: 'baseline',
                iterations: 20,
                runs,
            },
        );
        const traced = reply.scenarios[0].tasks ?? [];
        expect(traced.length).toBeGreaterThan(0);
        for (const [theme, look] of Object.entries(VSCODE_THEMES)) {
            // the measured bars are an overlay the user picks (the toolbar's `measured`); by default the plan alone
            const plain = (await client.requestModel(`lanes-plain-${theme}`, figUri, { view: 'lanes' })).newRoot;
            expect(JSON.stringify(plain)).not.toContain('step-measured');
            const model = (
                await client.requestModel(`lanes-run-${theme}`, figUri, { view: 'lanes', showMeasured: true })
            ).newRoot;
            const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
            await page.addInitScript('window.__name = f => f'); // esbuild's keepNames helper, for functions sent to the page
            await page.goto(pageUrl);
            await page.evaluate(themeScript(look));
            await page.waitForFunction(() => 'chainlabDiagram' in window, undefined, { timeout: 10_000 });
            await page.evaluate(m => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.show(m), model);
            await page.waitForSelector('g.step-measured');
            expect(await page.locator('g.step-measured').count()).toBe(traced.length);
            const legend = await page.locator('g.legend text.legend-text').allTextContents();
            expect(
                legend.some(t => t.startsWith('sub-box execution as measured') && t.includes('baseline on here')),
            ).toBe(true);
            await shot(page, `lanes-measured-${theme}`);
            const { offenders } = await page.evaluate(contrastOffenders, 4.5);
            expect(offenders).toEqual([]);
            await page.close();
        }
    }, 120_000);
});

describe('behaviour in Chromium', () => {
    test('lane labels stay at the left edge while the diagram scrolls right', async () => {
        const { page } = await show('lanes', 'light', { width: 700, height: 500 });
        const label = () =>
            page.evaluate(() => {
                const r = document.querySelector('g.lane g.lane-label')!.getBoundingClientRect();
                return { x: r.x, width: r.width };
            });
        const svgLeft = await page.locator('svg.sprotty-graph').evaluate(s => s.getBoundingClientRect().left);
        const before = await label();
        // zoom in, then pan right by dragging the empty background, as a user would
        await page.mouse.move(350, 250);
        for (let i = 0; i < 2; i++) await page.mouse.wheel(0, -100);
        await page.mouse.move(650, 40);
        await page.mouse.down();
        await page.mouse.move(50, 40, { steps: 8 });
        await page.mouse.up();
        const after = await label();
        expect(after.width).toBeGreaterThan(before.width * 1.2); // zoomed in
        expect(after.x).toBeGreaterThanOrEqual(svgLeft - 1); // still on screen, at the left edge
        expect(after.x).toBeLessThan(svgLeft + 2);
        await shot(page, 'lanes-scrolled');
        await page.close();
    });

    test("hovering a node opens its popup with the language server's content", async () => {
        const cases = [
            { view: 'chain', id: 'snr', expect: [/kernel convolution/, /split rows/] },
            { view: 'ptts', id: 'GPU', expect: [/component GPU/, /ETP as a cumulative probability/] },
            { view: 'lanes', id: 'snr.1', expect: [/box SpatialNR/, /predicted [\d.]+ ms/] },
        ];
        for (const theme of ['light', 'dark'] as const)
            for (const c of cases) {
                const { page, model, clientId, errors } = await show(c.view, theme);
                const node = elements(model).find(e => e.type.startsWith('node:') && e.id.endsWith(c.id))!;
                await givePopup(client, page, clientId, node.id);
                // scrolled into view (sprotty draws only what is on screen), then hovered and rested on as a user does:
                // that opens the popup (Sprotty's hover listener)
                await page.evaluate(
                    id => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.reveal(id),
                    node.id,
                );
                const bounds = (await page.locator(`[id$="_${node.id}"]`).first().boundingBox())!;
                await page.mouse.move(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
                await page.mouse.move(bounds.x + bounds.width / 2 + 2, bounds.y + bounds.height / 2 + 1);
                const shown = page.locator('.sprotty-popup .chainlab-popup');
                await shown.waitFor({ timeout: 10_000 });
                const text = await shown.textContent();
                for (const pattern of c.expect) expect(text).toMatch(pattern);
                // pictures in the popup are drawn as SVG (the CDF path has a length), not as unknown HTML
                for (const length of await shown
                    .locator('svg path')
                    .evaluateAll(ps => ps.map(p => (p as SVGPathElement).getTotalLength())))
                    expect(length).toBeGreaterThan(0);
                await shot(page, `popup-${c.view}-${theme}`);
                expect(errors).toEqual([]);
                await page.close();
            }
    });
});
