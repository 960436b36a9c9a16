/**
 * The diagram editing loop in a real VS Code (code-server), by mouse and keyboard, in the light and the dark
 * theme: add a Gain from the palette (it appears at once, with an error marker for its open input), drag from
 * an output port to its input, rename it with F2, delete the new connection, and undo all four in the editor
 * (each gesture is one undo step), and undo/redo again with the focus in the diagram (Ctrl+Z, Ctrl+Shift+Z,
 * Ctrl+Y act on the text). Then the PTTS views follow their model: an open diagram shows the result of
 * Analyze latency without reopening, and the file's second ptts opens a diagram of its own, titled with it.
 * Screenshots are kept in test-results/vscode/.
 */
import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeWorkbench, fromRepo, openWorkbench, repo, sampleWorkspace, type Workbench } from './code-server.js';
import {
    codeLensAbove,
    openFile as openInWorkbench,
    runCommand,
    THEMES,
    useTheme as useWorkbenchTheme,
    webviewFrame as findWebviewFrame,
} from './workbench.js';

const artifacts = join(repo, 'test-results', 'vscode');
const CHAIN = join('samples', 'chains', 'fig3-1.chain');
const PTTS = join('samples', 'ptts', 'thesis-fig5-2.chain');

let workbench: Workbench | undefined;
let page: Page;
const openFile = (name: string) => openInWorkbench(page, name);
const useTheme = (theme: keyof typeof THEMES) => useWorkbenchTheme(page, theme);

beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    workbench = await openWorkbench(sampleWorkspace(fromRepo(CHAIN, PTTS)), { 'workbench.colorTheme': THEMES.light });
    page = workbench.page;
});

afterAll(() => closeWorkbench(workbench, join(artifacts, 'edit-loop-last.png')));

/** The CodeLens `title` right above the line that starts with `declaration` in `file` (brought forward first). */
async function codeLens(file: string, declaration: string, title: string): Promise<Locator> {
    await page
        .locator('.tab', { hasText: file.split('/').at(-1)! })
        .first()
        .click();
    const lines = readFileSync(join(repo, file), 'utf-8').split('\n');
    return codeLensAbove(page, lines, declaration, title).catch(async (error: unknown) => {
        await page.screenshot({ path: join(artifacts, `edit-loop-no-${title.toLowerCase()}-lens.png`) });
        throw error;
    });
}

/** The webview frame whose document has `selector` (and the text, if given), other than `not`. */
const webviewFrame = (selector: string, text?: RegExp, not?: Frame, timeoutMs?: number) =>
    findWebviewFrame(page, selector, { text, not: not ? [not] : [], timeoutMs });

/** Brings the editor of `file` forward and presses Ctrl+Z. */
async function undoInEditor(file: string): Promise<void> {
    await page.locator('.tab', { hasText: file }).first().click();
    await page.locator('.editor-group-container.active .monaco-editor textarea').first().focus();
    await page.keyboard.press('Control+Z');
}

describe('editing the box chain in its diagram, in VS Code (code-server)', () => {
    let frame: Frame;
    const nodes = () => frame.locator('[id$="_container"] g.sprotty-node');
    const edges = () => frame.locator('[id$="_container"] g.sprotty-edge');
    const node = (name: string) => frame.locator(`[id$="_container"] g.sprotty-node[id$="_${name}"]`);
    const port = (instance: string, name: string) =>
        frame.locator(`[id$="_container"] g.sprotty-port[id$="_${instance}.${name}"]`).first();
    const shot = async (theme: string, step: string) => {
        await page.waitForTimeout(800); // Sprotty animates an update (fade in/out, moves): show where it ends
        await page.screenshot({ path: join(artifacts, `edit-loop-${theme}-${step}.png`) });
    };

    test('open the chain diagram from its CodeLens', async () => {
        await openFile('fig3-1.chain');
        await (await codeLens(CHAIN, 'chain Fig31', 'Diagram')).click();
        frame = await webviewFrame('svg.sprotty-graph g.sprotty-node');
        await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(4);
        expect(await edges().count()).toBe(3);
    });

    for (const theme of ['light', 'dark'] as const) {
        test(`${theme}: add, connect, rename, delete, each undone in the editor`, async () => {
            await useTheme(theme);
            await page.locator('.tab', { hasText: 'Fig31 (box chain)' }).first().click();

            // add: the palette inserts a Gain; it shows at once, its open input marked as an error
            await frame.locator('select.chainlab-palette').selectOption('Gain');
            await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(5);
            const marker = node('gain1').locator('g.sprotty-issue');
            await expect.poll(() => marker.count(), { timeout: 10_000 }).toBe(1);
            expect(await marker.locator('title').textContent()).toMatch(/error: .*gain1\.i/);
            expect(await frame.locator('select.chainlab-palette').isDisabled()).toBe(false);
            // the added box is in view, wherever the layout put it
            const inView = async () => {
                const [box, canvas] = [
                    await node('gain1').first().boundingBox(),
                    await frame.locator('svg.sprotty-graph').boundingBox(),
                ];
                return (
                    !!box &&
                    !!canvas &&
                    box.x >= canvas.x &&
                    box.y >= canvas.y &&
                    box.x + box.width <= canvas.x + canvas.width &&
                    box.y + box.height <= canvas.y + canvas.height
                );
            };
            await expect.poll(inView, { timeout: 10_000 }).toBe(true);
            await shot(theme, '1-added');

            // connect: drag from the gain's output port to the new box's input port
            const [a, b] = [(await port('g', 'o').boundingBox())!, (await port('gain1', 'i').boundingBox())!];
            await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
            await page.mouse.down();
            await page.mouse.move((a.x + b.x) / 2, (a.y + b.y) / 2, { steps: 5 });
            await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 5 });
            await page.mouse.up();
            await expect.poll(() => edges().count(), { timeout: 30_000 }).toBe(4);
            await expect
                .poll(() =>
                    marker
                        .locator('title')
                        .textContent()
                        .catch(() => ''),
                )
                .not.toMatch(/error/);
            await shot(theme, '2-connected');

            // rename: select the box, F2, type the new name
            await node('gain1').first().click();
            await page.keyboard.press('F2');
            const input = frame.locator('form.chainlab-rename input');
            await expect.poll(() => input.inputValue().catch(() => ''), { timeout: 10_000 }).toBe('gain1');
            await input.fill('blur');
            await shot(theme, '3-rename-form');
            await page.keyboard.press('Enter');
            await expect.poll(() => node('blur').count(), { timeout: 30_000 }).toBe(1);
            await expect.poll(() => node('gain1').count(), { timeout: 10_000 }).toBe(0); // after its fade-out
            await shot(theme, '4-renamed');

            // delete: click the new connection (its wide hit area), press Delete
            const edge = frame.locator('[id$="_container"] g.sprotty-edge[id*="g.o->blur.i"] path').first();
            // on the line's middle, 2 units off it (an orthogonal route's box centre may be off the line)
            const position = await edge.evaluate((path: SVGPathElement) => {
                const middle = path.getPointAtLength(path.getTotalLength() / 2);
                const at = new DOMPoint(middle.x, middle.y + 2).matrixTransform(path.getScreenCTM()!);
                const box = path.getBoundingClientRect();
                return { x: at.x - box.left, y: at.y - box.top };
            });
            await edge.click({ position, force: true });
            await page.keyboard.press('Delete');
            await expect.poll(() => edges().count(), { timeout: 30_000 }).toBe(3);
            await shot(theme, '5-deleted');

            // undo in the editor: one step per gesture, the diagram follows each
            await undoInEditor('fig3-1.chain');
            await expect.poll(() => edges().count(), { timeout: 30_000 }).toBe(4);
            await undoInEditor('fig3-1.chain');
            await expect.poll(() => node('gain1').count(), { timeout: 30_000 }).toBe(1);
            await undoInEditor('fig3-1.chain');
            await expect.poll(() => edges().count(), { timeout: 30_000 }).toBe(3);
            await undoInEditor('fig3-1.chain');
            await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(4);
            await shot(theme, '6-undone');
        });
    }

    test('Ctrl+Z, Ctrl+Shift+Z and Ctrl+Y with the focus in the diagram step the text document', async () => {
        await page.locator('.tab', { hasText: 'Fig31 (box chain)' }).first().click();
        await frame.locator('select.chainlab-palette').selectOption('Gain');
        await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(5);
        // the focus in the diagram (a click on its empty corner), not in the text
        await frame.locator('svg.sprotty-graph').click({ position: { x: 4, y: 4 } });
        const diagramActive = () =>
            page
                .locator('.tab.active', { hasText: 'Fig31 (box chain)' })
                .count()
                .then(n => n > 0);
        expect(await diagramActive()).toBe(true);
        await page.keyboard.press('Control+Z');
        await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(4);
        await expect.poll(diagramActive, { timeout: 10_000 }).toBe(true); // the focus comes back to the diagram
        await page.keyboard.press('Control+Shift+Z');
        await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(5);
        await page.keyboard.press('Control+Z');
        await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(4);
        await page.keyboard.press('Control+Y');
        await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(5);
        await page.screenshot({ path: join(artifacts, 'edit-loop-diagram-undo.png') });
        // leave the file as it was for the tests after this one
        await page.keyboard.press('Control+Z');
        await expect.poll(() => nodes().count(), { timeout: 30_000 }).toBe(4);
    });

    test('the open diagram is laid out anew when its panel turns from tall to wide', async () => {
        // where an input port sits on its box: top (a top-down flow) or left (left to right)
        const inputSide = () =>
            frame.evaluate(() => {
                const port = document.querySelector('[id$="_container"] g.sprotty-port[id*=".i"]')!;
                const box = port.closest('g.sprotty-node')!.getBoundingClientRect();
                const p = port.getBoundingClientRect();
                const [dx, dy] = [
                    p.x + p.width / 2 - (box.x + box.width / 2),
                    p.y + p.height / 2 - (box.y + box.height / 2),
                ];
                return Math.abs(dx) / box.width > Math.abs(dy) / box.height
                    ? dx < 0
                        ? 'left'
                        : 'right'
                    : dy < 0
                      ? 'top'
                      : 'bottom';
            });
        const layout = async () => {
            await page.keyboard.press('F1');
            await page.keyboard.type('Toggle Vertical/Horizontal Editor Layout');
            await page
                .locator('.quick-input-list .monaco-list-row', { hasText: 'Toggle Vertical/Horizontal Editor Layout' })
                .first()
                .click();
        };
        expect(await inputSide()).toBe('top'); // the diagram beside the text: a half-width, tall panel
        await layout(); // the editors stacked: the diagram's panel is wide
        await expect.poll(inputSide, { timeout: 30_000 }).toBe('left');
        await page.screenshot({ path: join(artifacts, 'edit-loop-wide-panel.png') });
        await layout();
        await expect.poll(inputSide, { timeout: 30_000 }).toBe('top');
    });
});

describe('PTTS diagrams follow their model and results', () => {
    test('Analyze latency shows in the open diagram; the second ptts opens its own titled diagram', async () => {
        // a fresh start after the layout toggles: one editor group, nothing open
        await runCommand(page, 'View: Close All Editor Groups');
        await expect.poll(() => page.locator('.tab').count(), { timeout: 10_000 }).toBe(0);
        await openFile('thesis-fig5-2.chain');
        await (await codeLens(PTTS, 'ptts Fig52', 'Diagram')).click();
        const fig52 = await webviewFrame('svg.sprotty-graph text', /not analysed yet/);
        await (await codeLens(PTTS, 'ptts Fig52', 'Analyze latency')).click();
        await webviewFrame('#plot table.stats', undefined, undefined, 120_000);
        // the diagram, behind the plot or beside it, already has the result
        await expect
            .poll(() => fig52.locator('svg.sprotty-graph text', { hasText: /p99 / }).count(), { timeout: 60_000 })
            .toBeGreaterThan(0);
        await page.locator('.tab', { hasText: 'Fig52 (PTTS chain)' }).first().click();
        await page.screenshot({ path: join(artifacts, 'ptts-analysed.png') });

        await (await codeLens(PTTS, 'ptts Fig57', 'Diagram')).click();
        await expect
            .poll(() => page.locator('.tab', { hasText: 'thesis-fig5-2.chain: Fig57 (PTTS chain)' }).count(), {
                timeout: 30_000,
            })
            .toBe(1);
        expect(await page.locator('.tab', { hasText: 'thesis-fig5-2.chain: Fig52 (PTTS chain)' }).count()).toBe(1);
        const fig57 = await webviewFrame('svg.sprotty-graph text', /not analysed yet/, fig52);
        expect(await fig57.locator('svg.sprotty-graph text', { hasText: /pmf/ }).count()).toBeGreaterThan(0);
        expect(await fig52.locator('svg.sprotty-graph text', { hasText: /p99 / }).count()).toBeGreaterThan(0);
        await page.screenshot({ path: join(artifacts, 'ptts-second.png') });
    });
});
