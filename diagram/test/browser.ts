/** Debian's chromium driven by playwright-core: no browser download, no network. */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = process.env.CHAINLAB_CHROMIUM ?? '/usr/bin/chromium';

export async function launchBrowser(): Promise<Browser> {
    if (!existsSync(CHROMIUM))
        throw new Error(
            `no chromium at ${CHROMIUM}: run \`node scripts/setup.mjs\` as root (installs the Debian package) or set CHAINLAB_CHROMIUM`,
        );
    return chromium.launch({
        executablePath: CHROMIUM,
        args: [
            '--no-sandbox',
            '--disable-gpu',
            '--disable-dev-shm-usage',
            // loopback only; Theia serves each webview from a subdomain of localhost
            '--host-resolver-rules=MAP * ~NOTFOUND, EXCLUDE 127.0.0.1, EXCLUDE localhost, EXCLUDE *.localhost',
        ],
    });
}
