// Builds the extension into dist/: the extension host code (CommonJS, `vscode` external), the language
// server bundle and the diagram webview (copied from their workspaces, so the .vsix is self-contained),
// the plot webview, the backend wheel (set up by the extension on first use), the example workspace's
// files, and the TextMate grammar Langium generated (tuned by language/textmate.mjs). `node esbuild.mjs report`
// builds the script and style of a run's report.html into the backend's package instead (scripts/setup.mjs runs it
// before the backend's tests and wheel, which need them).
import * as esbuild from 'esbuild';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = dirname(fileURLToPath(import.meta.url));
const repo = join(root, '..');
const dist = join(root, 'dist');

function need(path, how) {
    if (!existsSync(path)) throw new Error(`${path} is missing: ${how}`);
    return path;
}

/** The plot webview (Observable Plot bundled in: no network in a webview): dist/plot.js and plot.css. */
export const plotOptions = {
    absWorkingDir: root,
    entryPoints: { plot: join(root, 'webview/plot.ts') },
    outdir: dist,
    bundle: true,
    platform: 'browser',
    format: 'iife',
    target: 'es2022',
    sourcemap: true,
    logLevel: 'warning',
};

/** Builds the plot webview alone (its Chromium tests bundle the current source this way). */
export async function buildPlotWebview() {
    await esbuild.build(plotOptions);
    copyFileSync(join(root, 'webview/plot.css'), join(dist, 'plot.css'));
}

/** Where the backend finds report.html's script and style (package data of chainlab, git-ignored). */
export const reportResources = join(repo, 'backend', 'chainlab', 'resources', 'report');

/**
 * report.html's script and style: the plot view with report.ts as its entry, one minified IIFE (the backend writes
 * it inline into each report, no source map: the page is one file), and plot.css followed by report.css.
 */
export async function buildReportPage() {
    mkdirSync(reportResources, { recursive: true });
    await esbuild.build({
        absWorkingDir: root,
        entryPoints: [join(root, 'webview/report.ts')],
        outfile: join(reportResources, 'report.js'),
        bundle: true,
        platform: 'browser',
        format: 'iife',
        target: 'es2022',
        minify: true,
        legalComments: 'none',
        logLevel: 'warning',
    });
    const css = ['plot.css', 'report.css'].map(f => readFileSync(join(root, 'webview', f), 'utf-8')).join('\n');
    writeFileSync(join(reportResources, 'report.css'), css);
}

/** The samples of the walkthrough's example workspace (flat: each file opens by its name), and their README. */
const EXAMPLES = {
    'xray.chain': 'samples/xray.chain',
    'fig3-5.chain': 'samples/chains/fig3-5.chain',
    'thesis-fig5-2.chain': 'samples/ptts/thesis-fig5-2.chain',
    'README.md': 'extension/walkthrough/examples-readme.md',
};

/** The backend wheel (scripts/setup.mjs builds it into backend/dist) and the examples, into dist/. */
function copyPayload() {
    const wheels = existsSync(join(repo, 'backend/dist'))
        ? readdirSync(join(repo, 'backend/dist')).filter(f => /^chainlab_backend-.*\.whl$/.test(f))
        : [];
    if (wheels.length !== 1)
        throw new Error(
            `expected one backend wheel in backend/dist, found ${wheels.length}: run node scripts/setup.mjs`,
        );
    rmSync(join(dist, 'backend'), { recursive: true, force: true });
    mkdirSync(join(dist, 'backend'), { recursive: true });
    copyFileSync(join(repo, 'backend/dist', wheels[0]), join(dist, 'backend', wheels[0]));
    mkdirSync(join(dist, 'examples'), { recursive: true });
    for (const [name, from] of Object.entries(EXAMPLES))
        copyFileSync(need(join(repo, from), 'a sample the example workspace ships'), join(dist, 'examples', name));
}

export async function buildExtension() {
    mkdirSync(join(dist, 'diagram'), { recursive: true });
    await esbuild.build({
        absWorkingDir: root,
        entryPoints: { extension: join(root, 'src/extension.ts') },
        outdir: dist,
        outExtension: { '.js': '.cjs' },
        bundle: true,
        platform: 'node',
        format: 'cjs',
        target: 'node20',
        external: ['vscode'],
        sourcemap: true,
        logLevel: 'warning',
    });
    await buildPlotWebview();
    // the server and its ELK layout thread
    for (const file of ['server.cjs', 'elk-worker.cjs'])
        copyFileSync(
            need(join(repo, 'language/dist', file), 'build the language first (node language/esbuild.mjs)'),
            join(dist, file),
        );
    for (const file of ['webview.js', 'webview.css']) {
        copyFileSync(
            need(join(repo, 'diagram/dist', file), 'bundle the diagram first (node diagram/esbuild.mjs)'),
            join(dist, 'diagram', file),
        );
    }
    copyPayload();
    // the repository's licence, where vsce and the marketplaces look for it
    copyFileSync(join(repo, 'LICENSE'), join(root, 'LICENSE'));
    mkdirSync(join(root, 'syntaxes'), { recursive: true });
    need(join(repo, 'language/syntaxes/chain.tmLanguage.json'), 'run langium generate in language/');
    // Langium's grammar, with keywords that are names too (`x`, `s`, `in` …) highlighted only in their places
    const { tunedTextMateGrammar } = await import('../language/textmate.mjs');
    writeFileSync(
        join(root, 'syntaxes/chain.tmLanguage.json'),
        JSON.stringify(await tunedTextMateGrammar(), null, 2) + '\n',
    );
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
    const started = Date.now();
    if (process.argv[2] === 'report') {
        await buildReportPage();
        console.log(`esbuild: ${reportResources} in ${Date.now() - started} ms`);
    } else {
        await buildExtension();
        console.log(`esbuild: extension/dist in ${Date.now() - started} ms`);
    }
}
