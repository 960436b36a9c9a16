/**
 * An edit made in the diagram scrolls what it concerns into view when the new layout moved it away: connecting
 * the last box of a long top-down chain to a lone box at its top moves that box to the bottom, and the update
 * that answers the edit shows it. Drawn as a user does (click the output port, scroll, click the input port),
 * the edit applied to the text and laid out by the language server, in an 800 × 1000 panel in Chromium.
 * Screenshots: test-results/diagram/edit-focus-{before,after}-{light,dark}.png.
 */
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { openPanel, PANEL, panelPage, reveal, settle, TOOLBAR, viewportOf } from './panel-page.js';
import { THEMES } from './vscode-themes.js';

const here = dirname(fileURLToPath(import.meta.url));
const artifacts = join(here, '..', '..', 'test-results', 'diagram');
const uri = pathToFileURL(join(artifacts, 'edit-focus.chain')).toString();

const STAGES = 10;
const chain = (extra: string) => `platform P { cores 2 }
image F 8 x 8 of u8
box S { out o: F source period 10 ms }
box G { in i: F out o: F kernel gain(2) split rows depends pointwise cost 1 ms }
box K { in i: F kernel sink }
chain C on P {
    s: S
${Array.from({ length: STAGES }, (_, i) => `    g${i + 1}: G\n`).join('')}    k: K
    tail: G
    s.o -> g1.i
${Array.from({ length: STAGES - 1 }, (_, i) => `    g${i + 1}.o -> g${i + 2}.i\n`).join('')}    g${STAGES}.o -> k.i
${extra}}
`;

type Api = { update(m: unknown): Promise<void>; edits(): unknown[] };
type Placed = { id: string; type: string; name?: string; children?: Placed[] };

let client: DiagramClient;
let browser: Browser;
let url: string;
let request = 0;
const viewport = { width: PANEL.width, height: PANEL.height - TOOLBAR };

beforeAll(async () => {
    url = await panelPage(artifacts, 'edit-focus.html');
    client = await DiagramClient.start();
    await client.open(uri, chain(''));
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

/** The model the server lays out for `text` (the panel's size). */
async function modelOf(text: string): Promise<Record<string, unknown>> {
    await client.change(uri, text);
    return (await client.requestModel(`edit-focus-${request++}`, uri, { view: 'chain', viewport })).newRoot;
}

const portOf = (model: Record<string, unknown>, instance: string, type: string) =>
    (model.children as Placed[]).find(c => c.name === instance)!.children!.find(p => p.type === type)!.id;

async function clickPort(page: Page, id: string): Promise<void> {
    await reveal(page, id);
    await settle(page);
    const box = (await page.locator(`[id="sprotty_${id}"]`).boundingBox())!;
    await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
}

/** Whether the node of instance `name` lies wholly in the panel. */
async function inView(page: Page, model: Record<string, unknown>, name: string): Promise<boolean> {
    const node = (model.children as Placed[]).find(c => c.name === name)!;
    const body = page.locator(`[id="sprotty_${node.id}"] > rect.node-body`);
    const box = (await body.count()) ? await body.boundingBox() : null; // sprotty draws only what is in view
    const canvas = (await page.locator('svg.sprotty-graph').boundingBox())!;
    return (
        !!box &&
        box.x >= canvas.x &&
        box.y >= canvas.y &&
        box.x + box.width <= canvas.x + canvas.width &&
        box.y + box.height <= canvas.y + canvas.height
    );
}

describe('an edit made in the diagram', () => {
    test('a connection that moves its target away scrolls the target into view; light and dark', async () => {
        for (const theme of ['light', 'dark'] as const) {
            const before = await modelOf(chain(''));
            const page = await openPanel(browser, url, before, THEMES[theme]);
            expect(await inView(page, before, 'tail')).toBe(true); // a lone box: at the top, beside the source
            await clickPort(page, portOf(before, `g${STAGES}`, 'port:out'));
            await clickPort(page, portOf(before, 'tail', 'port:in'));
            const edits = await page.evaluate(() =>
                (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.edits(),
            );
            expect(edits.at(-1)).toEqual({ op: 'connect', chain: 'C', from: `g${STAGES}.o`, to: 'tail.i' });
            await page.screenshot({ path: join(artifacts, `edit-focus-before-${theme}.png`) });
            // the language server applies the edit to the text and lays the chain out again
            const after = await modelOf(chain(`    g${STAGES}.o -> tail.i\n`));
            const node = (after.children as Array<Placed & { position: { y: number } }>).find(c => c.name === 'tail')!;
            const shown = await viewportOf(page);
            // the new layout puts the target below the part of the drawing in view
            expect(node.position.y).toBeGreaterThan(shown.scroll.y + shown.canvas.height / shown.zoom);
            await page.evaluate(m => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.update(m), after);
            await settle(page);
            await expect.poll(() => inView(page, after, 'tail'), { timeout: 5_000 }).toBe(true);
            await page.screenshot({ path: join(artifacts, `edit-focus-after-${theme}.png`) });
            await page.close();
        }
    });
});
