/**
 * The language polish of issue #16 as a real VS Code (code-server 4.100.3) shows it: the .chain file icon,
 * keywords that are also names (`x` of `mul.x`) not coloured as keywords, a misspelt name fixed by its
 * did-you-mean quick fix (Ctrl+.), a syntax error in words in the Problems panel, completion that leaves out
 * what a box already has, CodeLens soon after a window reload, and no warning of ours when this repository is
 * open. Screenshots in the light and the dark theme are kept in test-results/vscode/ (editor-light.png,
 * editor-dark.png, quick-fix-did-you-mean.png, problems-syntax-in-words.png, repository-problems.png).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import {
    closeWorkbench,
    fromRepo,
    openWindow,
    openWorkbench,
    repo,
    sampleWorkspace,
    type CodeServer,
    type Workbench,
} from './code-server.js';
import {
    goToLine as goToLineIn,
    openFile as openInWorkbench,
    reloadWindow,
    runCommand,
    type THEMES,
    webviewFrame,
    useTheme as useWorkbenchTheme,
} from './workbench.js';

const artifacts = join(repo, 'test-results', 'vscode');
/** A clean model whose port `x` and instance `mul` are spelt like a keyword and a kernel. */
const HIGHLIGHT = [
    'image F 1024 x 1024 of u16',
    'box Mul { in a: F  in x: F  out o: F  kernel mul }',
    'chain C on P { s: Src  mul: Mul  k: Show  s.o -> mul.a  s.o -> mul.x  mul.o -> k.i }',
    'platform P { cores 2 }',
    'box Src { out o: F  source period 10 ms }',
    'box Show { in i: F  kernel sink }',
    '',
].join('\n');

/** A model with one misspelt box name (`Gian`); its box Gain already has a kernel, a split, depends and a cost. */
const MISTAKES = [
    'image F 64 x 64 of u8',
    'platform P { cores 2 }',
    'box Src { out o: F  source period 10 ms }',
    'box Gain { in i: F  out o: F  kernel gain(2)  split rows  depends pointwise  cost 1 ms }',
    'box Show { in i: F  kernel sink }',
    'chain C on P { s: Src  g: Gian  k: Show  s.o -> g.i  g.o -> k.i }',
    '',
].join('\n');

let workbench: Workbench | undefined;
let server: CodeServer;
let browser: Browser;
let page: Page;
const openFile = (name: string) => openInWorkbench(page, name);
const useTheme = (theme: keyof typeof THEMES) => useWorkbenchTheme(page, theme);
let workspace: string;

beforeAll(async () => {
    mkdirSync(artifacts, { recursive: true });
    workspace = sampleWorkspace({
        ...fromRepo('samples/xray.chain', 'samples/import/xray-pipeline.sdf3.xml'),
        'names.chain': HIGHLIGHT,
    });
    workbench = await openWorkbench(workspace);
    ({ server, browser, page } = workbench);
});

afterAll(() => closeWorkbench(workbench));

const goToLine = (line: number) => goToLineIn(page, line);

const lensAbove = (title: string) =>
    page.locator('.codelens-decoration a', { hasText: title }).filter({ visible: true }).first();
/** Any CodeLens on screen: VS Code restores an editor's scroll position from a state it saves on a timer. */
const anyLens = () => page.locator('.codelens-decoration a').filter({ visible: true }).first();
const xrayLine = (start: string) =>
    readFileSync(join(repo, 'samples', 'xray.chain'), 'utf-8')
        .split('\n')
        .findIndex(l => l.startsWith(start)) + 1;

/**
 * Opens `name` and measures, in the page, from its tab turning active to the first CodeLens shown. Timed by a
 * mutation observer rather than by polling from the test, whose own latency (up to ~0.4 s) is not the editor's.
 */
async function lensDelayAfterOpening(name: string): Promise<number> {
    await page.evaluate(file => {
        const timing: { tab?: number; lens?: number } = {};
        (window as unknown as { lensTiming: typeof timing }).lensTiming = timing;
        const observer = new MutationObserver(() => {
            const now = performance.now();
            if (timing.tab === undefined && document.querySelector('.tab.active')?.textContent?.includes(file))
                timing.tab = now;
            const lens = document.querySelector('.codelens-decoration a');
            if (timing.tab !== undefined && lens?.checkVisibility()) {
                timing.lens = now;
                observer.disconnect();
            }
        });
        observer.observe(document.body, {
            subtree: true,
            childList: true,
            attributes: true,
            attributeFilter: ['class'],
        });
    }, name);
    await openFile(name);
    const timing = () =>
        page.evaluate(() => (window as unknown as { lensTiming: { tab?: number; lens?: number } }).lensTiming);
    await expect.poll(async () => (await timing()).lens, { timeout: 30_000 }).toBeDefined();
    const { tab, lens } = await timing();
    return Math.round(lens! - tab!);
}

/** The rendered token class (Monaco's `mtkN`, one per colour) of each character of an editor line, once coloured. */
async function lineColours(lineText: string): Promise<string[]> {
    // Monaco renders spaces as non-breaking ones
    const line = page
        .locator('.monaco-editor .view-line')
        .filter({ hasText: lineText.replace(/ /g, '\u00a0') })
        .first();
    const spans = () =>
        line.locator('span > span').evaluateAll(els => els.map(e => [e.textContent ?? '', e.className.split(' ')[0]]));
    // the grammar colours a line a moment after it is shown
    await expect
        .poll(async () => new Set((await spans()).map(([, className]) => className)).size, { timeout: 20_000 })
        .toBeGreaterThan(1);
    return (await spans()).flatMap(([text, className]) => [...text].map(() => className));
}

describe('the language polish in VS Code', () => {
    test('a .chain file has the chainlab icon in the explorer and its tab, in the light and the dark theme', async () => {
        await openFile('xray.chain');
        await goToLine(xrayLine('chain XRay') + 22); // centred: the chain's CodeLens, instances and first connections
        await lensAbove('Diagram').waitFor({ timeout: 90_000 });
        for (const theme of ['light', 'dark'] as const) {
            await useTheme(theme);
            const icons = page.locator('.chain-lang-file-icon.file-icon');
            await expect.poll(() => icons.count(), { timeout: 20_000 }).toBeGreaterThanOrEqual(2); // the explorer row and the tab
            for (const icon of await icons.all()) {
                const image = decodeURIComponent(
                    await icon.evaluate(e => getComputedStyle(e, '::before').backgroundImage),
                );
                expect(image).toContain(`chainlab.chainlab-vscode-0.1.0/media/chain-${theme}.svg`);
            }
            await page.screenshot({ path: join(artifacts, `editor-${theme}.png`) });
        }
    });

    test('keywords that are also names are coloured as keywords only where they are keywords', async () => {
        await openFile('names.chain');
        const [imageLine, boxLine, chainLine] = HIGHLIGHT.split('\n');
        const keyword = (await lineColours(boxLine))[0]; // `box`
        // `1024 x 1024`: the keyword x
        const image = await lineColours(imageLine);
        expect(image[imageLine.indexOf(' x ') + 1]).toBe(keyword);
        // `in x: F`: a port named x; `mul.x`: that port of the instance mul; `kernel mul`: a kernel name
        const box = await lineColours(boxLine);
        expect(box[boxLine.indexOf('in x') + 3]).not.toBe(keyword);
        expect(box[boxLine.indexOf('in x')]).toBe(keyword);
        expect(box[boxLine.lastIndexOf('mul')]).not.toBe(keyword);
        const chain = await lineColours(chainLine);
        expect(chain[chainLine.indexOf('mul.x') + 4]).not.toBe(keyword);
        expect(chain[chainLine.indexOf('s: Src')]).not.toBe(keyword);
        await expect
            .poll(() => page.locator('[id="status.problems"]').getAttribute('aria-label'))
            .toMatch(/No Problems/);
        await useTheme('light');
        await page.screenshot({ path: join(artifacts, 'highlighting-light.png') });
        await useTheme('dark');
        await page.screenshot({ path: join(artifacts, 'highlighting-dark.png') });
    });

    test('a misspelt name: its quick fix (Ctrl+.) says and writes the right one; a syntax error in words; completion without what the box has', async () => {
        // written now, not at the start: the other tests want a workspace without problems
        const mistakes = join(workspace, 'samples', 'mistakes.chain');
        writeFileSync(mistakes, MISTAKES);
        await openFile('mistakes.chain');
        const problems = () => page.locator('[id="status.problems"]').getAttribute('aria-label');
        await expect.poll(problems, { timeout: 60_000 }).toMatch(/Errors: [1-9]/);
        // the unknown box: cursor on it, Ctrl+., the fix names the box it means
        await page
            .locator('.monaco-editor .view-line span', { hasText: /^Gian$/ })
            .first()
            .click();
        await page.keyboard.press('Control+.');
        const fix = page.locator('.action-widget .monaco-list-row', { hasText: "Change to 'Gain'" });
        await fix.waitFor({ timeout: 20_000 });
        await page.screenshot({ path: join(artifacts, 'quick-fix-did-you-mean.png') });
        await expect.poll(() => fix.getAttribute('class')).toMatch(/\bfocused\b/); // the only fix: chosen with Enter
        await page.keyboard.press('Enter');
        await expect
            .poll(() => page.locator('.monaco-editor .view-line', { hasText: 'g:\u00a0Gain\u00a0\u00a0k:' }).count())
            .toBe(1);
        await expect.poll(problems, { timeout: 30_000 }).toMatch(/No Problems/);

        // completion at the end of box Gain's body: the members it lacks, not those it has nor those that would not
        // fit (`source` beside its kernel; a third port, where gain takes one input and one output)
        await goToLine(4);
        await page.keyboard.press('End');
        for (let i = 0; i < 2; i++) await page.keyboard.press('ArrowLeft'); // before ` }`
        await page.keyboard.type('  ');
        const rows = page.locator('.suggest-widget .monaco-list-row');
        for (let attempt = 1; ; attempt++) {
            await page.keyboard.press('Control+Space');
            try {
                await rows.first().waitFor({ timeout: 10_000 });
                break;
            } catch (error) {
                // once seen on a loaded CI machine: no list at all (not even the document's words), so the keys
                // were most likely lost; what the screen showed is kept, and the user's second Ctrl+Space is tried
                await page.screenshot({ path: join(artifacts, `completion-missing-${attempt}.png`) });
                if (attempt === 2) throw error;
                await page.keyboard.press('Escape');
            }
        }
        // the keywords offered (VS Code may add words of the document: those have another icon)
        const offered = await rows.evaluateAll(es =>
            es
                .filter(e => e.querySelector('.suggest-icon.codicon-symbol-keyword'))
                .map(e => e.querySelector('.label-name')?.textContent ?? ''),
        );
        expect(offered).toEqual(expect.arrayContaining(['etp']));
        for (const had of ['kernel', 'split', 'depends', 'cost', 'source', 'in', 'out'])
            expect(offered, offered.join(' | ')).not.toContain(had);
        await page.screenshot({ path: join(artifacts, 'completion-box-members.png') });
        await page.keyboard.press('Escape');

        // a box left open: the Problems panel says what is missing, where, in words
        await page.keyboard.press('End');
        await page.keyboard.press('Backspace'); // the closing brace of box Gain
        await page.keyboard.press('Control+Shift+M');
        const row = page.locator('.markers-panel .monaco-tl-row', { hasText: "Expected '}' to close box 'Gain'" });
        await row.first().waitFor({ timeout: 30_000 });
        expect(await page.locator('.markers-panel .monaco-tl-row', { hasText: 'Token sequences' }).count()).toBe(0);
        await page.screenshot({ path: join(artifacts, 'problems-syntax-in-words.png') });
        await page.keyboard.press('Control+Shift+M'); // the panel closed again
        await runCommand(page, 'File: Revert File');
        await runCommand(page, 'View: Close Editor');
        rmSync(mistakes);
    });

    test('CodeLens after a window reload: within 2 s of opening a file once the window is back', async () => {
        // only xray.chain open: the reload restores it, and no other editor
        await runCommand(page, 'View: Close All Editors');
        await openFile('xray.chain');
        const line = xrayLine('ptts System');
        await goToLine(line);
        await lensAbove('Analyze latency').waitFor({ timeout: 90_000 });
        // 1. The file open while the window reloads: the extension host restarts, then the server.
        const started = Date.now();
        await reloadWindow(page);
        await page.locator('.monaco-editor .view-lines').first().waitFor({ timeout: 60_000 });
        const editorShown = Date.now() - started;
        await anyLens()
            .waitFor({ timeout: 30_000 })
            .catch(async (error: unknown) => {
                await page.screenshot({ path: join(artifacts, 'codelens-after-reload-missing.png') });
                throw error;
            });
        const restored = Date.now() - started;
        // 2. Opening a file after the reload (the extension is activated by the workspace's .chain files).
        const opened: number[] = [];
        for (let i = 0; i < 3; i++) {
            // the best of three: a busy machine may slow one
            await runCommand(page, 'View: Close All Editors');
            await expect.poll(() => page.locator('.tab').count()).toBe(0);
            await reloadWindow(page);
            await page.locator('[id="chainlab.chainlab-vscode"]').waitFor({ timeout: 60_000 }); // the status item: activated
            opened.push(await lensDelayAfterOpening('xray.chain')); // VS Code restores the line the editor showed
        }
        console.log(
            `CodeLens after a reload with the file open: ${restored} ms (the editor showed after ${editorShown} ms); ` +
                `opening the file after a reload → CodeLens: ${opened.join(' ms, ')} ms`,
        );
        expect(Math.min(...opened)).toBeLessThan(2000);
        expect(restored).toBeLessThan(15_000);
        await page.screenshot({ path: join(artifacts, 'codelens-after-reload.png') });
    });

    test('Generate C project asks where (default: generated/, which git ignores) and offers Open folder', async () => {
        execFileSync('git', ['init', '-q', workspace]);
        await openFile('xray.chain');
        await goToLine(xrayLine('chain XRay'));
        await lensAbove('Generate C project').click();
        const input = page.locator('.quick-input-widget input');
        const out = join(workspace, 'generated', 'XRay');
        await expect.poll(() => input.inputValue().catch(() => ''), { timeout: 20_000 }).toBe(out);
        await page.keyboard.press('Enter');
        const open = page.locator('.notifications-toasts .monaco-button', { hasText: 'Open folder' });
        await open.waitFor({ timeout: 60_000 });
        await page.screenshot({ path: join(artifacts, 'generate.png') });
        expect(existsSync(join(out, 'CMakeLists.txt'))).toBe(true);
        expect(readFileSync(join(workspace, 'generated', '.gitignore'), 'utf-8')).toMatch(/^\*$/m);
        const untracked = execFileSync('git', ['-C', workspace, 'status', '--porcelain', '--untracked-files=all'], {
            encoding: 'utf-8',
        });
        expect(untracked).toContain('samples/xray.chain');
        expect(untracked).not.toContain('generated/');
    });

    test('Import model: the SDF3 file open in the editor becomes a .chain beside it, opened with its diagram', async () => {
        await openFile('xray-pipeline.sdf3.xml');
        await runCommand(page, 'chainlab: Import model (SDF3, PREESM, Amalthea)');
        const written = join(workspace, 'samples', 'xray-pipeline.sdf3.chain');
        await expect.poll(() => existsSync(written), { timeout: 60_000 }).toBe(true);
        expect(readFileSync(written, 'utf-8')).toMatch(/^chain XrayFront on XrayFrontPC \{$/m);
        // the model in the editor and its box chain beside it, every box of the imported chain drawn
        const tab = page.locator('.tab', { hasText: 'xray-pipeline.sdf3.chain' });
        await expect.poll(() => tab.count(), { timeout: 30_000 }).toBeGreaterThan(0);
        const frame = await webviewFrame(page, 'svg.sprotty-graph g.sprotty-node[id$="_detector"]');
        await frame.locator('button[data-control="fit"]').click(); // the whole chain: sprotty draws what is in view
        const boxes = ['detector', 'darkref', 'dark', 'flat', 'tnr', 'fork', 'display', 'storage'];
        const drawn = () =>
            frame.evaluate(
                names => names.filter(name => document.querySelector(`g.sprotty-node[id$="_${name}"]`)),
                boxes,
            );
        await expect.poll(drawn, { timeout: 30_000 }).toEqual(boxes);
        const diagramTab = page.locator('.tab', { hasText: 'xray-pipeline.sdf3.chain: box chain' });
        expect(await diagramTab.first().textContent()).not.toContain('(box chain)'); // the view named once
        await page.screenshot({ path: join(artifacts, 'import-model.png') });
    });

    test('this repository open in VS Code: no problem in extension/package.json, none in the status bar', async () => {
        const window = await openWindow(browser, server, repo);
        try {
            await window.keyboard.press('Control+P');
            await window.keyboard.type('extension/package.json');
            await window.locator('.quick-input-list .monaco-list-row', { hasText: 'package.json' }).first().click();
            await window.locator('.tab.active', { hasText: 'package.json' }).waitFor();
            // VS Code's extension-manifest linter and the JSON schema check run on the open file
            await window.locator('.monaco-editor .view-lines').first().waitFor();
            await window.waitForTimeout(8000);
            await window.keyboard.press('Control+Shift+M');
            await window.locator('.markers-panel').waitFor();
            await expect
                .poll(() => window.locator('[id="status.problems"]').getAttribute('aria-label'), { timeout: 10_000 })
                .toMatch(/No Problems/);
            expect(await window.locator('.markers-panel .monaco-tl-row').count()).toBe(0);
            await window.screenshot({ path: join(artifacts, 'repository-problems.png') });
        } finally {
            await window.close();
        }
    });
});
