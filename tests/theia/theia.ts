/**
 * A real Eclipse Theia for the end-to-end tests: the browser application of tests/theia (one @theia version set,
 * installed and built by scripts/setup.mjs), run with a configuration folder of its own, and the chainlab .vsix,
 * unchanged, in that folder's plugins/ (where Theia deploys a user's .vsix from). Theia serves each webview from a
 * subdomain of its host, so it is opened on localhost, never 127.0.0.1.
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../diagram/test/browser.js';
import { freePort, startServer, waitUntilServing } from '../vscode/server-process.js';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '..', '..');
const backendMain = join(here, 'lib', 'backend', 'main.js');
const vsix = join(repo, 'extension', 'chainlab.vsix');

export interface TheiaServer {
    url: string;
    dirs: { config: string; data: string };
    log: () => string;
    stop: () => Promise<void>;
}

/** Starts Theia on `workspace` with the user settings `settings` and the .vsix as a user plugin. */
export async function startTheia(workspace: string, settings: Record<string, unknown>): Promise<TheiaServer> {
    if (!existsSync(backendMain))
        throw new Error(`the Theia application is not built (${backendMain}): run \`node scripts/setup.mjs\``);
    if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\``);
    const base = mkdtempSync(join(tmpdir(), 'chainlab-theia-'));
    const dirs = { config: join(base, 'config'), data: join(base, 'xdg-data') };
    mkdirSync(join(dirs.config, 'plugins'), { recursive: true });
    mkdirSync(dirs.data, { recursive: true });
    copyFileSync(vsix, join(dirs.config, 'plugins', 'chainlab.vsix'));
    writeFileSync(join(dirs.config, 'settings.json'), JSON.stringify(settings, null, 2));
    const port = await freePort();
    // XDG_DATA_HOME: where the extension names the backend it set up, kept out of this machine's home
    const env = { ...process.env, THEIA_CONFIG_DIR: dirs.config, XDG_DATA_HOME: dirs.data };
    const server = startServer(
        process.execPath,
        [backendMain, workspace, '--hostname', 'localhost', '--port', String(port)],
        env,
        here,
    );
    // Theia serves each webview from {uuid}.webview.{host}. Playwright turns Chromium's third-party storage
    // partitioning off, and this Chromium blocks third-party storage, so a webview under plain localhost (another
    // site) could not register its service worker and stays blank; under theia.localhost it is the same site.
    // (A browser as users run it partitions, and there localhost works as well.)
    const url = `http://theia.localhost:${port}`;
    try {
        await waitUntilServing('Theia', `http://localhost:${port}`, server); // Node does not resolve *.localhost
    } catch (error) {
        await server.stop();
        throw error;
    }
    return { url, dirs, log: server.log, stop: server.stop };
}

/** Theia with the extension, and the Chromium window (1600×1000) a suite drives it in. */
export interface TheiaWorkbench {
    server: TheiaServer;
    browser: Browser;
    page: Page;
}

/**
 * Starts Theia on `workspace` (the backend of this checkout, unless `settings` say otherwise) and opens it in
 * Chromium once its shell is drawn and the chainlab plugin is running; whatever started is stopped if a step fails.
 */
export async function openTheia(workspace: string, settings: Record<string, unknown> = {}): Promise<TheiaWorkbench> {
    const server = await startTheia(workspace, {
        'chainlab.python': join(repo, 'backend', '.venv', 'bin', 'python'),
        ...settings,
    });
    let browser: Browser | undefined;
    try {
        browser = await launchBrowser();
        const page = await browser.newPage({ viewport: { width: 1600, height: 1000 } });
        await page.addInitScript('window.__name = f => f'); // the TS transform's helper in functions sent to frames
        await page.goto(`${server.url}/#${workspace}`);
        await page.locator('#theia-app-shell').waitFor({ timeout: 90_000 });
        return { server, browser, page };
    } catch (error) {
        await browser?.close();
        await server.stop();
        throw error;
    }
}

/** Closes the window and stops Theia, after a last screenshot at `lastShot` (what a failure left on screen). */
export async function closeTheia(workbench: TheiaWorkbench | undefined, lastShot?: string): Promise<void> {
    if (!workbench) return;
    if (lastShot) await workbench.page.screenshot({ path: lastShot }).catch(() => undefined);
    await workbench.browser.close();
    await workbench.server.stop();
}
