/** What the VS Code suites do in the workbench the way a user does: open a file, switch the colour theme. */
import type { Frame, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

export const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' } as const;

/**
 * Quick Open (Ctrl+P) the file `name` and wait for its tab to be the active one (`activeTab`: how the workbench marks
 * it; VS Code's by default).
 */
export async function openFile(
    page: Page,
    name: string,
    activeTab = page.locator(`.tab.active[data-resource-name="${name}"]`),
): Promise<void> {
    const row = page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first();
    for (let attempt = 1; ; attempt++) {
        await page.keyboard.press('Control+P');
        await page.keyboard.type(name);
        try {
            await row.waitFor({ timeout: 10_000 });
            break;
        } catch (error) {
            // a file written a moment ago: Quick Open searches again when asked again, once VS Code has seen it
            if (attempt === 4) throw error;
            await page.keyboard.press('Escape');
        }
    }
    await row.click();
    await activeTab.waitFor(); // not a panel whose title names it
}

/** Switches the colour theme the way a user does: Preferences: Color Theme. */
export async function useTheme(page: Page, theme: keyof typeof THEMES): Promise<void> {
    const classes = () => page.locator('.monaco-workbench').getAttribute('class');
    const wanted = theme === 'light' ? /\bvs\b(?!-dark)/ : /\bvs-dark\b/;
    if (wanted.test((await classes()) ?? '')) return;
    await runCommand(page, 'Preferences: Color Theme');
    await page.keyboard.type(THEMES[theme]);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: THEMES[theme] }).first().click();
    await expect.poll(classes, { timeout: 20_000 }).toMatch(wanted);
}

/** Runs the command palette entry `title` (F1, its title, a click on its row). */
export async function runCommand(page: Page, title: string): Promise<void> {
    const input = page.locator('.quick-input-widget input');
    const paletteOpen = () =>
        input.evaluate(i => i === document.activeElement && (i as HTMLInputElement).value === '>').catch(() => false);
    // F1 can be lost (a webview that had the focus, a busy workbench): a user presses it again, and so does this
    for (let attempt = 1; ; attempt++) {
        // a webview with the focus does not always pass F1 on: give the focus back to the workbench, as a click would
        await page.evaluate(() => {
            if (document.activeElement instanceof HTMLIFrameElement) document.activeElement.blur();
        });
        await page.keyboard.press('F1');
        try {
            await expect.poll(paletteOpen, { timeout: attempt < 3 ? 5_000 : 20_000 }).toBe(true);
            break;
        } catch (error) {
            if (attempt === 3) throw error;
            await page.keyboard.press('Escape'); // whatever F1 opened or did not, closed before the next try
        }
    }
    await page.keyboard.type(title);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: title }).first().click();
}

/**
 * Developer: Reload Window, as a user reloads. Unlike a browser reload (whose unload handler only starts saving the
 * UI state), the command waits until VS Code has saved which editors are open, so the reloaded window restores them.
 */
export async function reloadWindow(page: Page): Promise<void> {
    const loaded = page.waitForEvent('load', { timeout: 60_000 });
    await runCommand(page, 'Developer: Reload Window');
    await loaded;
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
}

/** The workbench's theme kind now. */
export async function currentTheme(page: Page): Promise<keyof typeof THEMES> {
    return /\bvs-dark\b/.test((await page.locator('.monaco-workbench').getAttribute('class')) ?? '') ? 'dark' : 'light';
}

/**
 * A screenshot at `path(theme)` in the theme the workbench has, then one in the other (one switch, not two): each
 * once the webviews in `frames` have taken the theme (VS Code restyles them by a message of its own) and `ready`
 * (what the picture should show, e.g. a hover popup) is done.
 */
export async function shotInBothThemes(
    page: Page,
    frames: Frame[],
    path: (theme: string) => string,
    ready?: () => Promise<void>,
): Promise<void> {
    const first = await currentTheme(page);
    for (const theme of [first, first === 'light' ? 'dark' : 'light'] as const) {
        await useTheme(page, theme);
        for (const frame of frames)
            await expect
                .poll(() => frame.evaluate(() => document.body.className), { timeout: 20_000 })
                .toContain(`vscode-${theme}`);
        await ready?.();
        await page.screenshot({ path: path(theme) });
    }
}

export interface FrameQuery {
    /** Text the element must contain. */
    text?: string | RegExp;
    /** Frames not to return (e.g. the views open before). */
    not?: Iterable<Frame>;
    timeoutMs?: number;
    /** More to say when none is found (logs). */
    explain?: () => string;
}

/** The webview frame (diagram or plot) whose document has `selector`, as a user finds the panel showing it. */
export async function webviewFrame(page: Page, selector: string, query: FrameQuery = {}): Promise<Frame> {
    const { text, timeoutMs = 60_000 } = query;
    const not = new Set(query.not ?? []);
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        for (const frame of page.frames()) {
            if (not.has(frame)) continue;
            const found = await frame
                .locator(selector, text === undefined ? {} : { hasText: text })
                .count()
                .catch(() => 0);
            if (found) return frame;
        }
        if (Date.now() > deadline)
            throw new Error(
                `no webview shows ${selector} ${text ?? ''} within ${timeoutMs} ms\n${query.explain?.() ?? ''}`,
            );
        await page.waitForTimeout(250);
    }
}

/**
 * Clicks the CodeLens that `lens` finds and returns the webview that then shows `selector`. A click while the lens
 * line is being redrawn can miss it, so after 30 s without the view the lens is clicked once more, as a user would.
 */
export async function webviewFromLens(
    page: Page,
    lens: () => Promise<Locator>,
    selector: string,
    query: FrameQuery = {},
): Promise<Frame> {
    await (await lens()).click();
    try {
        return await webviewFrame(page, selector, { ...query, timeoutMs: 30_000 });
    } catch {
        await (await lens()).click();
        return webviewFrame(page, selector, query);
    }
}

/** Go to Line (Ctrl+G) in the active editor: `line` typed once the input is open, not into the text. */
export async function goToLine(page: Page, line: number): Promise<void> {
    await page.locator('.monaco-editor textarea').first().focus();
    await page.keyboard.press('Control+G');
    await page.locator('.quick-input-widget input').waitFor();
    await page.keyboard.type(String(line));
    await page.keyboard.press('Enter');
}

/** The visible line matching `declaration` has its CodeLens `title` right above it, without any scrolling. */
export async function expectLensInViewAbove(page: Page, declaration: RegExp, title: string): Promise<void> {
    const line = page.locator('.monaco-editor .view-line', { hasText: declaration });
    await line.waitFor({ timeout: 30_000 });
    const lens = page.locator('.codelens-decoration a', { hasText: title }).filter({ visible: true }).first();
    await lens.waitFor({ timeout: 60_000 });
    const [lensBox, lineBox] = [await lens.boundingBox(), await line.boundingBox()];
    expect(lineBox!.y - lensBox!.y).toBeGreaterThan(0);
    expect(lineBox!.y - lensBox!.y).toBeLessThan(40);
}

/**
 * The CodeLens `title` right above the line of `lines` that starts with `declaration`, in the active editor (several
 * elements have one: the nearest above the line is its own). The line is brought into view with Go to Line.
 */
export async function codeLensAbove(
    page: Page,
    lines: readonly string[],
    declaration: string,
    title: string,
    timeoutMs = 90_000,
): Promise<Locator> {
    const line = lines.findIndex(l => l.startsWith(declaration)) + 1;
    if (line === 0) throw new Error(`no line starts with ${declaration}`);
    await goToLine(page, line);
    // case-sensitive and from the line's start: a comment such as "// A chain small…" must not count as "chain Small"
    const escaped = declaration.replace(/[.*+?^$()|[\]{}\\]/g, c => `\\${c}`).replace(/ /g, '\\s'); // VS Code draws spaces as U+00A0
    const text = page.locator('.monaco-editor .view-line', { hasText: new RegExp(`^${escaped}`) }).first();
    const lenses = page.locator('.codelens-decoration a', { hasText: title }).filter({ visible: true });
    await lenses.first().waitFor({ timeout: timeoutMs });
    // the editor may still be scrolling to the line or making room for lenses: measured until the line stands still
    // with its lens right above it
    const deadline = Date.now() + timeoutMs;
    for (;;) {
        const y = (await text.boundingBox())?.y ?? -Infinity; // not drawn yet: no lens is above it
        let best: { lens: Locator; y: number } | undefined;
        for (const lens of await lenses.all()) {
            const box = await lens.boundingBox();
            if (box && box.y < y && (!best || box.y > best.y)) best = { lens, y: box.y };
        }
        if (best && y - best.y < 40 && (await text.boundingBox())?.y === y) return best.lens;
        if (Date.now() > deadline) throw new Error(`no ${title} lens right above ${declaration}`);
        await page.waitForTimeout(200);
    }
}

/**
 * Rests the pointer on the diagram node whose id ends with `id` until its hover popup says `says`, coming from the
 * node `from` (which starts Sprotty's popup timer anew), and checks that the popup opens next to the node (Sprotty
 * puts it below or beside the node, so that it does not hide what it describes).
 */
export async function hoverNode(page: Page, frame: Frame, id: string, from: string, says: RegExp): Promise<void> {
    const popup = frame.locator('.sprotty-popup .chainlab-popup');
    const text = async () => ((await popup.count()) ? ((await popup.first().textContent()) ?? '') : '');
    const boxOf = async (end: string) =>
        await frame.locator(`[id$="_container"] g.sprotty-node[id$="${end}"]`).first().boundingBox();
    const centre = (b: { x: number; y: number; width: number; height: number }) => ({
        x: b.x + b.width / 2,
        y: b.y + b.height / 2,
    });
    for (let attempt = 1; ; attempt++) {
        // where they are now: the diagram re-fits to its panel after a resize, animated, and a pointer left behind
        // misses the node
        const [node, other] = [await boxOf(id), await boxOf(from)];
        if (!node || !other) {
            // in the middle of that re-fit a node may be out of view, and Sprotty does not draw it
            if (attempt === 5) throw new Error(`the nodes ${id} and ${from} are not both drawn`);
            await page.waitForTimeout(500);
            continue;
        }
        await page.mouse.move(centre(other).x, centre(other).y);
        await page.mouse.move(centre(node).x, centre(node).y);
        try {
            await expect.poll(text, { timeout: 5_000 }).toMatch(says);
        } catch (error) {
            if (attempt === 5) throw error;
            continue;
        }
        const box = (await popup.first().boundingBox())!;
        const gap = Math.hypot(
            Math.max(box.x - (node.x + node.width), node.x - (box.x + box.width), 0),
            Math.max(box.y - (node.y + node.height), node.y - (box.y + box.height), 0),
        );
        expect(gap, `the popup ${JSON.stringify(box)} next to the node ${JSON.stringify(node)}`).toBeLessThan(40);
        return;
    }
}
