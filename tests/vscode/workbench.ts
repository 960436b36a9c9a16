/** What the VS Code suites do in the workbench the way a user does: open a file, switch the colour theme. */
import type { Frame, Page } from 'playwright-core';
import { expect } from 'vitest';

export const THEMES = { light: 'Default Light Modern', dark: 'Default Dark Modern' } as const;

/** Quick Open (Ctrl+P) the file `name` and wait for its tab to be the active one. */
export async function openFile(page: Page, name: string): Promise<void> {
    await page.keyboard.press('Control+P');
    await page.keyboard.type(name);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: name }).first().click();
    await page.locator('.tab.active', { hasText: name }).waitFor();
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
