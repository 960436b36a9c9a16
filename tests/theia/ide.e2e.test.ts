/**
 * The same .vsix in Eclipse Theia (the browser application of tests/theia) in Chromium: a .chain file with its
 * diagnostics and CodeLens, the box-chain diagram from its CodeLens (every text readable, contrast 4.5:1), Analyze
 * latency (the plot with its curve and verdicts), Run on here (measured against predicted) and an edit in the
 * diagram that changes the text. Screenshots in light and dark under test-results/theia/.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { contrastOffenders } from '../../diagram/test/contrast.js';
import { smallestDiagramText } from '../../diagram/test/readable-text.js';
import { formatNumber } from '../../extension/src/number-format.js';
import { closeTheia, openTheia, repo, type TheiaWorkbench } from './theia.js';
import {
    codeLensAbove,
    hideBottomPanel,
    notificationButton,
    openFile,
    showFile,
    shotInBothThemes,
    tab,
    webviewFrame as findWebviewFrame,
    webviewFromLens,
} from './theia-workbench.js';

const artifacts = join(repo, 'test-results', 'theia');
const XRAY = readFileSync(join(repo, 'samples', 'xray.chain'), 'utf-8');
const SMALL = readFileSync(join(repo, 'tests', 'fixtures', 'small-here.chain'), 'utf-8');
/** A model with one mistake: a connection to a port the box does not have. */
const BROKEN = SMALL.replace('g.o -> k.i', 'g.o -> k.in');

let workbench: TheiaWorkbench | undefined;
let page: Page;
let workspace: string;

beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    workspace = mkdtempSync(join(tmpdir(), 'chainlab-theia-ws-'));
    for (const [name, text] of Object.entries({ 'xray.chain': XRAY, 'small.chain': SMALL, 'broken.chain': BROKEN }))
        writeFileSync(join(workspace, name), text);
    workbench = await openTheia(workspace, { 'chainlab.iterations': 30 });
    page = workbench.page;
});

afterAll(() => closeTheia(workbench, join(artifacts, 'last.png')));

/** Every webview frame a test found: a later view is looked for among the others. */
const opened: Frame[] = [];

/**
 * The webview frame, not one found before, whose document has `selector`; after a click on the CodeLens `lens` finds
 * when given (clicked again if the first click missed).
 */
async function webviewFrame(selector: string, timeoutMs = 60_000, lens?: () => Promise<Locator>): Promise<Frame> {
    const query = { timeoutMs, not: opened, explain: () => workbench!.server.log().slice(-3000) };
    const frame = await (lens ? webviewFromLens(page, lens, selector, query) : findWebviewFrame(page, selector, query));
    opened.push(frame);
    return frame;
}

const codeLens = (text: string, declaration: string, title: string) =>
    codeLensAbove(page, text.split('\n'), declaration, title);

const cli = (...args: string[]) =>
    JSON.parse(
        execFileSync(process.execPath, [join(repo, 'language', 'bin', 'chainlab.js'), ...args], { encoding: 'utf-8' }),
    );

describe('chainlab in Eclipse Theia', () => {
    test('a .chain file: its mistakes marked in the editor, counted in the status bar, listed in Problems', async () => {
        await openFile(page, 'broken.chain');
        await page.locator('.monaco-editor .squiggly-error').first().waitFor({ timeout: 90_000 });
        // the status bar counts them; a click on the count opens the Problems view, which says what the CLI says
        await page.locator('#status-bar-problem-marker-status').click();
        await expect
            .poll(
                () =>
                    page
                        .locator('.theia-marker-container')
                        .textContent({ timeout: 1000 })
                        .catch(() => ''),
                {
                    timeout: 20_000,
                },
            )
            .toContain("has no port 'in'; did you mean 'i'?");
        await page.screenshot({ path: join(artifacts, 'diagnostics.png') });
    });

    test('CodeLens above the declarations of the X-ray sample', async () => {
        await openFile(page, 'xray.chain');
        await codeLens(XRAY, 'ptts System', 'Analyze latency');
        await page.screenshot({ path: join(artifacts, 'codelens.png') });
    });

    test('the box-chain diagram opens from its CodeLens, every text readable in both themes', async () => {
        // the Problems panel of the test before closed: the diagram gets the editor area's height, as usual
        await hideBottomPanel(page);
        const frame = await webviewFrame('svg.sprotty-graph g.sprotty-node', 60_000, () =>
            codeLens(XRAY, 'chain XRay', 'Diagram'),
        );
        await expect
            .poll(() => frame.locator('[id$="_container"] g.sprotty-node').count(), { timeout: 30_000 })
            .toBeGreaterThan(4);
        await shotInBothThemes(page, [frame], theme => join(artifacts, `diagram-${theme}.png`));
        const text = await frame.evaluate(smallestDiagramText);
        expect(text.count).toBeGreaterThan(0);
        expect(text.min, `smallest text ${text.min.toFixed(1)} px`).toBeGreaterThanOrEqual(10.9);
        const contrast = await frame.evaluate(contrastOffenders, 4.5);
        expect(contrast.offenders).toEqual([]);
        expect(contrast.checked).toBeGreaterThan(0);
    });

    test('Analyze latency: the plot panel with the exact distribution and every verdict', async () => {
        const expected = cli('analyze', join(workspace, 'xray.chain'), '--ptts', 'System', '--json');
        await showFile(page, 'xray.chain');
        const frame = await webviewFrame('#plot table.stats', 120_000, () =>
            codeLens(XRAY, 'ptts System', 'Analyze latency'),
        );
        const row = frame.locator('table.stats tr[data-series="predicted"] td');
        await expect
            .poll(() => row.nth(3).textContent(), { timeout: 30_000 })
            .toBe(formatNumber(Number(expected.percentiles['99'])));
        expect(await frame.locator('svg.plot-cdf g.series-predicted path').count()).toBe(1);
        expect(await frame.locator('table.verdicts td.verdict').allTextContents()).toEqual([
            '✓ PASS',
            '✓ PASS',
            '✓ PASS',
        ]);
        await tab(page, 'Latency: System (xray.chain)').waitFor();
        await shotInBothThemes(page, [frame], theme => join(artifacts, `analyze-${theme}.png`));
    });

    test('Run on here: the chain runs on this machine, its plot draws measured against predicted', async () => {
        await openFile(page, 'small.chain');
        await (await codeLens(SMALL, 'target here', 'Run on here')).click();
        await notificationButton(page, 'Open report').waitFor({ timeout: 180_000 });
        const frame = await webviewFrame('.legend-item[data-series="measured baseline"]', 30_000);
        expect(await frame.locator('.legend-item[data-series="measured baseline"]').textContent()).toMatch(
            /^measured baseline — KS \d/,
        );
        expect(await frame.locator('svg.plot-cdf g.series-predicted path').count()).toBe(1);
        // every curve drawn opaque, though Theia's chart orange is translucent
        const strokes = await frame
            .locator('svg.plot-cdf g[class*="series-"] path')
            .evaluateAll(paths => paths.map(path => getComputedStyle(path).stroke));
        expect(strokes.length).toBeGreaterThan(1);
        // with an alpha below 1: rgba(r, g, b, a) or color(srgb r g b / a)
        expect(strokes.filter(stroke => /^rgba\(|\/\s*0?\.\d/.test(stroke))).toEqual([]);
        await shotInBothThemes(page, [frame], theme => join(artifacts, `run-${theme}.png`));
    });

    test('an edit in the diagram changes the text: the palette adds a box to the chain', async () => {
        await showFile(page, 'small.chain');
        const frame = await webviewFrame('select.chainlab-palette', 60_000, () =>
            codeLens(SMALL, 'chain Small', 'Diagram'),
        );
        const nodes = () => frame.locator('[id$="_container"] g.sprotty-node').count();
        await expect.poll(nodes, { timeout: 30_000 }).toBe(3);
        await frame.locator('select.chainlab-palette').selectOption('Gain');
        await expect.poll(nodes, { timeout: 30_000 }).toBe(4);
        // the text is the model: the new instance is in the editor's document
        const lines = page.locator('.monaco-editor .view-lines').first();
        await expect
            .poll(async () => ((await lines.textContent()) ?? '').replace(/\u00a0/g, ' '), { timeout: 20_000 })
            .toMatch(/gain1: Gain/);
        await shotInBothThemes(page, [frame], theme => join(artifacts, `edit-${theme}.png`));
    });
});
