/**
 * A wide, short panel (1600 × 420 CSS px, an editor above Theia's Problems view): the language server lays the
 * chain out for its shape (top-down columns side by side), so that *Readable* shows a good part of it rather than
 * the 3 boxes one left-to-right row of the X-ray chain showed. Screenshots in light and dark go to
 * test-results/diagram/wide-short-xray-{readable,fit}-{light,dark}.png.
 */
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { overlappingTexts, seen, within } from './overview-geometry.js';
import { panelPage, press, settle, TOOLBAR } from './panel-page.js';
import { smallestDiagramText } from './readable-text.js';
import { THEMES, themeScript } from './vscode-themes.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const xray = join(repo, 'samples', 'xray.chain');
const PAGE = { width: 1600, height: 420 };
/** Boxes of the X-ray chain's 25 that Readable shows whole: a third of the chain (one row showed 3). */
const AT_LEAST = 8;

let client: DiagramClient;
let browser: Browser;
let url: string;
let model: Record<string, unknown>;

beforeAll(async () => {
    url = await panelPage(artifacts, 'wide-short.html');
    client = await DiagramClient.start();
    const uri = pathToFileURL(xray).toString();
    await client.open(uri, readFileSync(xray, 'utf-8'));
    const viewport = { width: PAGE.width, height: PAGE.height - TOOLBAR };
    model = (await client.requestModel('wide-short-xray', uri, { view: 'chain', viewport })).newRoot;
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

async function open(theme: keyof typeof THEMES): Promise<Page> {
    const page = await browser.newPage({ viewport: PAGE });
    await page.addInitScript('window.__name = f => f');
    await page.goto(url);
    await page.waitForFunction(() => 'chainlabDiagram' in window, undefined, { timeout: 10_000 });
    await page.evaluate(themeScript(THEMES[theme]));
    await page.evaluate(
        json =>
            (window as unknown as { chainlabDiagram: { show(m: unknown): Promise<void> } }).chainlabDiagram.show(
                JSON.parse(json),
            ),
        JSON.stringify(model),
    );
    await page.waitForSelector('svg.sprotty-graph g.sprotty-node');
    await settle(page);
    return page;
}

describe('a wide, short panel', () => {
    test(`Readable shows at least ${AT_LEAST} whole boxes of the X-ray chain, readable; light and dark`, async () => {
        for (const theme of ['light', 'dark'] as const) {
            const page = await open(theme);
            await press(page, 'readable');
            const { panel, nodes, texts } = await page.evaluate(seen);
            const whole = nodes.filter(n => within(n, panel));
            console.log(`${theme}: ${whole.length} of 25 boxes whole at Readable`);
            expect(whole.length).toBeGreaterThanOrEqual(AT_LEAST);
            expect((await page.evaluate(smallestDiagramText)).min).toBeGreaterThanOrEqual(10.9);
            expect(overlappingTexts(texts)).toEqual([]);
            await page.screenshot({ path: join(artifacts, `wide-short-xray-readable-${theme}.png`) });
            await press(page, 'fit');
            await page.screenshot({ path: join(artifacts, `wide-short-xray-fit-${theme}.png`) });
            await page.close();
        }
    });
});
