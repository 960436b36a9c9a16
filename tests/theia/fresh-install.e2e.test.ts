/**
 * chainlab as a Theia user gets it: the .vsix in a fresh Theia configuration folder, Theia opened on an empty folder
 * outside this repository, no chainlab.python and no backend/.venv it could find. Theia shows no walkthroughs, so
 * the user runs *chainlab: Create example workspace* from the command palette; Theia's own folder dialog picks the
 * place; the examples open at `chain XRay` with its CodeLens in view; the extension sets up its backend (from the
 * wheel in the .vsix, the dependencies from the wheelhouse scripts/setup.mjs fills: no network); then Analyze
 * latency works there. Screenshots in test-results/theia/fresh-*.png, light and dark.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { freshUser, wheelhouse } from '../vscode/fresh-user.js';
import { closeTheia, openTheia, repo, type TheiaWorkbench } from './theia.js';
import {
    codeLensAbove,
    expectLensInViewAbove,
    notifications,
    runCommand,
    shotInBothThemes,
    webviewFromLens,
} from './theia-workbench.js';

const artifacts = join(repo, 'test-results', 'theia');

let workbench: TheiaWorkbench | undefined;
let page: Page;
/** Where the user asks for the examples: a folder with something in it already, so they get a folder of their own. */
let projects: string;
const examples = () => join(projects, 'chainlab-examples');

beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    let empty: string;
    ({ projects, empty } = freshUser());
    workbench = await openTheia(empty, {
        'chainlab.python': undefined, // as installed: no interpreter configured
        'chainlab.backend.wheelhouse': wheelhouse,
    });
    page = workbench.page;
});

afterAll(() => closeTheia(workbench, join(artifacts, 'fresh-last.png')));

describe('a fresh install of the .vsix in Theia, in an empty window', () => {
    test('Create example workspace: Theia asks where, then opens xray.chain at its declaration', async () => {
        await runCommand(page, 'chainlab: Create example workspace');
        const dialog = page.locator('.dialogBlock', { hasText: 'where should the example workspace go?' });
        await dialog.waitFor({ timeout: 30_000 });
        // the dialog's text input for a path, as a user types one
        await dialog.locator('.theia-LocationInputToggle').click();
        await dialog.locator('.theia-LocationTextInput').fill(projects);
        await page.keyboard.press('Enter');
        await expect
            .poll(() =>
                dialog
                    .locator('.theia-LocationList option:checked')
                    .textContent()
                    .catch(() => ''),
            )
            .toBe('projects');
        await page.screenshot({ path: join(artifacts, 'fresh-dialog.png') });
        await dialog.locator('.theia-button.main', { hasText: 'Create the examples here' }).click();
        await page.waitForURL(url => decodeURIComponent(url.hash) === `#${examples()}`, { timeout: 60_000 });
        expect(readdirSync(examples()).sort()).toEqual([
            'README.md',
            'fig3-5.chain',
            'thesis-fig5-2.chain',
            'xray.chain',
        ]);
        await page.locator('.lm-TabBar-tab.theia-mod-active', { hasText: 'xray.chain' }).waitFor({ timeout: 60_000 });
        await expectLensInViewAbove(page, /^chain\sXRay\son/, 'Diagram');
        await page.screenshot({ path: join(artifacts, 'fresh-example-opened.png') });
    });

    test('the backend is set up on first use, with progress, from the wheel in the .vsix', async () => {
        await expect.poll(() => notifications(page), { timeout: 60_000 }).toMatch(/setting up the analysis backend/);
        await page.screenshot({ path: join(artifacts, 'fresh-backend-progress.png') });
        await expect
            .poll(() => notifications(page), { timeout: 400_000, interval: 2000 })
            .toMatch(/analysis backend is ready|could not be set up/);
        expect(await notifications(page)).toMatch(/analysis backend is ready/);
        const { config, data } = workbench!.server.dirs;
        const storage = join(config, 'globalStorage', 'chainlab.chainlab-vscode', 'backend');
        expect(existsSync(join(storage, 'venv', 'bin', 'python'))).toBe(true);
        expect(JSON.parse(readFileSync(join(storage, 'installed.json'), 'utf-8')).wheel).toMatch(
            /^chainlab_backend-.*\.whl$/,
        );
        // named for the CLI outside the IDE
        expect(JSON.parse(readFileSync(join(data, 'chainlab', 'backend.json'), 'utf-8')).python).toBe(
            join(storage, 'venv', 'bin', 'python'),
        );
    }, 480_000);

    test('Analyze latency in the example workspace plots the exact distribution', async () => {
        const lines = readFileSync(join(examples(), 'xray.chain'), 'utf-8').split('\n');
        const lens = () => codeLensAbove(page, lines, 'ptts System', 'Analyze latency');
        const frame = await webviewFromLens(page, lens, '#plot table.stats', { timeoutMs: 120_000 });
        expect(await frame.locator('svg.plot-cdf g.series-predicted path').count()).toBe(1);
        expect(await frame.locator('table.verdicts td.verdict').allTextContents()).toEqual([
            '✓ PASS',
            '✓ PASS',
            '✓ PASS',
        ]);
        await shotInBothThemes(page, [frame], theme => join(artifacts, `fresh-analyze-${theme}.png`));
    });
});
