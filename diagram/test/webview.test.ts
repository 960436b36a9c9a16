/**
 * The diagram webview bundle in a plain page in Chromium, showing models the language server generated:
 * nodes, ports and edges are rendered, a click selects a node (and would reveal it in the text), the
 * PTTS view draws its ETP sparklines, a stale diagram says so, and the editing gestures (palette, new box
 * type, connect two ports by clicks or a drag, Delete, F2 rename, edges easy to hit, also on a model with
 * errors) produce the edits the language server applies. Screenshots go to test-results/.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { DiagramClient, elements } from '../../language/test/diagram-server/diagram-client.js';
import { launchBrowser } from './browser.js';
import { standalonePage } from './standalone-page.js';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..');
const artifacts = join(repo, 'test-results', 'diagram');
const sample = join(repo, 'samples', 'xray.chain');
const uri = pathToFileURL(sample).toString();

let client: DiagramClient;
let browser: Browser;
let pageUrl: string;

beforeAll(async () => {
    pageUrl = await standalonePage(artifacts, 'page.html');
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
    deviceScaleFactor = 1,
): Promise<{ page: Page; model: Record<string, unknown>; errors: string[] }> {
    const reply = await client.requestModel(
        `page-${view}-${Object.keys(extra).join('-')}-${documentUri.length}`,
        documentUri,
        { view, ...extra },
    );
    const model = { ...reply.newRoot, ...extra };
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, deviceScaleFactor });
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
        expect(options).toEqual(['add box…', ...(model as { palette: string[] }).palette, 'new box type…']);
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

    test('a model with errors stays editable: markers say what is wrong, drag connects, F2 renames, new box type', async () => {
        // a new Sum instance with nothing connected: errors on its inputs, the diagram drawn anyway
        const text = readFileSync(sample, 'utf-8').replace(/^(\s*)(storage:.*)$/m, '$1$2\n$1sum9: Sum');
        const erroredUri = uri.replace(/xray\.chain$/, 'xray-errored.chain');
        await client.open(erroredUri, text);
        const { page, model, errors } = await show('chain', {}, erroredUri, 4); // sharp close-ups of a big chain
        type Api = { edits(): Array<Record<string, unknown>> };
        const edits = () =>
            page.evaluate(() => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.edits());
        expect((model as { stale?: boolean }).stale).toBeFalsy();
        const marker = page.locator('g.sprotty-node[id$="_sum9"] g.sprotty-issue').first();
        await expect.poll(() => marker.count()).toBe(1);
        expect(await marker.getAttribute('data-severity')).toBe('error');
        expect(await marker.locator('title').textContent()).toMatch(/error: .*sum9\.\w+/);
        expect(await marker.locator('rect.chainlab-issue-outline').count()).toBe(1); // the box outlined
        const box = (await page.locator('g.sprotty-node[id$="_sum9"]').first().boundingBox())!;
        await page.screenshot({
            path: join(artifacts, 'chain-errors-close-up.png'),
            clip: { x: box.x - 20, y: box.y - 20, width: box.width + 160, height: box.height + 60 },
        });
        // the palette stays enabled and offers a new box type
        expect(await page.locator('select.chainlab-palette').isDisabled()).toBe(false);
        await page.screenshot({ path: join(artifacts, 'chain-errors.png'), fullPage: true });

        // drag from an output port named o to sum9's first input
        const all = elements(model);
        const sum = all.find(e => e.name === 'sum9')!;
        const input = (sum.children as Array<Record<string, unknown>>).find(c => c.type === 'port:in')!;
        const source = all.find(e => e.type === 'port:out' && e.name === 'o')!;
        const owner = all.find(n => (n.children as Array<{ id: string }> | undefined)?.some(c => c.id === source.id))!;
        const from = page.locator(`[id$="_${String(source.id)}"]`).first();
        const to = page.locator(`[id$="_${String(input.id)}"]`).first();
        const [a, b] = [(await from.boundingBox())!, (await to.boundingBox())!];
        await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
        await page.mouse.down();
        await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
        // a line follows the pointer from the output port while dragging
        const band = page.locator('svg.chainlab-rubber-band line');
        expect(await band.count()).toBe(1);
        const [x2, y2] = await band.evaluate(l => [Number(l.getAttribute('x2')), Number(l.getAttribute('y2'))]);
        expect(Math.abs(x2 - (a.x + b.x) / 2)).toBeLessThan(1.5); // the mouse moves in whole pixels
        expect(Math.abs(y2 - (a.y + b.y) / 2)).toBeLessThan(1.5);
        await page.screenshot({ path: join(artifacts, 'chain-connect-drag.png'), fullPage: true });
        await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
        await page.mouse.up();
        expect(await band.count()).toBe(0); // connected: the line is gone
        await expect
            .poll(async () => (await edits()).at(-1))
            .toEqual({
                op: 'connect',
                chain: 'XRay',
                from: `${String(owner.name)}.o`,
                to: `sum9.${String(input.name)}`,
            });

        // F2 on the selected box: a form asks for the new name
        await page.locator('g.sprotty-node[id$="_sum9"]').first().click();
        await page.keyboard.press('F2');
        const rename = page.locator('form.chainlab-rename input');
        await expect.poll(() => rename.inputValue()).toBe('sum9');
        await page.screenshot({ path: join(artifacts, 'chain-rename.png'), fullPage: true });
        await rename.fill('total');
        await page.keyboard.press('Delete'); // typing in the form deletes nothing in the diagram
        await rename.fill('total');
        await page.keyboard.press('Enter');
        await expect
            .poll(async () => (await edits()).at(-1))
            .toEqual({
                op: 'renameInstance',
                chain: 'XRay',
                name: 'sum9',
                newName: 'total',
            });
        expect(await page.locator('form.chainlab-rename').count()).toBe(0);

        // a new box type from the palette's form
        await page.selectOption('select.chainlab-palette', { label: 'new box type…' });
        const form = page.locator('form.chainlab-new-box');
        await form.locator('input[name="name"]').fill('Blur');
        await form.locator('input[name="kernel"]').fill('gain(2)');
        await page.screenshot({ path: join(artifacts, 'chain-new-box.png'), fullPage: true });
        await form.locator('button[type="submit"]').click();
        const image = (model as { images: string[] }).images[0];
        await expect
            .poll(async () => (await edits()).at(-1))
            .toEqual({
                op: 'addBox',
                chain: 'XRay',
                name: 'Blur',
                inputs: [{ name: 'i', image }],
                outputs: [{ name: 'o', image }],
                kernel: 'gain(2)',
            });
        expect(errors).toEqual([]);
        await page.close();
    });

    test('edges are easy to hit: a click 3 units beside the line selects it, Delete removes the connection', async () => {
        const { page, model, errors } = await show('chain');
        type Api = { edits(): Array<Record<string, unknown>>; selected(): string[] };
        const edge = elements(model).find(e => e.type === 'edge')!;
        // a point 3 diagram units off the middle of the edge's line, in both directions, in page coordinates
        const points = await page.evaluate(id => {
            const line = document.querySelector(`g.sprotty-edge[id$="_${id}"] > path`) as SVGPathElement;
            const middle = line.getPointAtLength(line.getTotalLength() / 2);
            const ctm = line.getScreenCTM()!;
            return [
                [0, 3],
                [3, 0],
            ].map(([dx, dy]) => new DOMPoint(middle.x + dx, middle.y + dy).matrixTransform(ctm));
        }, edge.id);
        const hits = await page.evaluate(
            ([id, pts]) =>
                (pts as Array<{ x: number; y: number }>).map(
                    p => !!document.elementFromPoint(p.x, p.y)?.closest(`g.sprotty-edge[id$="_${id}"]`),
                ),
            [edge.id, points] as const,
        );
        expect(hits).toEqual([true, true]);
        const perpendicular = points[0];
        await page.mouse.click(perpendicular.x, perpendicular.y);
        await expect
            .poll(() => page.evaluate(() => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.selected()))
            .toContain(edge.id);
        await page.keyboard.press('Delete');
        await expect
            .poll(async () =>
                (await page.evaluate(() => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.edits())).at(
                    -1,
                ),
            )
            .toMatchObject({ op: 'deleteConnection', chain: 'XRay' });
        expect(errors).toEqual([]);
        await page.close();
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
