/**
 * The panel's overlays (the corner overview, the thread-colour key, the key of a result colouring) cover no node
 * when a diagram opens, at *Fit* and at *Readable*, and a diagram opens (and *Readable* returns) where reading
 * starts: its source wholly in the panel near the top-left, with more boxes beside or below it. The xray chain,
 * the 200-box synth chain and the xray plan coloured by slack, in a half-width panel (800 × 1000) in Chromium,
 * light and dark. Screenshots go to test-results/diagram/overlays-<name>-<step>-<theme>.png.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { openPanel, PANEL, panelPage, press, TOOLBAR } from './panel-page.js';
import { THEMES } from './vscode-themes.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const xray = join(repo, 'samples', 'xray.chain');
const synth200 = join(here, 'fixtures', 'synth-200.chain');
/** [name, file, request options, the id of a source node]: the views whose overlays the test checks. */
const CASES = [
    ['xray-chain', xray, { view: 'chain' }, 'detector'],
    ['synth-200-chain', synth200, { view: 'chain' }, 'in0'],
    ['xray-plan-slack', xray, { view: 'plan', colourBy: 'slack' }, 'detector.0'],
] as const;
type Name = (typeof CASES)[number][0];

let client: DiagramClient;
let browser: Browser;
let url: string;
const models = new Map<Name, Record<string, unknown>>();

beforeAll(async () => {
    url = await panelPage(artifacts, 'overlays.html');
    client = await DiagramClient.start();
    const viewport = { width: PANEL.width, height: PANEL.height - TOOLBAR };
    for (const file of new Set(CASES.map(c => c[1])))
        await client.open(pathToFileURL(file).toString(), readFileSync(file, 'utf-8'));
    for (const [name, file, options] of CASES)
        models.set(
            name,
            (await client.requestModel(`overlays-${name}`, pathToFileURL(file).toString(), { ...options, viewport }))
                .newRoot,
        );
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

interface Box {
    left: number;
    top: number;
    right: number;
    bottom: number;
}

/** The overlays shown, the top-level nodes drawn and the panel, in page px (a function for page.evaluate). */
function overlaysAndNodes(): {
    overlays: Array<Box & { what: string }>;
    nodes: Array<Box & { id: string }>;
    panel: Box;
} {
    const box = (e: Element): Box => {
        const r = e.getBoundingClientRect();
        return { left: r.left, top: r.top, right: r.right, bottom: r.bottom };
    };
    const overlays = [
        ...document.querySelectorAll('svg.chainlab-minimap, g.chainlab-colour-key, g.chainlab-heat-key'),
    ].map(e => ({ ...box(e), what: e.getAttribute('class') ?? '' }));
    const nodes = [...document.querySelectorAll('svg.sprotty-graph > g > g.sprotty-node')].map(n => ({
        ...box(n.querySelector(':scope > rect.node-body') ?? n),
        id: n.id,
    }));
    return { overlays, nodes, panel: box(document.querySelector('#sprotty svg.sprotty-graph')!) };
}

const intersects = (a: Box, b: Box) =>
    Math.min(a.right, b.right) - Math.max(a.left, b.left) > 0.5 &&
    Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > 0.5;

async function covered(page: Page): Promise<string[]> {
    const { overlays, nodes } = await page.evaluate(overlaysAndNodes);
    return overlays.flatMap(o => nodes.filter(n => intersects(o, n)).map(n => `${o.what} over ${n.id}`));
}

/** The nodes wholly inside the panel, by model id, with their boxes relative to the panel's top-left. */
async function wholeInPanel(page: Page): Promise<Map<string, Box>> {
    const { nodes, panel } = await page.evaluate(overlaysAndNodes);
    const inside = nodes.filter(
        n =>
            n.left >= panel.left - 0.5 &&
            n.top >= panel.top - 0.5 &&
            n.right <= panel.right + 0.5 &&
            n.bottom <= panel.bottom + 0.5,
    );
    const relative = (n: Box): Box => ({
        left: n.left - panel.left,
        top: n.top - panel.top,
        right: n.right - panel.left,
        bottom: n.bottom - panel.top,
    });
    return new Map(inside.map(n => [n.id.replace(/^sprotty_/, ''), relative(n)]));
}

describe('reading starts at the source', () => {
    test.each(CASES.map(c => [c[0], c[3]]))('%s: opened and at Readable, %s wholly in view', async (name, source) => {
        for (const theme of ['light', 'dark'] as const) {
            const page = await openPanel(browser, url, models.get(name), THEMES[theme]);
            for (const step of ['open', 'readable'] as const) {
                if (step !== 'open') await press(page, 'fit').then(() => press(page, step));
                const whole = await wholeInPanel(page);
                const at = `${name} ${step} ${theme}: ${[...whole.keys()].join(' ')}`;
                expect(whole.has(source), at).toBe(true);
                // near the top-left (below a key's strip at most), no box above it: the first row in view
                const start = whole.get(source)!;
                expect(start.left, at).toBeLessThan(400);
                expect(start.top, at).toBeLessThan(PANEL.height / 4);
                expect([...whole.values()].filter(n => n.bottom <= start.top).length, at).toBe(0);
                expect(whole.size, at).toBeGreaterThanOrEqual(3);
            }
            await page.close();
        }
    });
});

describe('the overlays cover no node', () => {
    test.each(CASES.map(c => c[0]))('%s: after opening, at Fit and at Readable; light and dark', async name => {
        for (const theme of ['light', 'dark'] as const) {
            const page = await openPanel(browser, url, models.get(name), THEMES[theme]);
            for (const step of ['open', 'fit', 'readable'] as const) {
                if (step !== 'open') await press(page, step);
                await page.screenshot({ path: join(artifacts, `overlays-${name}-${step}-${theme}.png`) });
                expect(await covered(page), `${name} ${step} ${theme}`).toEqual([]);
            }
            await page.close();
        }
    });
});
