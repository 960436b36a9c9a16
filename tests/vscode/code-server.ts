/**
 * A real VS Code for the end-to-end tests: code-server 4.100.3 from the npm registry (installed by
 * scripts/setup.mjs into tests/vscode/node_modules), run with private user/extension/config dirs, no gallery
 * and no network, the chainlab .vsix installed the way a user installs it.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser } from '../../diagram/test/browser.js';
import { freePort, startServer, waitUntilServing } from './server-process.js';

const here = dirname(fileURLToPath(import.meta.url));
export const repo = join(here, '..', '..');
export const codeServerBin = join(here, 'node_modules', '.bin', 'code-server');
export const vsix = join(repo, 'extension', 'chainlab.vsix');

/** A loopback "gallery" that refuses: code-server would otherwise look up open-vsx.org. */
const GALLERY = JSON.stringify({
    serviceUrl: 'http://127.0.0.1:9/gallery',
    itemUrl: 'http://127.0.0.1:9/item',
    resourceUrlTemplate: 'http://127.0.0.1:9/res/{publisher}/{name}/{version}/{path}',
});

export interface CodeServer {
    url: string;
    dirs: { user: string; extensions: string };
    log: () => string;
    stop: () => Promise<void>;
}

export async function startCodeServer(workspace: string, settings: Record<string, unknown>): Promise<CodeServer> {
    if (!existsSync(codeServerBin))
        throw new Error(`code-server is not installed (${codeServerBin}): run \`node scripts/setup.mjs\``);
    if (!existsSync(vsix)) throw new Error(`${vsix} is missing: run \`npm run package\``);
    const base = mkdtempSync(join(tmpdir(), 'chainlab-code-server-'));
    const dirs = {
        user: join(base, 'user'),
        extensions: join(base, 'extensions'),
        config: join(base, 'xdg-config'),
        data: join(base, 'xdg-data'),
    };
    for (const dir of Object.values(dirs)) mkdirSync(dir, { recursive: true });
    mkdirSync(join(dirs.user, 'User'), { recursive: true });
    writeFileSync(
        join(dirs.user, 'User', 'settings.json'),
        JSON.stringify(
            {
                'security.workspace.trust.enabled': false,
                'workbench.startupEditor': 'none',
                'chat.disableAIFeatures': true,
                'workbench.secondarySideBar.defaultVisibility': 'hidden',
                'workbench.tips.enabled': false,
                'telemetry.telemetryLevel': 'off',
                'extensions.ignoreRecommendations': true,
                'update.mode': 'none',
                'workbench.enableExperiments': false,
                ...settings,
            },
            null,
            2,
        ),
    );
    const env = { ...process.env, XDG_CONFIG_HOME: dirs.config, XDG_DATA_HOME: dirs.data, EXTENSIONS_GALLERY: GALLERY };
    const common = [
        '--user-data-dir',
        dirs.user,
        '--extensions-dir',
        dirs.extensions,
        '--disable-telemetry',
        '--disable-update-check',
    ];
    const install = spawnSync(codeServerBin, [...common, '--install-extension', vsix], {
        env,
        encoding: 'utf-8',
        timeout: 120_000,
    });
    if (install.status !== 0) throw new Error(`installing ${vsix} failed: ${install.stdout}${install.stderr}`);
    const port = await freePort();
    const server = startServer(
        codeServerBin,
        [
            ...common,
            '--bind-addr',
            `127.0.0.1:${port}`,
            '--auth',
            'none',
            '--disable-workspace-trust',
            '--disable-getting-started-override',
            workspace,
        ],
        env,
    );
    const url = `http://127.0.0.1:${port}`;
    try {
        await waitUntilServing('code-server', `${url}/healthz`, server);
    } catch (error) {
        await server.stop();
        throw error;
    }
    return { url, dirs, log: server.log, stop: server.stop };
}

/** A workspace folder of its own: each of `files` (name → text) in its samples/ folder. */
export function sampleWorkspace(files: Record<string, string>): string {
    const workspace = mkdtempSync(join(tmpdir(), 'chainlab-ws-'));
    mkdirSync(join(workspace, 'samples'));
    for (const [name, text] of Object.entries(files)) writeFileSync(join(workspace, 'samples', name), text);
    return workspace;
}

/** The repository's files at `paths` (relative to its root), by their names: for {@link sampleWorkspace}. */
export function fromRepo(...paths: string[]): Record<string, string> {
    return Object.fromEntries(paths.map(path => [basename(path), readFileSync(join(repo, path), 'utf-8')]));
}

/** code-server with the extension, and the Chromium window (1600×1000) a suite drives it in. */
export interface Workbench {
    server: CodeServer;
    browser: Browser;
    page: Page;
}

/** The suites' window size: a 1600-pixel-wide screen, a half-width editor group beside the text. */
const WINDOW = { width: 1600, height: 1000 } as const;

/**
 * Starts code-server on `workspace` with the user settings `settings` (the backend of this checkout, no schema
 * downloads on this offline machine, unless overridden) and opens it in Chromium; whatever started is stopped again
 * if a later step fails.
 */
export async function openWorkbench(workspace: string, settings: Record<string, unknown> = {}): Promise<Workbench> {
    const server = await startCodeServer(workspace, {
        'chainlab.python': join(repo, 'backend', '.venv', 'bin', 'python'),
        // VS Code could not fetch package.json's schema from schemastore.org and would warn
        'json.schemaDownload.enable': false,
        ...settings,
    });
    let browser: Browser | undefined;
    try {
        browser = await launchBrowser();
        return { server, browser, page: await openWindow(browser, server, workspace) };
    } catch (error) {
        await browser?.close();
        await server.stop();
        throw error;
    }
}

/** A new Chromium window (1600×1000) showing `folder` in `server`'s workbench, once the workbench is drawn. */
export async function openWindow(browser: Browser, server: CodeServer, folder: string): Promise<Page> {
    const page = await browser.newPage({ viewport: WINDOW });
    // a helper the TS transform may put into functions that tests send into frames
    await page.addInitScript('window.__name = f => f');
    await page.goto(`${server.url}/?folder=${encodeURIComponent(folder)}`);
    await page.locator('.monaco-workbench').waitFor({ timeout: 60_000 });
    return page;
}

/** Closes the window and stops code-server, after a last screenshot at `lastShot` (what a failure left on screen). */
export async function closeWorkbench(workbench: Workbench | undefined, lastShot?: string): Promise<void> {
    if (!workbench) return;
    if (lastShot) await workbench.page.screenshot({ path: lastShot }).catch(() => undefined);
    await workbench.browser.close();
    await workbench.server.stop();
}
