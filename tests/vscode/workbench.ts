/** What the VS Code suites do in the workbench the way a user does: open a file, switch the colour theme. */
import type { Page } from 'playwright-core';
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
    await page.keyboard.press('F1');
    await page.keyboard.type('Preferences: Color Theme');
    await page.locator('.quick-input-list .monaco-list-row', { hasText: 'Preferences: Color Theme' }).first().click();
    await page.keyboard.type(THEMES[theme]);
    await page.locator('.quick-input-list .monaco-list-row', { hasText: THEMES[theme] }).first().click();
    await expect.poll(classes, { timeout: 20_000 }).toMatch(wanted);
}
