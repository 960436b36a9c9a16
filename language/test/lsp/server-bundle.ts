/** The bundled language server used by the stdio tests, rebuilt only when its sources are newer. */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildServer } from '../../esbuild.mjs';

export const languageDir = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const serverBundle = join(languageDir, 'dist', 'server.cjs');

/** Newest modification time of the files under `dir`. */
function newestSource(dir: string): number {
    let newest = 0;
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
        const path = join(dir, entry.name);
        newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs);
    }
    return newest;
}

export async function ensureServerBundle(): Promise<string> {
    // the bundle holds the contract too (contract/out, built by scripts/setup.mjs)
    const sources = Math.max(
        newestSource(join(languageDir, 'src')),
        newestSource(join(languageDir, '..', 'contract', 'out')),
        statSync(join(languageDir, 'esbuild.mjs')).mtimeMs,
    );
    if (!existsSync(serverBundle) || statSync(serverBundle).mtimeMs < sources) await buildServer();
    return serverBundle;
}
