/**
 * The extension in a real VS Code (code-server 4.100.3 = VS Code 1.100.3) in Chromium: open the X-ray
 * sample, open the chain diagram from its CodeLens and count the boxes, click a box and see the editor
 * selection move to its instance, delete a box from the diagram and undo it in the editor, export the
 * diagram as SVG through the save dialog, run Analyze
 * latency on the PTTS system and find the plot with its p99; run a small chain twice on this machine: each run
 * gets a plot panel of its own, and the notification's Open report shows its report.html.
 * Screenshots are kept in test-results/vscode/.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Frame, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { launchBrowser } from '../../diagram/test/browser.js';
import { formatNumber } from '../../extension/src/number-format.js';
import { repo, startCodeServer, type CodeServer } from './code-server.js';

const artifacts = join(repo, 'test-results', 'vscode');
const cli = (...args: string[]) =>
    JSON.parse(
        execFileSync(process.execPath, [join(repo, 'language', 'bin', 'chainlab.js'), ...args], {
            encoding: 'utf-8',
            cwd: repo,
        }),
    );

/** A chain small enough to run on this machine in a few seconds. */
const SMALL = [
    'platform Here { cores 2 }',
    'image Img 64 x 64 of u8',
    'box Source { out o: Img  source period 10 ms  cost 100 us }',
    'box Gain { in i: Img  out o: Img  kernel gain(2)  split rows  depends pointwise  cost 200 us }',
    'box Sink { in i: Img  kernel sink  cost 10 us }',
    'chain Small on Here {',
    '    s: Source  g: Gain  k: Sink',
    '    s.o -> g.i  g.o -> k.i',
    '    schedule reduced threads 1',
    '}',
    'target here { local  rt-cores 0  be-cores 1 }',
].join('\n');

let server: CodeServer;
let browser: Browser;
let page: Page;
let workspace: string;

beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    workspace = mkdtempSync(join(tmpdir(), 'chainlab-ws-'));
    mkdirSync(join(workspace, 'samples'));
    copyFileSync(join(repo, 'samples', 'xray.chain'), join(workspace, 'samples', 'xray.chain'));
    writeFileSync(join(workspace, 'samples', 'small.chain'), SMALL);
    server = await startCodeServer(workspace, {
        'chainlab.python': join(repo, 'backend', '.venv', 'bin', 'python'),
        'chainlab.iterations': 50,
    });
    browser = await launchBrowser();
    page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
    await page.goto(`${server.url}/?folder=${encodeURIComponent(workspace)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
});

afterAll(async () => {
    if (page) await page.screenshot({ path: join(artifacts, 'last.png') }).catch(() => undefined);
    await browser?.close();
    await server?.stop();
});

/** The webview frame (diagram or plot) whose document has `selector`. */
async function webviewFrame(selector: string, timeoutMs = 60_000): Promise<Frame> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        for (const frame of page.frames()) {
            if (
                await frame
                    .locator(selector)
                    .count()
                    .catch(() => 0)
            )
                return frame;
        }
        if (Date.now() > deadline)
            throw new Error(
                `no webview shows ${selector} within ${timeoutMs} ms\n${server.log().slice(-3000)}\n${extensionLog()}`,
            );
        await page.waitForTimeout(250);
    }
}

/** The extension's output channel and the language client's log, as code-server wrote them (for failures). */
function extensionLog(): string {
    const files: string[] = [];
    const walk = (dir: string) => {
        for (const entry of readdirSync(dir, { withFileTypes: true })) {
            const path = join(dir, entry.name);
            if (entry.isDirectory()) walk(path);
            else if (/chainlab|chain language/i.test(entry.name)) files.push(path);
        }
    };
    try {
        walk(join(server.dirs.user, 'logs'));
    } catch {
        return '(no extension logs)';
    }
    return files.map(f => `--- ${f}\n${readFileSync(f, 'utf-8').slice(-3000)}`).join('\n') || '(no extension logs)';
}

const sampleLines = readFileSync(join(repo, 'samples', 'xray.chain'), 'utf-8').split('\n');

/** The CodeLens `title` above the line that starts with `declaration` (scrolled into view first). */
async function codeLens(declaration: string, title: string, lines = sampleLines) {
    const line = lines.findIndex(l => l.startsWith(declaration)) + 1;
    await page.locator('.monaco-editor textarea').first().focus();
    await page.keyboard.press('Control+G');
    await page.keyboard.type(String(line));
    await page.keyboard.press('Enter');
    const lens = page.locator('.codelens-decoration a', { hasText: title }).filter({ visible: true }).first();
    await lens.waitFor({ timeout: 90_000 });
    return lens;
}

describe('chainlab in VS Code (code-server)', () => {
    test('open the sample: the language server answers with CodeLens', async () => {
        await page.keyboard.press('Control+P');
        await page.keyboard.type('xray.chain');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'xray.chain' }).first().click();
        await page.locator('.tab', { hasText: 'xray.chain' }).waitFor();
        await codeLens('ptts System', 'Analyze latency');
        await page.screenshot({ path: join(artifacts, 'editor.png') });
    });

    test('the chain diagram shows every box; clicking one moves the editor selection to it', async () => {
        const ir = cli('export', 'samples/xray.chain');
        const instances = ir.chains.find((c: { name: string }) => c.name === 'XRay').instances as Array<{
            name: string;
            loc: { line: number };
        }>;
        await (await codeLens('chain XRay', 'Diagram')).click();
        const frame = await webviewFrame('svg.sprotty-graph g.sprotty-node');
        // the diagram opens at readable zoom, top first: its toolbar's − zooms out until every box is in view
        await page.screenshot({ path: join(artifacts, 'diagram-opened.png') });
        const nodes = () => frame.locator('[id$="_container"] g.sprotty-node').count();
        for (let i = 0; i < 30 && (await nodes()) < instances.length; i++)
            await frame.locator('button[data-control="zoom-out"]').click();
        await expect.poll(nodes, { timeout: 30_000 }).toBe(instances.length);
        await page.screenshot({ path: join(artifacts, 'diagram.png') });
        const target = instances[instances.length - 1];
        await frame.locator(`g.sprotty-node[id$="_${target.name}"]`).click();
        // the diagram has the focus: bring the editor forward (its tab keeps the selection) and read the cursor
        const selection = page.locator('[id="status.editor.selection"]');
        await expect
            .poll(
                async () => {
                    await page.locator('.tab', { hasText: 'xray.chain' }).first().click();
                    return selection.textContent({ timeout: 2000 }).catch(() => '');
                },
                { timeout: 30_000 },
            )
            .toMatch(new RegExp(`Ln ${target.loc.line},`));
        await page.screenshot({ path: join(artifacts, 'diagram-selection.png') });
    });

    test('Delete on a selected box removes it from the text (one undo step), and the diagram follows', async () => {
        const ir = cli('export', 'samples/xray.chain');
        const count = ir.chains.find((c: { name: string }) => c.name === 'XRay').instances.length as number;
        const frame = await webviewFrame('svg.sprotty-graph g.sprotty-node');
        await frame.locator('g.sprotty-node[id$="_storage"]').click();
        // the keybinding applies once the workbench has seen the diagram panel become active
        await expect
            .poll(() => page.locator('.editor-group-container.active .tab.active', { hasText: 'box chain' }).count(), {
                timeout: 10_000,
            })
            .toBe(1);
        await page.keyboard.press('Delete'); // the extension's keybinding while the box-chain diagram is active
        await expect
            .poll(() => frame.locator('[id$="_container"] g.sprotty-node').count(), { timeout: 30_000 })
            .toBe(count - 1);
        await page.screenshot({ path: join(artifacts, 'diagram-delete.png') });
        // the text is the source of truth: undo in the editor brings the box back
        await page.locator('.tab', { hasText: 'xray.chain' }).first().click();
        await page.locator('.monaco-editor textarea').first().focus();
        await page.keyboard.press('Control+Z');
        await expect
            .poll(() => frame.locator('[id$="_container"] g.sprotty-node').count(), { timeout: 30_000 })
            .toBe(count);
    });

    test('Export SVG from the diagram toolbar saves the diagram where the save dialog says', async () => {
        const frame = await webviewFrame('svg.sprotty-graph g.sprotty-node');
        const nodes = await frame.locator('[id$="_container"] g.sprotty-node').count();
        await frame.locator('.chainlab-toolbar button', { hasText: 'Export SVG' }).click();
        // code-server's save dialog is a quick input holding the proposed path: accept it
        const input = page.locator('.quick-input-widget input');
        await expect.poll(() => input.inputValue().catch(() => ''), { timeout: 20_000 }).toMatch(/xray-chain\.svg$/);
        await page.keyboard.press('Enter');
        const file = join(workspace, 'samples', 'xray-chain.svg');
        await expect.poll(() => existsSync(file), { timeout: 20_000 }).toBe(true);
        const svg = readFileSync(file, 'utf-8');
        expect(svg.startsWith('<svg')).toBe(true);
        expect(svg.match(/class="sprotty-node[ "]/g)?.length).toBe(nodes);
    });

    test('the toolbar options redraw the diagram: without costs the cost lines are gone', async () => {
        const frame = await webviewFrame('svg.sprotty-graph g.sprotty-node');
        // the diagram itself (SVG export leaves a rendered copy in a hidden div outside the container)
        const costLines = () =>
            frame.locator('[id$="_container"] g.sprotty-node text', { hasText: / · (rows|not split)/ }).count();
        expect(await costLines()).toBeGreaterThan(0);
        await frame.locator('.chainlab-toolbar label', { hasText: 'costs' }).locator('input').uncheck();
        await expect.poll(costLines, { timeout: 30_000 }).toBe(0);
        await frame.locator('.chainlab-toolbar label', { hasText: 'costs' }).locator('input').check();
        await expect.poll(costLines, { timeout: 30_000 }).toBeGreaterThan(0);
    });

    test('Analyze latency opens the plot with the p99 of the exact analysis', async () => {
        const expected = cli('analyze', 'samples/xray.chain', '--ptts', 'System', '--json');
        await (await codeLens('ptts System', 'Analyze latency')).click();
        let frame: Frame;
        try {
            frame = await webviewFrame('#plot table.stats', 30_000);
        } catch {
            // a click while the CodeLens line is being redrawn can miss it: look at the log, then click once more
            console.log(`no plot 30 s after the first click; extension log:\n${extensionLog()}`);
            await page.screenshot({ path: join(artifacts, 'analyze-first-click.png') });
            await (await codeLens('ptts System', 'Analyze latency')).click();
            frame = await webviewFrame('#plot table.stats', 120_000);
        }
        const row = frame.locator('table.stats tr[data-series="predicted"] td');
        await expect
            .poll(() => row.nth(3).textContent(), { timeout: 30_000 })
            .toBe(formatNumber(Number(expected.percentiles['99'])));
        expect(await frame.locator('svg.plot-cdf g.series-predicted path').count()).toBe(1);
        // the panel is the ptts's own, titled with it
        expect(await page.locator('.tab', { hasText: 'Latency: System (xray.chain)' }).count()).toBe(1);
        // the verdict of every requirement of the sample
        expect(await frame.locator('table.verdicts td.verdict').allTextContents()).toEqual([
            '✓ PASS',
            '✓ PASS',
            '✓ PASS',
        ]);
        await page.screenshot({ path: join(artifacts, 'plot.png') });
    });

    test('each run gets a plot panel of its own; the notification opens the report', async () => {
        await page.keyboard.press('Control+P');
        await page.keyboard.type('small.chain');
        await page.locator('.quick-input-list .monaco-list-row', { hasText: 'small.chain' }).first().click();
        await page.locator('.tab', { hasText: 'small.chain' }).waitFor();
        const small = SMALL.split('\n');
        const runTabs = page.locator('.tab', { hasText: /^Latency: run / });
        const report = page.locator('.notifications-toasts .monaco-button', { hasText: 'Open report' });
        for (const runs of [1, 2]) {
            await (await codeLens('chain Small', 'Run on target', small)).click();
            await report.waitFor({ timeout: 120_000 });
            await expect.poll(() => runTabs.count(), { timeout: 30_000 }).toBe(runs);
            if (runs === 1) await page.keyboard.press('Escape'); // the first notification out of the way
        }
        // the run's panel draws measured against predicted, with KS in the legend
        const plot = await webviewFrame('.legend-item[data-series="measured baseline"]', 30_000);
        expect(await plot.locator('.legend-item[data-series="measured baseline"]').textContent()).toMatch(
            /^measured baseline — KS \d/,
        );
        await page.screenshot({ path: join(artifacts, 'run-panels.png') });
        await report.first().click();
        await page.locator('.tab', { hasText: /^Report: / }).waitFor({ timeout: 30_000 });
        const shown = await webviewFrame('h1', 30_000); // report.html's own heading, in its panel
        expect(await shown.locator('h1').textContent()).toBe('Small on here');
        await page.screenshot({ path: join(artifacts, 'run-report.png') });
    });
});
