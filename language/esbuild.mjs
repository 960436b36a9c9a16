// Bundles the language server (src/server/main.ts, ESM sources and the ESM-only langium)
// into one CommonJS file that plain `node` runs: dist/server.cjs.
//   node esbuild.mjs            build once
//   node esbuild.mjs --watch    rebuild on change
//   node esbuild.mjs --minify   smaller output
import * as esbuild from 'esbuild';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { dirname, join } from 'node:path';

const root = dirname(fileURLToPath(import.meta.url));

/** The esbuild options of the server bundle (also used by test/lsp/stdio-server.test.ts). */
export const serverOptions = {
    absWorkingDir: root,
    // ELK's layout thread beside the server (src/diagram-server/elk-thread.ts)
    entryPoints: {
        server: join(root, 'src/server/main.ts'),
        'elk-worker': join(root, 'src/diagram-server/elk-worker.ts'),
    },
    outdir: join(root, 'dist'),
    outExtension: { '.js': '.cjs' },
    bundle: true,
    platform: 'node',
    format: 'cjs',
    target: 'node20',
    sourcemap: true,
    // langium and vscode-languageserver are bundled too: the file runs without node_modules.
    logLevel: 'warning',
};

export async function buildServer(extra = {}) {
    return esbuild.build({ ...serverOptions, ...extra });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
    const watch = process.argv.includes('--watch');
    const minify = process.argv.includes('--minify');
    if (watch) {
        const context = await esbuild.context({ ...serverOptions, minify });
        await context.watch();
        console.log('esbuild: watching src/ (dist/server.cjs)');
    } else {
        const started = Date.now();
        await buildServer({ minify });
        console.log(`esbuild: dist/server.cjs in ${Date.now() - started} ms`);
    }
}
