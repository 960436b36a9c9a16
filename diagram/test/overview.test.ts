/**
 * The diagram as an overview at any size, in a half-width panel (800 × 1000) in Chromium with models the
 * language server laid out for it: *Fit* shows the whole of a 25-, 200- and 500-box chain with every node in
 * the panel and no text over another; *Readable* never goes below readable text; − / + keep the panel's centre
 * and the wheel the point under the pointer, and neither pushes the drawing out of view; zoomed out, nodes
 * show unique short names or none (never `b…`), sources and sinks keep theirs; the corner overview shows where
 * the view is and moves it. Screenshots in light and dark go to test-results/diagram/overview-*.png.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { drawingOnScreen, modelNodes, overlappingTexts, seen, within } from './overview-geometry.js';
import { openPanel, PANEL, panelPage, press, reveal, settle, TOOLBAR, viewportOf } from './panel-page.js';
import { smallestDiagramText } from './readable-text.js';
import { THEMES } from './vscode-themes.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
/** The xray sample and the chains `chainlab synth --boxes N --seed 1` writes (kept as fixtures). */
const CHAINS = {
    xray: join(repo, 'samples', 'xray.chain'),
    'synth-200': join(here, 'fixtures', 'synth-200.chain'),
    'synth-500': join(here, 'fixtures', 'synth-500.chain'),
};
type Name = keyof typeof CHAINS;

let client: DiagramClient;
let browser: Browser;
let url: string;
const models = new Map<Name, Record<string, unknown>>();

beforeAll(async () => {
    url = await panelPage(artifacts, 'overview.html');
    client = await DiagramClient.start();
    const viewport = { width: PANEL.width, height: PANEL.height - TOOLBAR };
    for (const [name, file] of Object.entries(CHAINS) as Array<[Name, string]>) {
        const uri = pathToFileURL(file).toString();
        await client.open(uri, readFileSync(file, 'utf-8'));
        models.set(name, (await client.requestModel(`overview-${name}`, uri, { view: 'chain', viewport })).newRoot);
    }
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

const open = (name: Name, kind: keyof typeof THEMES = 'light') =>
    openPanel(browser, url, models.get(name), THEMES[kind]);
const look = (page: Page) => page.evaluate(seen);

describe('the whole diagram at any size', () => {
    test('Fit: every node inside the panel, no text over another, no name cut to …; light and dark', async () => {
        for (const name of Object.keys(CHAINS) as Name[])
            for (const kind of ['light', 'dark'] as const) {
                const page = await open(name, kind);
                await press(page, 'fit');
                const { panel, nodes, texts } = await look(page);
                // every node is drawn (sprotty leaves out those outside the panel), inside the panel
                expect(nodes.length, name).toBe(modelNodes(models.get(name)!).length);
                expect(nodes.filter(n => !within(n, panel)).length, `${name}: nodes outside`).toBe(0);
                expect(overlappingTexts(texts), name).toEqual([]);
                expect(
                    texts.filter(t => t.text.endsWith('…')).map(t => t.text),
                    name,
                ).toEqual([]);
                expect((await page.evaluate(smallestDiagramText)).min).toBeGreaterThanOrEqual(10.9);
                await page.screenshot({ path: join(artifacts, `overview-${name}-fit-${kind}.png`) });
                await page.close();
            }
    });

    test('a 200-box chain fills the panel at Fit rather than a strip', async () => {
        const page = await open('synth-200');
        await press(page, 'fit');
        const { canvas, ...viewport } = await viewportOf(page);
        const drawing = drawingOnScreen(modelNodes(models.get('synth-200')!), viewport);
        const filled =
            ((drawing.right - drawing.left) * (drawing.bottom - drawing.top)) / (canvas.width * canvas.height);
        expect(filled).toBeGreaterThan(0.5);
        await page.close();
    });

    test('Readable: never below readable text; a long chain opens with many boxes in view', async () => {
        const page = await open('synth-200');
        const opened = await viewportOf(page);
        expect(opened.zoom).toBeGreaterThanOrEqual(11 / 12 - 1e-9);
        await press(page, 'fit');
        expect((await viewportOf(page)).zoom).toBeLessThan(0.3);
        await press(page, 'readable');
        expect((await viewportOf(page)).zoom).toBeCloseTo(opened.zoom, 6);
        // reading starts at the top-left: the source is in view, with the overview showing where that is
        const source = (await page.locator('g.sprotty-node[id$="in0"] > rect.node-body').boundingBox())!;
        expect(source.y + source.height).toBeLessThanOrEqual(PANEL.height);
        expect(source.x).toBeGreaterThanOrEqual(0);
        expect(source.x + source.width).toBeLessThanOrEqual(PANEL.width / 2);
        expect(await page.locator('svg.chainlab-minimap').count()).toBe(1);
        await page.close();
    });
});

describe('zoom keeps its anchor and the drawing in view', () => {
    /** The model point at a panel point (CSS px from the panel's top-left). */
    const modelAt = async (page: Page, x: number, y: number) => {
        const v = await viewportOf(page);
        return { x: v.scroll.x + x / v.zoom, y: v.scroll.y + y / v.zoom };
    };

    test('− and + keep the point at the panel centre, the wheel the point under the pointer', async () => {
        const page = await open('synth-200');
        const ids = (models.get('synth-200')!.children as Array<{ id: string; type: string }>).filter(
            c => c.type === 'node:box',
        );
        await reveal(page, ids[100].id);
        await settle(page);
        const { canvas } = await viewportOf(page);
        const centre = await modelAt(page, canvas.width / 2, canvas.height / 2);
        await press(page, 'zoom-out');
        const after = await modelAt(page, canvas.width / 2, canvas.height / 2);
        expect(after.x).toBeCloseTo(centre.x, 0);
        expect(after.y).toBeCloseTo(centre.y, 0);
        await press(page, 'zoom-in');
        expect((await modelAt(page, canvas.width / 2, canvas.height / 2)).y).toBeCloseTo(centre.y, 0);
        // the pointer 200 px right of and 300 px below the panel's top-left corner (the toolbar is above it)
        const top = (await page.locator('#sprotty svg.sprotty-graph').boundingBox())!.y;
        const under = await modelAt(page, 200, 300);
        const before = (await viewportOf(page)).zoom;
        await page.mouse.move(200, top + 300);
        await page.mouse.wheel(0, 100);
        await expect.poll(async () => (await viewportOf(page)).zoom).toBeCloseTo(before / 1.15, 6);
        const now = await modelAt(page, 200, 300);
        expect(now.x).toBeCloseTo(under.x, 0);
        expect(now.y).toBeCloseTo(under.y, 0);
        await page.close();
    });

    test('twenty − clicks from Readable: the drawing never leaves the panel nor leaves it empty', async () => {
        for (const kind of ['light', 'dark'] as const) {
            const page = await open('synth-200', kind);
            const nodes = modelNodes(models.get('synth-200')!);
            for (let i = 0; i < 20; i++) {
                await press(page, 'zoom-out');
                const { canvas, ...viewport } = await viewportOf(page);
                const drawing = drawingOnScreen(nodes, viewport);
                const panel = { left: 0, top: 0, right: canvas.width, bottom: canvas.height };
                for (const [start, end] of [
                    ['left', 'right'],
                    ['top', 'bottom'],
                ] as const) {
                    const size = drawing[end] - drawing[start];
                    if (size <= panel[end] - panel[start]) {
                        expect(drawing[start], `click ${i + 1}: ${start}`).toBeGreaterThanOrEqual(panel[start] - 0.5);
                        expect(drawing[end]).toBeLessThanOrEqual(panel[end] + 0.5);
                    } else {
                        // the padding (20 px) at most is empty at either edge
                        expect(drawing[start], `click ${i + 1}: ${start}`).toBeLessThanOrEqual(panel[start] + 20.5);
                        expect(drawing[end]).toBeGreaterThanOrEqual(panel[end] - 20.5);
                    }
                }
                if (i === 5)
                    await page.screenshot({ path: join(artifacts, `overview-synth-200-zoomed-out-${kind}.png`) });
            }
            await page.close();
        }
    });
});

describe('zoomed out, names stay distinct', () => {
    test('names shrink to unique short names or disappear, never to b…; sources and sinks keep theirs', async () => {
        for (const [name, clicks] of [
            ['xray', 4],
            ['synth-200', 4],
            ['synth-200', 30],
        ] as const) {
            const page = await open(name);
            await press(page, 'zoom-out', clicks);
            const { texts } = await look(page);
            const names = texts.map(t => t.text);
            expect(
                names.filter(t => t.endsWith('…')),
                `${name} −×${clicks}`,
            ).toEqual([]);
            expect(new Set(names).size, `${name} −×${clicks}: ${names.join(' ')}`).toBe(names.length);
            expect(overlappingTexts(texts), name).toEqual([]);
            // far out (the whole chain in view), the source and the sink still say which they are
            if (clicks === 30) expect(names).toEqual(expect.arrayContaining(['in0', 'out0']));
            await page.screenshot({ path: join(artifacts, `overview-${name}-out${clicks}-light.png`) });
            await page.close();
        }
    });
});

describe('the corner overview', () => {
    test('shows where the view is on a drawing larger than the panel, and moves the view on a click', async () => {
        for (const kind of ['light', 'dark'] as const) {
            const page = await open('synth-200', kind);
            const map = page.locator('svg.chainlab-minimap');
            await expect.poll(() => map.count()).toBe(1);
            const box = (await map.boundingBox())!;
            expect(box.x + box.width).toBeLessThanOrEqual(PANEL.width);
            expect(box.y + box.height).toBeLessThanOrEqual(PANEL.height);
            await page.screenshot({ path: join(artifacts, `overview-synth-200-minimap-${kind}.png`) });
            const before = await viewportOf(page);
            await page.mouse.click(box.x + box.width * 0.9, box.y + box.height * 0.9);
            await settle(page);
            const after = await viewportOf(page);
            expect(after.zoom).toBeCloseTo(before.zoom, 6);
            expect(after.scroll.x).toBeGreaterThan(before.scroll.x + 500);
            expect(after.scroll.y).toBeGreaterThan(before.scroll.y + 500);
            await press(page, 'fit');
            expect(await map.count()).toBe(0); // the whole drawing is in view: nothing to show
            await page.close();
        }
    });

    test('is never a strip, and frames the whole view', async () => {
        for (const name of ['xray', 'synth-200', 'synth-500'] as const) {
            const page = await open(name);
            const map = page.locator('svg.chainlab-minimap');
            await expect.poll(() => map.count()).toBe(1);
            const box = (await map.boundingBox())!;
            expect(Math.min(box.width, box.height), name).toBeGreaterThanOrEqual(47);
            const frame = (await page.locator('svg.chainlab-minimap rect.minimap-view').boundingBox())!;
            expect(frame.x, name).toBeGreaterThanOrEqual(box.x - 1);
            expect(frame.y, name).toBeGreaterThanOrEqual(box.y - 1);
            expect(frame.x + frame.width, name).toBeLessThanOrEqual(box.x + box.width + 1);
            expect(frame.y + frame.height, name).toBeLessThanOrEqual(box.y + box.height + 1);
            await page.screenshot({ path: join(artifacts, `overview-${name}-minimap-frame-light.png`) });
            await page.close();
        }
    });
});
