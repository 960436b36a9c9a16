/**
 * Results on the model in Chromium, as a user meets them: the toolbar's Options panel offers `Colour by` in the box
 * chain and the plan (nowhere else), the pick asks for a new model; coloured by a result, the boxes take the
 * scale's fills with every text still at a contrast of at least 4.5:1, the key sits in the top-right corner under
 * the toolbar (clear of the overview) and names the steps, and a box's popup gives its value. Light, dark and
 * high contrast;
 * screenshots go to test-results/diagram/colour-<view>-<by>-<theme>.png.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient, elements } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { contrastOffenders } from './contrast.js';
import { givePopup } from './popup-model.js';
import { panelPage, PANEL, settle, TOOLBAR, reveal } from './panel-page.js';
import { THEMES, themeScript, type Theme } from './vscode-themes.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const sample = join(repo, 'samples', 'xray.chain');
const uri = pathToFileURL(sample).toString();

type Api = {
    show(m: unknown): Promise<void>;
    setPopups(p: Record<string, unknown>): void;
    optionChanges(): Array<{ colourBy?: object }>;
};

let client: DiagramClient;
let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
    pageUrl = await panelPage(artifacts, 'colour-page.html');
    client = await DiagramClient.start();
    await client.open(uri, readFileSync(sample, 'utf-8'));
    browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

const model = async (view: string, colourBy: string, theme: string) =>
    (
        await client.requestModel(`colour-${view}-${colourBy}-${theme}`, uri, {
            view,
            colourBy,
            viewport: { width: PANEL.width, height: PANEL.height - TOOLBAR },
        })
    ).newRoot;

/**
 * The panel with `root` shown at Readable zoom and scrolled to its first box (the plan is wider than the panel:
 * Readable shows its top-left corner, where the layout may leave no box).
 */
async function openPanel(_browser: Browser, url: string, root: Record<string, unknown>, theme: Theme): Promise<Page> {
    const page = await browser.newPage({ viewport: PANEL });
    const errors: string[] = [];
    page.on('pageerror', e => errors.push(e.message));
    await page.addInitScript('window.__name = f => f');
    await page.goto(url);
    await page.waitForFunction(() => 'chainlabDiagram' in window, undefined, { timeout: 10_000 });
    await page.evaluate(themeScript(theme));
    await page.evaluate(
        json => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.show(JSON.parse(json)),
        JSON.stringify(root),
    );
    const first = elements(root).find(e => e.type === 'node:box' || e.type === 'node:subbox');
    if (first) await reveal(page, first.id);
    await page.waitForSelector('svg.sprotty-graph g.sprotty-node');
    await settle(page);
    if (errors.length) throw new Error(errors.join('\n'));
    return page;
}

const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`) });

describe('the Options panel', () => {
    test('offers Colour by in the box chain and the plan only, kept per view', async () => {
        for (const [view, offered] of [
            ['chain', true],
            ['plan', true],
            ['lanes', false],
        ] as const) {
            const page = await openPanel(browser, pageUrl, await model(view, 'none', 'light'), THEMES.light);
            const toggle = page.locator('[data-control="options"] > button');
            expect(await toggle.isVisible()).toBe(offered);
            if (offered) {
                await toggle.click();
                const select = page.locator('select[data-control="colour-by"]');
                expect(await select.isVisible()).toBe(true);
                const choices = await select.locator('option').allTextContents();
                expect(choices).toEqual([
                    'nothing',
                    'share of latency',
                    'measured ÷ calibrated',
                    'slack',
                    'buffer memory',
                ]);
                await shot(page, `colour-options-panel-${view}`);
                await select.selectOption('slack');
                const changes = await page.evaluate(() =>
                    (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.optionChanges(),
                );
                expect(changes.at(-1)?.colourBy).toEqual({ [view]: 'slack' });
                await page.keyboard.press('Escape');
                expect(await select.isVisible()).toBe(false);
            }
            await page.close();
        }
    }, 120_000);
});

describe.each(['light', 'dark', 'high-contrast'] as const)('coloured by a result, %s theme', theme => {
    test.each([
        ['chain', 'share', 'node:box'],
        ['plan', 'slack', 'node:subbox'],
        ['chain', 'memory', 'node:box'],
    ] as const)(
        '%s by %s: filled boxes, legible text, the key in the top-right corner, the value in a popup',
        async (view, by, type) => {
            const root = await model(view, by, theme);
            const page = await openPanel(browser, pageUrl, root, THEMES[theme]);
            const key = page.locator('g.chainlab-heat-key');
            await key.waitFor();
            const keyBox = (await key.boundingBox())!;
            const canvas = (await page.locator('svg.sprotty-graph').boundingBox())!;
            expect(keyBox.y).toBeGreaterThanOrEqual(canvas.y); // under the toolbar
            expect(keyBox.x + keyBox.width).toBeLessThanOrEqual(canvas.x + canvas.width);
            expect(keyBox.y + keyBox.height).toBeLessThan(canvas.y + canvas.height / 2); // clear of the overview
            const colouring = (root as { colouring: { title: string; bins: Array<{ text: string }> } }).colouring;
            const keyTexts = await key.locator('text').allTextContents();
            expect(keyTexts[0]).toContain(colouring.title);
            expect(keyTexts.slice(1)).toEqual(colouring.bins.map(b => b.text));
            expect(await page.locator('g.chainlab-colour-key').count()).toBe(0); // the thread key stands aside
            // every line of the key inside its box, none cut at its edge
            const back = (await key.locator('rect.heat-key-back').boundingBox())!;
            for (const text of await key.locator('text').all()) {
                const box = (await text.boundingBox())!;
                expect(box.x + box.width).toBeLessThanOrEqual(back.x + back.width);
            }
            // the boxes take the scale's fills, distinct steps in distinct colours
            const fills = await page
                .locator('g.sprotty-node.heat > .node-body')
                .evaluateAll(rs =>
                    rs.map(
                        r =>
                            `${[...r.parentElement!.classList].find(c => /^heat-\d$/.test(c))}=${getComputedStyle(r).fill}`,
                    ),
                );
            expect(fills.length).toBeGreaterThan(0);
            const byStep = new Map(fills.map(f => f.split('=') as [string, string]));
            // high contrast has no tints: its steps differ by their border's weight
            if (theme !== 'high-contrast') expect(new Set(byStep.values()).size).toBe(byStep.size);
            // the overview's frame, over whatever node lies under the bottom-right corner, is not the node's background
            const hideOverview = await page.addStyleTag({ content: '.chainlab-minimap { display: none; }' });
            const { offenders, lowest } = await page.evaluate(contrastOffenders, 4.5);
            await hideOverview.evaluate(e => e.remove());
            console.log(`contrast ${view} by ${by}, ${theme}: lowest ${lowest.ratio}:1 ("${lowest.text}")`);
            expect(offenders).toEqual([]);
            await shot(page, `colour-${view}-${by}-${theme}`);
            // the popup says the value the colour stands for
            const node = elements(root).find(e => e.type === type && (e as { result?: string }).result)!;
            await givePopup(client, page, `colour-${view}-${by}-${theme}`, node.id);
            await reveal(page, node.id);
            await settle(page);
            const bounds = (await page.locator(`[id$="_${node.id}"]`).first().boundingBox())!;
            await page.mouse.move(bounds.x + bounds.width / 2, bounds.y + bounds.height / 2);
            await page.mouse.move(bounds.x + bounds.width / 2 + 2, bounds.y + bounds.height / 2 + 1);
            const shown = page.locator('.sprotty-popup .chainlab-popup');
            await shown.waitFor({ timeout: 10_000 });
            expect(await shown.textContent()).toContain((node as { result?: string }).result);
            await shot(page, `colour-${view}-${by}-${theme}-popup`);
            await page.close();
        },
        120_000,
    );
});

test('measured before any run: the thread colours stay, and their key says there is nothing to compare yet', async () => {
    const page = await openPanel(browser, pageUrl, await model('plan', 'measured', 'light'), THEMES.light);
    const key = page.locator('g.chainlab-colour-key');
    await key.waitFor();
    expect(await page.locator('g.chainlab-heat-key').count()).toBe(0);
    expect(await key.locator('g.colour-key-entry').count()).toBeGreaterThan(1); // the threads
    const texts = await key.locator('text').allTextContents();
    expect(texts.at(-2)).toContain('measured ÷ calibrated time');
    expect(texts.at(-1)).toMatch(/^no run yet/);
    expect(await page.locator('g.sprotty-node.heat').count()).toBe(0);
    const back = (await key.locator('rect.colour-key-back').boundingBox())!;
    const note = (await key.locator('text').last().boundingBox())!;
    expect(note.x + note.width).toBeLessThanOrEqual(back.x + back.width);
    await shot(page, 'colour-plan-measured-no-run');
    await page.close();
}, 60_000);
