/**
 * chainlab as a user gets it: the .vsix installed into a fresh code-server (fresh user and extension folders) opened
 * on an empty folder outside this repository, with no chainlab.python setting and no backend/.venv anywhere it could
 * look. The walkthrough's first step creates the example workspace where the user chooses (code-server's own folder
 * dialog) and opens xray.chain at `chain XRay` with its CodeLens in view; the extension sets up its backend (a private
 * virtual environment from the wheel in the .vsix, its dependencies from the wheelhouse scripts/setup.mjs fills, so no
 * network is needed); then the diagram, Analyze latency and Run on target (`here`) work there. Screenshots in
 * test-results/vscode/fresh-*.png, light and dark.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { closeWorkbench, openWorkbench, repo, type Workbench } from './code-server.js';
import { freshUser, wheelhouse } from './fresh-user.js';
import {
    codeLensAbove,
    expectLensInViewAbove,
    openFile,
    runCommand,
    shotInBothThemes,
    webviewFrame,
    webviewFromLens,
} from './workbench.js';

const artifacts = join(repo, 'test-results', 'vscode');

let workbench: Workbench | undefined;
let page: Page;
/** Where the user asks for the examples: a folder with something in it already, so they get a folder of their own. */
let projects: string;
let examples: string;

const lines = (name: string) => readFileSync(join(examples, name), 'utf-8').split('\n');

/** The setting-up notification's text, or '' when none is shown. */
const notifications = () =>
    page
        .locator('.notifications-toasts .notification-list-item-message')
        .allTextContents()
        .then(texts => texts.join(' | '));

beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    let empty: string;
    ({ projects, empty } = freshUser());
    workbench = await openWorkbench(empty, {
        'chainlab.python': undefined, // as installed: no interpreter configured
        'chainlab.backend.wheelhouse': wheelhouse,
        'chainlab.iterations': 50,
        'workbench.colorTheme': 'Default Light Modern',
    });
    page = workbench.page;
});

afterAll(() => closeWorkbench(workbench, join(artifacts, 'fresh-last.png')));

describe('a fresh install of the .vsix, in an empty window', () => {
    test('the walkthrough creates the example workspace and opens xray.chain at its declaration', async () => {
        await runCommand(page, 'Welcome: Open Walkthrough...');
        await page.keyboard.type('Get started with chainlab');
        await page
            .locator('.quick-input-list .monaco-list-row', { hasText: 'Get started with chainlab' })
            .first()
            .click();
        const create = page.getByRole('button', { name: 'Create example workspace' });
        await create.waitFor({ timeout: 30_000 });
        await page.screenshot({ path: join(artifacts, 'fresh-walkthrough.png') });
        await create.click();
        // code-server's folder dialog: the path typed into its input, then OK
        const input = page.locator('.quick-input-widget input');
        await input.waitFor();
        await input.fill(`${projects}/`);
        await page.waitForTimeout(500);
        await page.screenshot({ path: join(artifacts, 'fresh-dialog.png') });
        await page
            .locator('.quick-input-widget .monaco-button', { hasText: /^(OK|Create the examples here)$/ })
            .click();
        // the window opens the new folder: projects/ held a project already, so the examples have one of their own
        examples = join(projects, 'chainlab-examples');
        await page.waitForURL(url => url.searchParams.get('folder') === examples, { timeout: 60_000 });
        await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
        expect(readdirSync(examples).sort()).toEqual([
            'README.md',
            'fig3-5.chain',
            'thesis-fig5-2.chain',
            'xray.chain',
        ]);
        await page.locator('.tab.active[data-resource-name="xray.chain"]').waitFor({ timeout: 60_000 });
        // at its declaration, its CodeLens in view without scrolling
        await expectLensInViewAbove(page, /^chain\sXRay\son/, 'Diagram');
        await page.screenshot({ path: join(artifacts, 'fresh-example-opened.png') });
    });

    test('the backend is set up on first use, with progress, from the wheel in the .vsix', async () => {
        await expect.poll(notifications, { timeout: 60_000 }).toMatch(/setting up the analysis backend/);
        await page.screenshot({ path: join(artifacts, 'fresh-backend-progress.png') });
        await expect
            .poll(notifications, { timeout: 400_000, interval: 2000 })
            .toMatch(/analysis backend is ready|could not be set up/);
        expect(await notifications()).toMatch(/analysis backend is ready/);
        await page.screenshot({ path: join(artifacts, 'fresh-backend-ready.png') });
        // in the extension's global storage, holding the wheel of the .vsix
        const storage = join(
            workbench!.server.dirs.user,
            'User',
            'globalStorage',
            'chainlab.chainlab-vscode',
            'backend',
        );
        expect(existsSync(join(storage, 'venv', 'bin', 'python'))).toBe(true);
        expect(JSON.parse(readFileSync(join(storage, 'installed.json'), 'utf-8')).wheel).toMatch(
            /^chainlab_backend-.*\.whl$/,
        );
    }, 480_000);

    test('the box-chain diagram opens from its CodeLens', async () => {
        const lens = () => codeLensAbove(page, lines('xray.chain'), 'chain XRay', 'Diagram');
        const frame = await webviewFromLens(page, lens, 'svg.sprotty-graph g.sprotty-node');
        expect(await frame.locator('g.sprotty-node').count()).toBeGreaterThan(5);
        await shotInBothThemes(page, [frame], theme => join(artifacts, `fresh-diagram-${theme}.png`));
        // its drawing is kept in the extension's storage: a reopened diagram is drawn without ELK
        const layouts = join(
            workbench!.server.dirs.user,
            'User',
            'globalStorage',
            'chainlab.chainlab-vscode',
            'layouts',
        );
        await expect
            .poll(() => (existsSync(layouts) ? readdirSync(layouts).filter(n => n.endsWith('.json.gz')).length : 0))
            .toBeGreaterThan(0);
    });

    test('Analyze latency plots the exact distribution', async () => {
        await page.locator('.tab', { hasText: 'xray.chain' }).first().click();
        const lens = () => codeLensAbove(page, lines('xray.chain'), 'ptts System', 'Analyze latency');
        const frame = await webviewFromLens(page, lens, '#plot table.stats', { timeoutMs: 120_000 });
        expect(await frame.locator('svg.plot-cdf g.series-predicted path').count()).toBe(1);
        expect(await frame.locator('table.verdicts td.verdict').allTextContents()).toEqual([
            '✓ PASS',
            '✓ PASS',
            '✓ PASS',
        ]);
        await shotInBothThemes(page, [frame], theme => join(artifacts, `fresh-analyze-${theme}.png`));
    });

    test('Run on target runs Fig35 here and plots measured against predicted', async () => {
        await openFile(page, 'fig3-5.chain');
        await (await codeLensAbove(page, lines('fig3-5.chain'), 'chain Fig35', 'Run on target')).click();
        const report = page.locator('.notifications-toasts .monaco-button', { hasText: 'Open report' });
        await report.waitFor({ timeout: 240_000 });
        const plot = await webviewFrame(page, '.legend-item[data-series="measured baseline"]', { timeoutMs: 30_000 });
        expect(await plot.locator('.legend-item[data-series="measured baseline"]').textContent()).toMatch(
            /^measured baseline — KS \d/,
        );
        // the run's results stay in the user's workspace
        expect(readdirSync(join(examples, 'runs')).length).toBeGreaterThan(0);
        await shotInBothThemes(page, [plot], theme => join(artifacts, `fresh-run-${theme}.png`));
    }, 300_000);
});
