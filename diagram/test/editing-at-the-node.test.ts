/**
 * Editing without friction, in a half-width panel (800 × 1000) in Chromium with the xray chain the language
 * server laid out: F2 opens the rename form at the selected node (not in the panel's corner), the stale banner
 * sits in a strip above the drawing and covers no node (one line; a click unfolds the whole reason), and a
 * click or a drag on the canvas leaves no focus frame (only keyboard focus shows one). Screenshots in light
 * and dark go to test-results/diagram/editing-*.png.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { openPanel, PANEL, panelPage, settle, TOOLBAR } from './panel-page.js';
import { THEMES } from './vscode-themes.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const sample = join(repo, 'samples', 'xray.chain');

let client: DiagramClient;
let browser: Browser;
let url: string;
let model: Record<string, unknown>;

beforeAll(async () => {
    url = await panelPage(artifacts, 'editing.html');
    client = await DiagramClient.start();
    const uri = pathToFileURL(sample).toString();
    await client.open(uri, readFileSync(sample, 'utf-8'));
    const viewport = { width: PANEL.width, height: PANEL.height - TOOLBAR };
    model = (await client.requestModel('editing', uri, { view: 'chain', viewport })).newRoot;
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

type Rect = { x: number; y: number; width: number; height: number };
const overlap = (a: Rect, b: Rect) =>
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

/** The boxes of the nodes that are (at least partly) in the panel. */
async function nodesOnScreen(page: Page): Promise<Rect[]> {
    const boxes = await page.locator('svg.sprotty-graph g.sprotty-node').evaluateAll(nodes =>
        nodes.map(n => {
            const r = n.getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
        }),
    );
    return boxes.filter(b => b.y + b.height > TOOLBAR && b.y < PANEL.height && b.x + b.width > 0 && b.x < PANEL.width);
}

describe.each(['light', 'dark'] as const)('%s', kind => {
    test('F2 renames at the node: the form opens next to the selected box, inside the panel', async () => {
        const page = await openPanel(browser, url, model, THEMES[kind]);
        const node = page.locator('g.sprotty-node[id$="_detector"]').first();
        await node.click();
        await page.keyboard.press('F2');
        const form = page.locator('form.chainlab-rename');
        await expect.poll(() => form.locator('input').inputValue()).toBe('detector');
        await settle(page);
        const [at, box] = [(await node.boundingBox())!, (await form.boundingBox())!];
        // just below (or above) the node, overlapping it horizontally, and wholly in the panel
        const gap = Math.min(Math.abs(box.y - (at.y + at.height)), Math.abs(at.y - (box.y + box.height)));
        expect(gap).toBeLessThan(12);
        expect(box.x).toBeLessThan(at.x + at.width);
        expect(box.x + box.width).toBeGreaterThan(at.x);
        expect(box.x).toBeGreaterThanOrEqual(0);
        expect(box.y).toBeGreaterThanOrEqual(0);
        expect(box.x + box.width).toBeLessThanOrEqual(PANEL.width);
        expect(box.y + box.height).toBeLessThanOrEqual(PANEL.height);
        await page.screenshot({ path: join(artifacts, `editing-rename-${kind}.png`) });
        await page.keyboard.press('Escape');
        expect(await form.count()).toBe(0);
        await page.close();
    });

    test('the stale banner covers no node: one line in a strip above the drawing, a click unfolds it', async () => {
        const reason = `3 error(s), first at 3:5: no box NoSuchBox; ${'the rest of a long message '.repeat(8)}`;
        const page = await openPanel(browser, url, { ...model, stale: true, staleReason: reason }, THEMES[kind]);
        const banner = page.locator('.stale-banner');
        const folded = (await banner.boundingBox())!;
        expect(folded.height).toBeLessThan(30); // one line
        expect(folded.x + folded.width).toBeLessThanOrEqual(PANEL.width);
        const toolbar = (await page.locator('#toolbar').boundingBox())!;
        expect(folded.y).toBeGreaterThanOrEqual(toolbar.y + toolbar.height); // under the toolbar row
        const nodes = await nodesOnScreen(page);
        expect(nodes.length).toBeGreaterThan(0);
        for (const n of nodes) expect(overlap(folded, n), `banner over a node at ${n.x},${n.y}`).toBe(false);
        // the drawing starts below the strip
        const svg = (await page.locator('svg.sprotty-graph').boundingBox())!;
        expect(svg.y).toBeGreaterThanOrEqual(folded.y + folded.height);
        await page.screenshot({ path: join(artifacts, `editing-stale-${kind}.png`) });
        await banner.click();
        await expect.poll(async () => (await banner.boundingBox())!.height).toBeGreaterThan(30); // the whole reason
        expect((await banner.boundingBox())!.x + (await banner.boundingBox())!.width).toBeLessThanOrEqual(PANEL.width);
        await banner.click();
        await expect.poll(async () => (await banner.boundingBox())!.height).toBeLessThan(30);
        await page.close();
    });

    test('no focus frame after a click or a drag on the canvas; the keyboard still gets one', async () => {
        const page = await openPanel(browser, url, model, THEMES[kind]);
        const svg = page.locator('svg.sprotty-graph');
        const outline = () => svg.evaluate(e => getComputedStyle(e).outlineStyle);
        const node = (await page.locator('g.sprotty-node[id$="_detector"]').first().boundingBox())!;
        await page.mouse.move(node.x + node.width / 2, node.y + node.height / 2);
        await page.mouse.down();
        await page.mouse.move(node.x + node.width / 2 + 40, node.y + node.height / 2 + 30, { steps: 5 });
        await page.mouse.up();
        await settle(page);
        expect(await svg.evaluate(e => e === document.activeElement)).toBe(true); // keys go to the diagram
        expect(await outline()).toBe('none');
        await page.screenshot({ path: join(artifacts, `editing-after-drag-${kind}.png`) });
        // Tab through the toolbar onto the canvas: now it shows the frame
        await svg.evaluate(e => (e as unknown as HTMLElement).blur());
        for (let i = 0; i < 20 && !(await svg.evaluate(e => e === document.activeElement)); i++)
            await page.keyboard.press('Tab');
        expect(await svg.evaluate(e => e === document.activeElement)).toBe(true);
        expect(await outline()).toBe('solid');
        await page.close();
    });
});
