/**
 * Results drawn on the model, in a half-width panel (800 × 1000) in Chromium with models the language server
 * laid out for it: every directed edge ends in a visible arrowhead; the plan routes each dependency to its own
 * port and a hovered sub-box traces its inputs; plan and lanes carry a thread-colour key clear of the overview;
 * the critical path is outlined and its toggle changes no text; the PTTS end-to-end box shows the analysed
 * CDF with the p99 marked. Screenshots in light and dark go to test-results/diagram/results-*.png.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient, elements } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { contrastOffenders } from './contrast.js';
import { seen, within } from './overview-geometry.js';
import { openPanel, PANEL, panelPage, press, settle, TOOLBAR } from './panel-page.js';
import { THEMES } from './vscode-themes.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const xray = pathToFileURL(join(repo, 'samples', 'xray.chain')).toString();
const ptts = pathToFileURL(join(repo, 'samples', 'ptts', 'thesis-fig5-2.chain')).toString();
const KINDS = ['light', 'dark'] as const;

type Model = Record<string, unknown>;
type El = { id: string; type: string; cssClasses?: string[]; sourceId?: string; targetId?: string };

let client: DiagramClient;
let browser: Browser;
let url: string;
const models = new Map<string, Model>();

beforeAll(async () => {
    url = await panelPage(artifacts, 'results.html');
    client = await DiagramClient.start();
    for (const uri of [xray, ptts]) await client.open(uri, readFileSync(fileURLToPath(uri), 'utf-8'));
    await client.connection.sendRequest('chainlab/analyze', { uri: ptts, ptts: 'Fig52' });
    const viewport = { width: PANEL.width, height: PANEL.height - TOOLBAR };
    const requests: Array<[string, string, Record<string, unknown>]> = [
        ['chain', xray, { view: 'chain' }],
        ['plan', xray, { view: 'plan' }],
        ['plan-plain', xray, { view: 'plan', showCritical: false }],
        ['lanes', xray, { view: 'lanes' }],
        ['ptts', ptts, { view: 'ptts', element: 'Fig52' }],
    ];
    for (const [name, uri, options] of requests)
        models.set(name, (await client.requestModel(`results-${name}`, uri, { ...options, viewport })).newRoot);
    browser = await launchBrowser();
}, 120_000);

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

const all = (name: string) => elements(models.get(name) as never) as unknown as El[];
const open = (name: string, kind: keyof typeof THEMES) => openPanel(browser, url, models.get(name), THEMES[kind]);
const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `results-${name}.png`) });

/** Every arrowhead drawn, and whether the topmost element at its centre is the arrowhead itself. */
const arrowheads = (page: Page) =>
    page.evaluate(() =>
        [...document.querySelectorAll('svg.sprotty-graph polygon.edge-arrowhead')].map(p => {
            const r = p.getBoundingClientRect();
            const x = r.x + r.width / 2;
            const y = r.y + r.height / 2;
            // in the drawing's part of the panel (the SVG below the toolbar, as far as the window shows it)
            const svg = p.closest('svg.sprotty-graph')!.getBoundingClientRect();
            const inPanel =
                x > Math.max(svg.left, 0) &&
                y > Math.max(svg.top, 0) &&
                x < Math.min(svg.right, innerWidth) &&
                y < Math.min(svg.bottom, innerHeight);
            // the edge's own invisible hit area may lie over it; anything else (a port, a node) hides it
            const top = document.elementFromPoint(x, y);
            // as are the corner overlays (colour key, overview), which lie over the whole drawing by design
            const onTop =
                top === p ||
                top?.closest('g.sprotty-edge') === p.closest('g.sprotty-edge') ||
                top?.closest('.chainlab-colour-key, .chainlab-minimap') !== null;
            return { inPanel, onTop, size: Math.max(r.width, r.height) };
        }),
    );

describe('results on the model', () => {
    test('every directed edge ends in an arrowhead that no port covers', async () => {
        for (const name of ['chain', 'plan', 'ptts'])
            for (const kind of KINDS) {
                // as the view opens (Readable): at Fit a large drawing's arrowheads are as small as its text
                const page = await open(name, kind);
                const edges = await page.locator('svg.sprotty-graph g.sprotty-edge').count();
                const heads = await arrowheads(page);
                expect(edges, name).toBeGreaterThan(0);
                expect(heads.length, name).toBe(edges);
                const shown = heads.filter(h => h.inPanel);
                expect(shown.filter(h => !h.onTop).length, `${name}: arrowheads under something`).toBe(0);
                expect(Math.min(...shown.map(h => h.size)), name).toBeGreaterThan(3);
                await shot(page, `${name}-arrows-${kind}`);
                await page.close();
            }
    });

    test('plan: each dependency has its own input port; hovering a sub-box traces its inputs', async () => {
        const deps = all('plan').filter(e => e.type === 'edge:dependency');
        expect(new Set(deps.map(d => d.targetId)).size, 'no two dependencies share an input port').toBe(deps.length);
        const inputsOf = (id: string) => deps.filter(d => d.targetId!.startsWith(`${id}.in.`));
        const outputsOf = (id: string) => deps.filter(d => d.sourceId!.startsWith(`${id}.out.`));
        for (const kind of KINDS) {
            const page = await open('plan', kind);
            // the sub-box in view (as the plan opens) with the most inputs
            const shown = await page.evaluate(() =>
                [...document.querySelectorAll('g.sprotty-node')].map(g => g.id.replace(/^sprotty_/, '')),
            );
            const target = shown.reduce((a, b) => (inputsOf(b).length > inputsOf(a).length ? b : a));
            expect(inputsOf(target).length, target).toBeGreaterThan(1);
            await page.locator(`g.sprotty-node[id="sprotty_${target}"] rect.node-body`).hover();
            await settle(page);
            expect(await page.locator('svg.sprotty-graph.tracing').count()).toBe(1);
            const traced = await page.locator('g.sprotty-edge.traced').count();
            expect(traced).toBe(inputsOf(target).length + outputsOf(target).length);
            const faint = await page.evaluate(
                () => getComputedStyle(document.querySelector('g.sprotty-edge:not(.traced)')!).opacity,
            );
            expect(Number(faint)).toBeLessThan(0.5);
            await shot(page, `plan-traced-${kind}`);
            await page.close();
        }
    });

    test('plan at Fit: every sub-box, of every thread, inside the panel', async () => {
        for (const kind of KINDS) {
            const page = await open('plan', kind);
            await press(page, 'fit');
            const { panel, nodes } = await page.evaluate(seen);
            expect(nodes.length).toBe(all('plan').filter(e => e.type === 'node:subbox').length);
            expect(nodes.filter(n => !within(n, panel)).length, 'sub-boxes outside the panel').toBe(0);
            await shot(page, `plan-fit-${kind}`);
            await page.close();
        }
    });

    test('plan and lanes: a key to the thread colours, clear of the overview, readable', async () => {
        for (const name of ['plan', 'lanes'])
            for (const kind of KINDS) {
                const page = await open(name, kind);
                const key = page.locator('.chainlab-colour-key');
                await expect.poll(() => key.count()).toBe(1);
                const texts = await key.locator('text').allTextContents();
                expect(texts.filter(t => /core \d+/.test(t)).length, `${name}: one line per thread`).toBe(4);
                expect(texts, name).toContain('critical path');
                const box = (await key.boundingBox())!;
                const overview = await page.locator('.chainlab-minimap').boundingBox();
                if (overview)
                    expect(
                        box.x + box.width <= overview.x ||
                            overview.x + overview.width <= box.x ||
                            box.y + box.height <= overview.y ||
                            overview.y + overview.height <= box.y,
                        `${name}: key over the overview`,
                    ).toBe(true);
                expect(box.x + box.width).toBeLessThanOrEqual(PANEL.width);
                const { offenders } = await page.evaluate(contrastOffenders, 4.5);
                expect(offenders, `${name} ${kind}`).toEqual([]);
                await shot(page, `${name}-key-${kind}`);
                await page.close();
            }
    });

    test('the critical path is outlined in plan and lanes; turning it off changes no text', async () => {
        const critical = (name: string) => all(name).filter(e => e.cssClasses?.includes('critical'));
        expect(critical('plan').filter(e => e.type === 'node:subbox').length).toBeGreaterThan(0);
        expect(critical('plan').filter(e => e.type === 'edge:dependency').length).toBeGreaterThan(0);
        expect(critical('lanes').length).toBeGreaterThan(0);
        expect(critical('plan-plain')).toEqual([]);
        const texts = (name: string) => all(name).map(e => (e as { text?: string }).text ?? '');
        expect(texts('plan-plain')).toEqual(texts('plan'));
        for (const kind of KINDS) {
            const page = await open('plan', kind);
            const outline = await page.evaluate(() => {
                const style = getComputedStyle(document.querySelector('g.sprotty-node.critical rect.node-body')!);
                return { width: style.strokeWidth, scaled: style.vectorEffect };
            });
            // 3 px at any zoom: at Fit on a large plan a scaled outline was under a pixel
            expect(outline).toEqual({ width: '3px', scaled: 'non-scaling-stroke' });
            await shot(page, `plan-critical-${kind}`);
            await page.close();
            const lanes = await open('lanes', kind);
            expect(await lanes.locator('g.sprotty-node.step-execute.critical').count()).toBeGreaterThan(0);
            await lanes.close();
        }
    });

    test('PTTS: the analysed end-to-end box carries its CDF with the p99 marked', async () => {
        const spark = all('ptts').find(e => e.id === 'analysis.cdf') as El & { marks?: number[] };
        expect(spark?.marks?.length).toBe(1);
        for (const kind of KINDS) {
            const page = await open('ptts', kind);
            const summary = page.locator('g.sprotty-node[id$="_analysis"]');
            await summary.scrollIntoViewIfNeeded();
            expect(await summary.locator('g.sparkline path').count()).toBe(1);
            expect(await summary.locator('line.sparkline-mark').count()).toBe(1);
            const [node, line] = [await summary.boundingBox(), await summary.locator('g.sparkline').boundingBox()];
            expect(within(rect(line!), rect(node!)), 'the sparkline inside its box').toBe(true);
            await shot(page, `ptts-${kind}`);
            await page.close();
        }
    });
});

function rect(b: { x: number; y: number; width: number; height: number }) {
    return { left: b.x, top: b.y, right: b.x + b.width, bottom: b.y + b.height };
}
