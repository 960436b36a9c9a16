#!/usr/bin/env node
/* global window, document, getComputedStyle, requestAnimationFrame -- page.evaluate functions run in the browser */
/**
 * Diagram speed as a user sees it (targets: open → first readable frame < 1 s, text change →
 * updated diagram < 300 ms), for samples/xray.chain and generated 200- and 500-box chains. Spawns the bundled
 * server (language/dist/server.cjs) and Debian's Chromium with the diagram webview bundle
 * (diagram/dist/standalone.js) in a half-width panel (800 × 1000), and measures:
 *
 *  - open → first readable frame: from didOpen + the model request (the page loads meanwhile, as a VS Code
 *    webview does) until the browser has painted the diagram at a zoom where 12 px labels are ≥ 11 px;
 *  - edit → updated diagram: from a didChange until the server's updateModel is rendered and painted;
 *  - reopen → first readable frame: the same opens in a new server process that finds ELK's drawings kept on
 *    disk by the first (CHAINLAB_LAYOUT_STORE, as the extension sets it), as after a window reload.
 *
 * Also prints the server-only times (open → setModel, change → updateModel), and the overview: after the
 * toolbar's *Fit*, its zoom, how many nodes lie inside the panel and how many visible labels overlap another.
 * Not a test: nothing fails.
 *
 * With --runs N the whole sequence runs N times (new servers, no kept drawings at the start of each) and the
 * medians are printed, with every pass's open and reopen: single opens on a 2-core machine vary by 20-40 %.
 *
 *   node bench/ide/bench-diagram.mjs [--boxes 200,500] [--edits 10] [--runs 1] [--server path/to/server.cjs]
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { createRequire } from 'node:module';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rpc = createRequire(join(root, 'language', 'package.json'))('vscode-languageserver/node.js');
const { chromium } = createRequire(join(root, 'diagram', 'package.json'))('playwright-core');
const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
};
const sizes = arg('--boxes', '200,500').split(',').map(Number),
    edits = Number(arg('--edits', 10)),
    runs = Math.max(1, Number(arg('--runs', 1)));
const TARGET_OPEN_MS = 1000,
    TARGET_EDIT_MS = 300;
const PANEL = { width: 800, height: 1000 },
    TOOLBAR = 36;
const READABLE_ZOOM = 11 / 12; // diagram/src/zoom.ts
const CHROMIUM = process.env.CHAINLAB_CHROMIUM ?? '/usr/bin/chromium';

function chainText(n, cost) {
    const lines = [
        'platform P { cores 4 }',
        'image F 256 x 256 of u16',
        'box Src { out o: F source period 40 ms }',
        `box Gain { in i: F out o: F kernel gain(1.5) split rows depends pointwise cost ${cost} ms }`,
        'box Sink { in i: F kernel sink split none }',
        'chain Big on P {',
        '    s: Src',
    ];
    for (let i = 1; i < n - 1; i++) lines.push(`    g${i}: Gain`);
    lines.push('    k: Sink', '    s.o -> g1.i');
    for (let i = 1; i < n - 2; i++) lines.push(`    g${i}.o -> g${i + 1}.i`);
    lines.push(`    g${n - 2}.o -> k.i`, '}', '');
    return lines.join('\n');
}

const xray = readFileSync(join(root, 'samples', 'xray.chain'), 'utf-8');
/** xray with its first cost changed: a real edit that changes a label (the layout stays). */
const xrayCost = i => xray.replace(/cost 0\.8 ms/, `cost ${(0.8 + (i + 1) / 1000).toFixed(3)} ms`);
/** xray with i + 1 storage boxes added, as the palette's "add box" does: a new drawing each time. */
const xrayAddBox = i =>
    xray.replace(
        /(chain XRay on LabPC \{\n)/,
        `$1${Array.from({ length: i + 1 }, (_, k) => `    added${k}: Storage\n`).join('')}`,
    );

for (const file of ['language/dist/server.cjs', 'diagram/dist/standalone.js'])
    if (!existsSync(join(root, file))) throw new Error(`${file} is missing: run node scripts/setup.mjs`);

const serverBundle = arg('--server', join(root, 'language', 'dist', 'server.cjs')); // another build, to compare
const layoutStore = mkdtempSync(join(tmpdir(), 'chainlab-bench-layouts-'));
const accept = new rpc.NotificationType('diagram/accept');
const waiting = [];
let server, connection;

/** A new server process, initialized, keeping ELK's drawings in `layoutStore` as the extension has it do. */
async function startServer() {
    server = spawn(process.execPath, [serverBundle, '--stdio'], {
        stdio: ['pipe', 'pipe', 'inherit'],
        env: { ...process.env, CHAINLAB_LAYOUT_STORE: layoutStore },
    });
    connection = rpc.createProtocolConnection(
        new rpc.StreamMessageReader(server.stdout),
        new rpc.StreamMessageWriter(server.stdin),
    );
    connection.onNotification(accept, message => {
        const now = performance.now();
        for (const w of waiting.splice(0)) w(message, now);
    });
    connection.listen();
    await connection.sendRequest(rpc.InitializeRequest.type, {
        processId: process.pid,
        rootUri: null,
        workspaceFolders: null,
        capabilities: {},
    });
    await connection.sendNotification(rpc.InitializedNotification.type, {});
}

function stopServer() {
    connection.dispose();
    server.kill();
}
const next = (clientId, kind) =>
    new Promise(resolve =>
        waiting.push(function handler(message, at) {
            if (message.clientId === clientId && message.action.kind === kind) resolve({ action: message.action, at });
            else waiting.push(handler);
        }),
    );

const browser = await chromium.launch({
    executablePath: CHROMIUM,
    args: ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
});
const dist = join(root, 'diagram', 'dist');
const html = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="${pathToFileURL(join(dist, 'standalone.css')).href}"></head>
<body class="vscode-light"><div id="toolbar"></div><div id="sprotty" style="width:100%;height:calc(100vh - ${TOOLBAR}px)"></div>
<script src="${pathToFileURL(join(dist, 'standalone.js')).href}"></script></body></html>`;
// a file page: only a file:// page may load the file:// bundle
const pageFile = join(mkdtempSync(join(tmpdir(), 'chainlab-bench-')), 'panel.html');
writeFileSync(pageFile, html);

/** Renders `model` in the page (show or update) and resolves once a frame with it is painted; returns the zoom
 * and the browser's own time from receiving the model to that frame. */
const render = (page, method, model) =>
    page.evaluate(
        async ([m, json]) => {
            const t0 = performance.now();
            await window.chainlabDiagram[m](JSON.parse(json));
            await new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)));
            const ms = performance.now() - t0;
            return { zoom: (await window.chainlabDiagram.viewport()).zoom, ms };
        },
        // as text, like a webview's postMessage; playwright's own argument serializer is several times slower
        [method, JSON.stringify(model)],
    );

/**
 * The toolbar's Fit, then: its zoom, the nodes drawn inside the panel (of the model's `total`: sprotty draws only
 * those in view), and the visible labels that overlap another.
 */
async function overview(page, total) {
    await page.click('button[data-control="fit"]');
    await page.evaluate(() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r))));
    const zoom = (await page.evaluate(() => window.chainlabDiagram.viewport())).zoom;
    const found = await page.evaluate(() => {
        const panel = document.querySelector('#sprotty svg').getBoundingClientRect();
        const nodes = [...document.querySelectorAll('svg.sprotty-graph > g > g.sprotty-node > rect.node-body')].map(n =>
            n.getBoundingClientRect(),
        );
        const inside = nodes.filter(
            r =>
                r.left >= panel.left - 0.5 &&
                r.top >= panel.top - 0.5 &&
                r.right <= panel.right + 0.5 &&
                r.bottom <= panel.bottom + 0.5,
        ).length;
        const labels = [...document.querySelectorAll('svg.sprotty-graph > g text')]
            .filter(t => getComputedStyle(t).display !== 'none')
            .map(t => t.getBoundingClientRect())
            .filter(r => r.width > 0 && r.height > 0);
        const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
        let overlapping = 0;
        for (let i = 0; i < labels.length; i++)
            if (labels.some((b, j) => j !== i && meets(labels[i], b))) overlapping++;
        return { inside, labels: labels.length, overlapping };
    });
    return { zoom, nodes: total, ...found };
}

async function measure(name, uri, text, editKinds) {
    const clientId = `bench-${name}`;
    const t0 = performance.now();
    // the webview is created and loads while the server works, as in VS Code
    const loaded = browser.newPage({ viewport: PANEL }).then(async page => {
        await page.goto(pathToFileURL(pageFile).toString());
        // the bundle runs before the load event that goto waits for (waitForFunction's polling added 70-380 ms)
        if (!(await page.evaluate(() => 'chainlabDiagram' in window)))
            throw new Error('the webview bundle did not start');
        return page;
    });
    await connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
        textDocument: { uri, languageId: 'chain', version: 1, text },
    });
    const setModel = next(clientId, 'setModel');
    await connection.sendNotification(accept, {
        clientId,
        action: {
            kind: 'requestModel',
            requestId: `${clientId}-1`,
            options: {
                sourceUri: uri,
                diagramType: 'chainlab-diagram',
                view: 'chain',
                viewport: { width: PANEL.width, height: PANEL.height - TOOLBAR },
                needsClientLayout: false,
                needsServerLayout: true,
            },
        },
    });
    const first = await setModel;
    const page = await loaded;
    const { zoom } = await render(page, 'show', first.action.newRoot);
    const openMs = performance.now() - t0;
    if (zoom < READABLE_ZOOM - 1e-6) throw new Error(`${name}: first frame at zoom ${zoom}, not readable`);
    const nodes = JSON.stringify(first.action.newRoot).split('"node:box"').length - 1;
    const fit = await overview(page, first.action.newRoot.children.filter(c => c.size && c.size.width > 0).length);
    const series = [];
    let version = 1;
    for (const [kind, edited] of Object.entries(editKinds)) {
        const server = [],
            shown = [],
            painted = [];
        for (let i = 0; i < edits; i++) {
            const update = next(clientId, 'updateModel');
            const start = performance.now();
            await connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
                textDocument: { uri, version: ++version },
                contentChanges: [{ text: edited(i) }],
            });
            const { action, at } = await update;
            server.push(at - start);
            painted.push((await render(page, 'update', action.newRoot)).ms);
            shown.push(performance.now() - start);
        }
        series.push({ kind, server, shown, painted });
    }
    await page.close();
    return { name, nodes, openMs, serverOpenMs: first.at - t0, zoom, fit, series };
}

const median = xs => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const range = xs => `min ${Math.min(...xs).toFixed(0)}, max ${Math.max(...xs).toFixed(0)}`;
const spread = xs => (xs.length > 1 ? ` (${xs.map(x => x.toFixed(0)).join(', ')})` : '');

/** One pass: a new server opens and edits each chain, then a new server reopens them (drawings kept on disk). */
async function onePass() {
    await startServer();
    // as in VS Code, the server has started before a diagram is asked for (a second, as the reopen below)
    await new Promise(resolve => setTimeout(resolve, 1000));
    const results = [
        await measure('xray', pathToFileURL(join(root, 'samples', 'xray.chain')).toString(), xray, {
            'a cost changed': xrayCost,
            'a box added': xrayAddBox,
        }),
    ];
    for (const boxes of sizes)
        results.push(
            await measure(`${boxes}-box`, `file:///bench/big-${boxes}.chain`, chainText(boxes, '0.1'), {
                'a cost changed': i => chainText(boxes, (0.1 + (i + 1) / 100).toFixed(2)),
                'a box added': i => chainText(boxes + i + 1, '0.1'),
            }),
        );
    // a window reload: a new server process (started a second before the diagram is asked for, as the browser's
    // start gave the first), a new webview; the first process kept ELK's drawings on disk
    stopServer();
    await startServer();
    await new Promise(resolve => setTimeout(resolve, 1000));
    for (const r of results) {
        const uri =
            r.name === 'xray'
                ? pathToFileURL(join(root, 'samples', 'xray.chain')).toString()
                : `file:///bench/big-${r.nodes}.chain`;
        const text = r.name === 'xray' ? xray : chainText(r.nodes, '0.1');
        r.reopened = await measure(`${r.name}-reopened`, uri, text, {});
    }
    stopServer();
    rmSync(layoutStore, { recursive: true, force: true }); // the next pass starts without drawings
    return results;
}

const passes = [];
for (let i = 0; i < runs; i++) passes.push(await onePass());
console.log(
    `diagram webview in Chromium (${PANEL.width}×${PANEL.height}), box-chain view, server-side ELK layout` +
        (runs > 1 ? `; ${runs} passes, each with new servers: medians (every pass in brackets)` : ''),
);
for (const [i, r] of passes[0].entries()) {
    const all = passes.map(pass => pass[i]);
    const open = all.map(x => x.openMs),
        reopen = all.map(x => x.reopened.openMs);
    console.log(`${r.name} (${r.nodes} box nodes)`);
    console.log(
        `  open → first readable frame: ${median(open).toFixed(0)} ms${spread(open)} (server setModel at ${median(all.map(x => x.serverOpenMs)).toFixed(0)} ms, zoom ${r.zoom.toFixed(2)})   target ${TARGET_OPEN_MS} ms   ratio ${(median(open) / TARGET_OPEN_MS).toFixed(2)}`,
    );
    console.log(
        `  reopen (new server, drawings kept) → first readable frame: ${median(reopen).toFixed(0)} ms${spread(reopen)} (server setModel at ${median(all.map(x => x.reopened.serverOpenMs)).toFixed(0)} ms)   target ${TARGET_OPEN_MS} ms   ratio ${(median(reopen) / TARGET_OPEN_MS).toFixed(2)}`,
    );
    const f = r.fit;
    console.log(
        `  Fit: zoom ${f.zoom.toFixed(3)}, ${f.inside} of ${f.nodes} nodes inside the panel, ${f.overlapping} of ${f.labels} visible labels overlap another   target all inside, 0 overlapping`,
    );
    for (const [k, e] of r.series.entries()) {
        const shown = all.flatMap(x => x.series[k].shown),
            server = all.flatMap(x => x.series[k].server),
            painted = all.flatMap(x => x.series[k].painted);
        console.log(
            `  edit (${e.kind}) → updated diagram: median ${median(shown).toFixed(0)} ms (${range(shown)}; server updateModel median ${median(server).toFixed(0)} ms, browser render median ${median(painted).toFixed(0)} ms; ${shown.length} edits)   target ${TARGET_EDIT_MS} ms   ratio ${(median(shown) / TARGET_EDIT_MS).toFixed(2)}`,
        );
    }
}
await browser.close();
rmSync(layoutStore, { recursive: true, force: true });
