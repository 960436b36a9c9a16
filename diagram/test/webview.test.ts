/**
 * The diagram webview bundle in a plain page in Chromium, showing models the language server generated:
 * nodes, ports and edges are rendered, a click selects a node (and would reveal it in the text), the
 * PTTS view draws its ETP sparklines, a stale diagram says so, and the editing gestures (palette,
 * connect two ports, Delete) produce the edits the language server applies. Screenshots go to test-results/.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient, elements } from '../../language/test/diagram-server/diagram-client.js';
import { webviewOptions } from '../esbuild.mjs';
import * as esbuild from 'esbuild';
import { launchBrowser } from './browser.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const sample = join(repo, 'samples', 'xray.chain');
const uri = pathToFileURL(sample).toString();

let client: DiagramClient;
let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
    await esbuild.build(webviewOptions); // the bundle under test is the current source
    mkdirSync(artifacts, { recursive: true });
    const dist = join(here, '..', 'dist');
    const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src file:; style-src 'unsafe-inline' file:">
<link rel="stylesheet" href="${pathToFileURL(join(dist, 'standalone.css')).href}"></head>
<body><div id="toolbar" class="chainlab-toolbar"></div><div id="sprotty" style="width:1400px;height:900px"></div><script src="${pathToFileURL(join(dist, 'standalone.js')).href}"></script></body></html>`;
    writeFileSync(join(artifacts, 'page.html'), html);
    pageUrl = pathToFileURL(join(artifacts, 'page.html')).toString();
    client = await DiagramClient.start();
    await client.open(uri, readFileSync(sample, 'utf-8'));
    browser = await launchBrowser();
});

afterAll(async () => {
    await browser?.close();
    client?.stop();
});

async function show(
    view: string,
    extra: Record<string, unknown> = {},
    documentUri = uri,
): Promise<{ page: Page; model: Record<string, unknown>; errors: string[] }> {
    const reply = await client.requestModel(
        `page-${view}-${Object.keys(extra).join('-')}-${documentUri.length}`,
        documentUri,
        { view, ...extra },
    );
    const model = { ...reply.newRoot, ...extra };
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    const errors: string[] = [];
    page.on('pageerror', e => errors.push(e.message));
    await page.goto(pageUrl);
    await page
        .waitForFunction(() => 'chainlabDiagram' in window, undefined, { timeout: 10_000 })
        .catch(e => {
            throw new Error(`${e.message}; page errors: ${errors.join('; ')}`);
        });
    await page.evaluate(
        m => (window as unknown as { chainlabDiagram: { show(m: unknown): void } }).chainlabDiagram.show(m),
        model,
    );
    await page.waitForSelector('svg.sprotty-graph g.sprotty-node');
    // the whole diagram on screen (sprotty renders only what is in view; a readable fit may not show all)
    await page.evaluate(() =>
        (window as unknown as { chainlabDiagram: { fitAll(): Promise<void> } }).chainlabDiagram.fitAll(),
    );
    return { page, model, errors };
}

describe('the diagram webview in Chromium', () => {
    test('box chain: every node, port and edge is rendered and a click selects', async () => {
        const { page, model, errors } = await show('chain');
        const all = elements(model);
        const count = (type: string) => all.filter(e => e.type === type).length;
        await expect.poll(() => page.locator('g.sprotty-node').count()).toBe(count('node:box')); // after fit to screen
        expect(await page.locator('g.sprotty-port').count()).toBe(count('port:in') + count('port:out'));
        expect(await page.locator('g.sprotty-edge').count()).toBe(count('edge'));
        const first = all.find(e => e.type === 'node:box')!;
        await page.locator(`[id$="_${first.id}"]`).first().click();
        await expect
            .poll(() =>
                page.evaluate(() =>
                    (window as unknown as { chainlabDiagram: { selected(): string[] } }).chainlabDiagram.selected(),
                ),
            )
            .toContain(first.id);
        expect(await page.locator('g.sprotty-node.selected').count()).toBe(1);
        await page.screenshot({ path: join(artifacts, 'chain.png'), fullPage: true });
        expect(errors).toEqual([]);
        await page.close();
    });

    test('editing gestures: palette adds, output then input port connects, Delete removes the selection', async () => {
        const { page, model, errors } = await show('chain');
        type Api = { edits(): Array<Record<string, string>>; selected(): string[] };
        const edits = () =>
            page.evaluate(() => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.edits());
        const all = elements(model);
        const byId = new Map(all.map(e => [e.id, e]));
        const names = new Set(all.filter(e => e.type === 'node:box').map(e => String(e.name)));

        // the palette lists the file's boxes and adds an instance under a free name
        const options = await page.locator('select.chainlab-palette option').allTextContents();
        expect(options).toEqual(['add box…', ...(model as { palette: string[] }).palette]);
        await page.selectOption('select.chainlab-palette', 'Sum');
        await expect
            .poll(edits)
            .toEqual([{ op: 'addInstance', chain: 'XRay', box: 'Sum', name: names.has('sum1') ? 'sum2' : 'sum1' }]);

        // an output port, then an input port
        const edge = all.find(e => e.type === 'edge')!;
        const [source, target] = [byId.get(String(edge.sourceId))!, byId.get(String(edge.targetId))!];
        const end = (p: Record<string, unknown>) =>
            `${String(all.find(n => (n.children as Array<{ id: string }> | undefined)?.some(c => c.id === p.id))!.name)}.${String(p.name)}`;
        await page.locator(`[id$="_${source.id}"]`).first().click();
        await page.locator(`[id$="_${target.id}"]`).first().click();
        await expect
            .poll(async () => (await edits()).at(-1))
            .toEqual({ op: 'connect', chain: 'XRay', from: end(source), to: end(target) });

        // select two boxes, press Delete: one edit request with both
        const boxes = all.filter(e => e.type === 'node:box').slice(0, 2);
        await page.locator(`[id$="_${boxes[0].id}"]`).first().click();
        await page
            .locator(`[id$="_${boxes[1].id}"]`)
            .first()
            .click({ modifiers: ['Control'] });
        await page.keyboard.press('Delete');
        await expect
            .poll(async () => (await edits()).slice(2))
            .toEqual(boxes.map(b => ({ op: 'deleteInstance', chain: 'XRay', name: b.name })));
        await page.screenshot({ path: join(artifacts, 'chain-editing.png'), fullPage: true });
        expect(errors).toEqual([]);
        await page.close();
    });

    test('SVG export: a standalone SVG document with every box, its labels and the styles inlined', async () => {
        const { page, model, errors } = await show('chain');
        const svg = await page.evaluate(() =>
            (window as unknown as { chainlabDiagram: { exportSvg(): Promise<string> } }).chainlabDiagram.exportSvg(),
        );
        expect(svg).toMatch(/^<svg[^>]*xmlns="http:\/\/www.w3.org\/2000\/svg"/);
        const all = elements(model);
        const boxes = all.filter(e => e.type === 'node:box');
        expect(svg.match(/class="sprotty-node[ "]/g)?.length).toBe(boxes.length);
        for (const box of boxes) expect(svg).toContain(`>${String(box.name)}</text>`);
        // sprotty inlines the computed styles: the file looks the same anywhere
        expect(svg).toMatch(/style="[^"]*fill/);
        writeFileSync(join(artifacts, 'chain-export.svg'), svg);
        // the exported file renders on its own
        const standalone = await browser.newPage();
        await standalone.setContent(svg);
        expect(await standalone.locator('g.sprotty-node').count()).toBe(boxes.length);
        await standalone.close();
        expect(errors).toEqual([]);
        await page.close();
    });

    test('PTTS view: components with ETP sparklines and the analysis summary', async () => {
        const { page, model, errors } = await show('ptts');
        const sparklines = elements(model as never).filter(e => e.type === 'sparkline').length;
        expect(sparklines).toBeGreaterThan(0);
        expect(await page.locator('g.sparkline path').count()).toBe(sparklines);
        await expect.poll(() => page.locator('text').allTextContents()).toContain('end to end');
        await page.screenshot({ path: join(artifacts, 'ptts.png'), fullPage: true });
        expect(errors).toEqual([]);
        await page.close();
    });

    test('timeline and thread lanes render their positioned elements', async () => {
        for (const view of ['timeline', 'lanes']) {
            const { page, model, errors } = await show(view);
            // the axis, the legend and the signal arrows are drawings, not nodes one selects
            const drawings = ['node:axis', 'node:legend', 'node:arrow'];
            const nodes = elements(model as never).filter(
                e => e.type.startsWith('node:') && !drawings.includes(e.type),
            ).length;
            await expect.poll(() => page.locator('g.sprotty-node').count()).toBe(nodes);
            await page.screenshot({ path: join(artifacts, `${view}.png`), fullPage: true });
            expect(errors).toEqual([]);
            await page.close();
        }
    });

    test('a warning shows as an issue marker on its node', async () => {
        const text = readFileSync(sample, 'utf-8')
            .replace(/^\s*storage:.*\n/m, '')
            .replace(/^.*-> storage\.i.*\n/m, '');
        const warnedUri = uri.replace(/xray\.chain$/, 'xray-warned.chain');
        await client.open(warnedUri, text);
        const { page, errors } = await show('chain', {}, warnedUri);
        await expect.poll(() => page.locator('g.sprotty-issue').count()).toBe(1);
        expect(await page.locator('g.sprotty-node[id$="_fork"] g.sprotty-issue').count()).toBe(1);
        await page.screenshot({ path: join(artifacts, 'chain-marker.png'), fullPage: true });
        expect(errors).toEqual([]);
        await page.close();
    });

    test('a stale diagram is marked as such', async () => {
        const { page, errors } = await show('chain', {
            stale: true,
            staleReason: '1 error(s), first at 3:5: no box NoSuchBox',
        });
        await expect.poll(() => page.locator('.stale-banner').textContent()).toContain('stale');
        expect(errors).toEqual([]);
        await page.close();
    });
});
