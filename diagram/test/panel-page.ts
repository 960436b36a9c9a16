/**
 * A half-width VS Code panel (800 × 1000 CSS px) in Chromium: the toolbar row above the diagram, the current
 * webview bundle, a theme, and a model the language server laid out for the panel.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import * as esbuild from 'esbuild';
import { webviewOptions } from '../esbuild.mjs';
import { themeScript, type Theme } from './vscode-themes.js';

export const PANEL = { width: 800, height: 1000 };
/** The page's toolbar row above the diagram. */
export const TOOLBAR = 36;

export interface ViewportInfo {
    zoom: number;
    scroll: { x: number; y: number };
    canvas: { width: number; height: number };
}

type Api = { show(m: unknown): Promise<void>; viewport(): Promise<ViewportInfo>; reveal(id: string): Promise<void> };

/** Bundles the webview and writes the panel page `name` into `artifacts`; returns its file: URL. */
export async function panelPage(artifacts: string, name: string): Promise<string> {
    await esbuild.build(webviewOptions);
    mkdirSync(artifacts, { recursive: true });
    const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');
    const html = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="${pathToFileURL(join(dist, 'standalone.css')).href}"></head>
<body><div id="toolbar"></div><div id="sprotty" style="width:100%;height:calc(100vh - ${TOOLBAR}px)"></div><script src="${pathToFileURL(join(dist, 'standalone.js')).href}"></script></body></html>`;
    writeFileSync(join(artifacts, name), html);
    return pathToFileURL(join(artifacts, name)).toString();
}

/** Opens the panel with `model` shown (at *Readable*, as a new diagram opens); page errors fail the caller. */
export async function openPanel(browser: Browser, url: string, model: unknown, theme: Theme): Promise<Page> {
    const page = await browser.newPage({ viewport: PANEL });
    const errors: string[] = [];
    page.on('pageerror', e => errors.push(e.message));
    await page.addInitScript('window.__name = f => f'); // esbuild's keepNames helper, for functions sent to the page
    await page.goto(url);
    await page.waitForFunction(() => 'chainlabDiagram' in window, undefined, { timeout: 10_000 });
    await page.evaluate(themeScript(theme));
    await page.evaluate(
        json => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.show(JSON.parse(json)),
        JSON.stringify(model),
    );
    await page.waitForSelector('svg.sprotty-graph g.sprotty-node');
    await settle(page);
    if (errors.length) throw new Error(errors.join('\n'));
    return page;
}

/** Two animation frames: the last action is rendered and painted. */
export const settle = (page: Page) =>
    page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));

export const viewportOf = (page: Page) =>
    page.evaluate(() => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.viewport());

export const reveal = (page: Page, id: string) =>
    page.evaluate(i => (window as unknown as { chainlabDiagram: Api }).chainlabDiagram.reveal(i), id);

/** Clicks a toolbar button by its data-control name and waits for the frame. */
export async function press(page: Page, control: string, times = 1): Promise<void> {
    for (let i = 0; i < times; i++) await page.click(`button[data-control="${control}"]`);
    await settle(page);
}
