/**
 * What the Theia suite does in the workbench the way a user does, where Theia differs from VS Code: its tabs and
 * notifications are its own widgets, its theme names and body classes are its own, and webview panels are focused
 * by clicking their tab (Theia's `WebviewPanel.active` means focused). The editor, the CodeLens, Quick Open and the
 * command palette are Monaco's in both, so those helpers of the VS Code suites serve here unchanged.
 */
import type { Frame, Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

import { openFile as openFileAsInVSCode, runCommand } from '../vscode/workbench.js';

export {
    codeLensAbove,
    expectLensInViewAbove,
    runCommand,
    webviewFrame,
    webviewFromLens,
} from '../vscode/workbench.js';

export const THEMES = { light: 'Light (Theia)', dark: 'Dark (Theia)' } as const;
export type Theme = keyof typeof THEMES;

/** The tab (editor, webview panel or view) whose title contains `title`. */
export function tab(page: Page, title: string | RegExp): Locator {
    return page.locator('.lm-TabBar-tab', { hasText: title }).first();
}

/** Quick Open (Ctrl+P) the file `name` and wait for its editor tab to be the active one. */
export function openFile(page: Page, name: string): Promise<void> {
    return openFileAsInVSCode(page, name, page.locator('.lm-TabBar-tab.theia-mod-active', { hasText: name }));
}

/** Brings the editor of `name` forward: its tab if it is open, else Quick Open (Theia would open a second one). */
export async function showFile(page: Page, name: string): Promise<void> {
    // its title is the name, then the count of its problems if it has any (not a view named after it)
    const title = new RegExp(`^${name.replace(/\./g, '\\.')}\\d*$`);
    const open = page.locator('.lm-TabBar-tab', { hasText: title });
    if (await open.count()) await open.first().click();
    else await openFile(page, name);
}

/** Hides the bottom panel (Problems, Output) if it shows, as View: Toggle Bottom Panel does: room for the views. */
export async function hideBottomPanel(page: Page): Promise<void> {
    const panel = page.locator('#theia-bottom-content-panel');
    if (!(await panel.isVisible())) return;
    await runCommand(page, 'View: Toggle Bottom Panel');
    await expect.poll(() => panel.isVisible(), { timeout: 10_000 }).toBe(false);
}

/** The workbench's theme kind now (Theia marks the body). */
export async function currentTheme(page: Page): Promise<Theme> {
    return /\btheia-dark\b/.test((await page.locator('body').getAttribute('class')) ?? '') ? 'dark' : 'light';
}

/** Switches the colour theme the way a user does: Preferences: Color Theme. */
export async function useTheme(page: Page, theme: Theme): Promise<void> {
    if ((await currentTheme(page)) === theme) return;
    await runCommand(page, 'Preferences: Color Theme');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: THEMES[theme] }).first().click();
    await expect.poll(() => currentTheme(page), { timeout: 20_000 }).toBe(theme);
}

/**
 * A screenshot at `path(theme)` in each theme, the current one first, once the webviews in `frames` have taken it
 * (Theia restyles them by a message, as VS Code does, with the same body classes).
 */
export async function shotInBothThemes(page: Page, frames: Frame[], path: (theme: Theme) => string): Promise<void> {
    await hideBottomPanel(page);
    const first = await currentTheme(page);
    for (const theme of [first, first === 'light' ? 'dark' : 'light'] as const) {
        await useTheme(page, theme);
        for (const frame of frames)
            await expect
                .poll(() => frame.evaluate(() => document.body.className), { timeout: 20_000 })
                .toContain(`vscode-${theme}`);
        await page.waitForTimeout(500); // Sprotty and the plot redraw in the new colours
        await page.screenshot({ path: path(theme) });
    }
}

/** The button `label` of a notification toast. */
export function notificationButton(page: Page, label: string): Locator {
    return page.locator('.theia-notification-toasts .theia-notification-buttons button', { hasText: label }).first();
}

/** The text of every notification toast now showing. */
export async function notifications(page: Page): Promise<string> {
    return (await page.locator('.theia-notification-toasts .theia-notification-message').allTextContents()).join('\n');
}
