#!/usr/bin/env node
/**
 * Diagram speed over the language server protocol (targets: a 200-box chain, first diagram < 1.5 s, text
 * change → updated diagram < 500 ms). Spawns the bundled server (language/dist/server.cjs), opens a
 * generated 200-box chain, requests the box-chain diagram as sprotty-vscode does (server-side ELK layout),
 * then edits the text N times and times each updateModel. Prints medians and ratios to the anchors.
 *
 *   node bench/ide/bench-diagram.mjs [--boxes 200] [--edits 10]
 */
import { spawn } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const require = createRequire(join(dirname(fileURLToPath(import.meta.url)), '..', '..', 'language', 'package.json'));
const rpc = require('vscode-languageserver/node.js');
const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const arg = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const boxes = arg('--boxes', 200),
    edits = arg('--edits', 10);
const ANCHOR_FIRST_MS = 1500,
    ANCHOR_UPDATE_MS = 500;

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

const server = spawn(process.execPath, [join(root, 'language', 'dist', 'server.cjs'), '--stdio'], { stdio: 'pipe' });
const connection = rpc.createProtocolConnection(
    new rpc.StreamMessageReader(server.stdout),
    new rpc.StreamMessageWriter(server.stdin),
);
const accept = new rpc.NotificationType('diagram/accept');
const waiting = [];
connection.onNotification(accept, message => {
    const now = performance.now();
    for (const w of waiting.splice(0)) w(message.action, now);
});
connection.listen();
const next = kind =>
    new Promise(resolve =>
        waiting.push(function handler(action, at) {
            if (action.kind === kind) resolve({ action, at });
            else waiting.push(handler);
        }),
    );

await connection.sendRequest(rpc.InitializeRequest.type, {
    processId: process.pid,
    rootUri: null,
    workspaceFolders: null,
    capabilities: {},
});
await connection.sendNotification(rpc.InitializedNotification.type, {});
const uri = 'file:///bench/big.chain';
let version = 1;
const t0 = performance.now();
await connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
    textDocument: { uri, languageId: 'chain', version: version++, text: chainText(boxes, '0.1') },
});
const setModel = next('setModel');
await connection.sendNotification(accept, {
    clientId: 'bench',
    action: {
        kind: 'requestModel',
        requestId: 'r1',
        options: { sourceUri: uri, diagramType: 'chainlab-chain', needsClientLayout: false, needsServerLayout: true },
    },
});
const first = await setModel;
const firstMs = first.at - t0;
const nodes = JSON.stringify(first.action.newRoot).split('"node:box"').length - 1;
const updates = [];
for (let i = 0; i < edits; i++) {
    const update = next('updateModel');
    const start = performance.now();
    await connection.sendNotification(rpc.DidChangeTextDocumentNotification.type, {
        textDocument: { uri, version: version++ },
        contentChanges: [{ text: chainText(boxes, (0.1 + (i + 1) / 100).toFixed(2)) }],
    });
    const { at } = await update;
    updates.push(at - start);
}
updates.sort((a, b) => a - b);
const median = updates[Math.floor(updates.length / 2)];
console.log(`${boxes}-box chain (${nodes} box nodes) over LSP, server-side ELK layout`);
console.log(
    `first diagram (open → setModel): ${firstMs.toFixed(0)} ms   anchor ${ANCHOR_FIRST_MS} ms   ratio ${(firstMs / ANCHOR_FIRST_MS).toFixed(2)}`,
);
console.log(
    `text change → updateModel: median ${median.toFixed(0)} ms (min ${updates[0].toFixed(0)}, max ${updates[updates.length - 1].toFixed(0)}, ${edits} edits)   anchor ${ANCHOR_UPDATE_MS} ms   ratio ${(median / ANCHOR_UPDATE_MS).toFixed(2)}`,
);
connection.dispose();
server.kill();
