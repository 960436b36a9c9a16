/**
 * A text edit's new diagram: a small one morphs from the old (intermediate frames), a large one is swapped in
 * at once (src/update-model.ts), because morphing hundreds of nodes re-renders the whole SVG every frame.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MORPH_ELEMENT_LIMIT } from '../src/update-model.js';
import { launchBrowser } from './browser.js';
import { standalonePage } from './standalone-page.js';

const artifacts = join(import.meta.dirname, '..', '..', 'test-results', 'diagram');
let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
    pageUrl = await standalonePage(artifacts, 'update-morph.html');
    browser = await launchBrowser();
});
afterAll(() => browser?.close());

/** `boxes` boxes of three elements each (node, label, port) in one column, all shifted by `dy`. */
function column(boxes: number, dy: number) {
    return {
        type: 'graph',
        id: 'graph',
        view: 'chain',
        children: Array.from({ length: boxes }, (_, i) => ({
            type: 'node:box',
            id: `b${i}`,
            position: { x: 20, y: 20 + i * 60 + dy },
            size: { width: 120, height: 40 },
            children: [
                {
                    type: 'label:heading',
                    id: `b${i}-name`,
                    text: `box ${i}`,
                    position: { x: 8, y: 4 },
                    size: { width: 60, height: 14 },
                },
                { type: 'port:in', id: `b${i}-i`, position: { x: -5, y: 15 }, size: { width: 10, height: 10 } },
            ],
        })),
    };
}

/** The first box's transforms from just before an update until it is done: one per painted state. */
async function transformsDuringUpdate(boxes: number): Promise<string[]> {
    const page = await browser.newPage({ viewport: { width: 800, height: 900 } });
    await page.goto(pageUrl);
    await page.waitForFunction(() => 'chainlabDiagram' in window);
    type Api = { chainlabDiagram: { show(m: unknown): Promise<void>; update(m: unknown): Promise<void> } };
    await page.evaluate(m => (window as unknown as Api).chainlabDiagram.show(m), column(boxes, 0));
    await page.waitForSelector('g.sprotty-node');
    const seen = await page.evaluate(
        async m => {
            const transforms: string[] = [];
            const record = () => {
                const node = document.querySelector('g.sprotty-node');
                const t = node?.getAttribute('transform') ?? '';
                if (transforms.at(-1) !== t) transforms.push(t);
            };
            record();
            const observer = new MutationObserver(record);
            observer.observe(document.getElementById('sprotty')!, { attributes: true, subtree: true, childList: true });
            await (window as unknown as Api).chainlabDiagram.update(m);
            await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
            observer.disconnect();
            record();
            return transforms;
        },
        column(boxes, 30),
    );
    await page.close();
    return seen;
}

describe('an updated diagram', () => {
    test('a small diagram morphs to its new layout through intermediate frames', async () => {
        const seen = await transformsDuringUpdate(10);
        expect(seen.length).toBeGreaterThan(2); // old, some in between, new
        expect(seen.at(-1)).not.toBe(seen[0]);
    });

    test('a large diagram jumps to its new layout in one frame', async () => {
        const boxes = Math.ceil(MORPH_ELEMENT_LIMIT / 3) + 10;
        const seen = await transformsDuringUpdate(boxes);
        expect(seen).toHaveLength(2); // old, new
    });
});
