/** The test page of the diagram webview: the current source bundled (standalone.ts), in a 1400×900 panel. */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as esbuild from 'esbuild';
import { webviewOptions } from '../esbuild.mjs';

const dist = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist');

/** Bundles the webview, writes the page as `artifacts/name` and returns its file: URL. */
export async function standalonePage(artifacts: string, name: string): Promise<string> {
    await esbuild.build(webviewOptions); // the bundle under test is the current source
    mkdirSync(artifacts, { recursive: true });
    const html = `<!doctype html><html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src file:; style-src 'unsafe-inline' file:">
<link rel="stylesheet" href="${pathToFileURL(join(dist, 'standalone.css')).href}"></head>
<body><div id="toolbar" class="chainlab-toolbar"></div><div id="sprotty" style="width:1400px;height:900px"></div><script src="${pathToFileURL(join(dist, 'standalone.js')).href}"></script></body></html>`;
    writeFileSync(join(artifacts, name), html);
    return pathToFileURL(join(artifacts, name)).toString();
}
