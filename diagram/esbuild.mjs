// Bundles the diagram webview for browsers: dist/webview.js (inside VS Code, with sprotty-vscode-webview)
// and dist/standalone.js (a plain page with a local model: browser tests), each with its CSS.
import * as esbuild from 'esbuild';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));

export const webviewOptions = {
    absWorkingDir: root,
    entryPoints: { webview: join(root, 'src/main.ts'), standalone: join(root, 'src/standalone.ts') },
    outdir: join(root, 'dist'),
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: true,
    // one inversify: sprotty require()s the CommonJS build, so our imports must get the same file
    alias: { inversify: join(root, '..', 'node_modules', 'inversify', 'lib', 'cjs', 'index.js') },
    loader: { '.css': 'css' },
    logLevel: 'warning',
};

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
    const started = Date.now();
    await esbuild.build(webviewOptions);
    console.log(`esbuild: diagram/dist/{webview,standalone}.js in ${Date.now() - started} ms`);
}
