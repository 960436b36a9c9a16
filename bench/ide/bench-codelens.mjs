#!/usr/bin/env node
/**
 * Language server start → first CodeLens (issue #16: CodeLens within 2 s of opening a file after a window
 * reload). Spawns the bundled server (language/dist/server.cjs) as VS Code does (stdio, a workspace folder),
 * opens a file right after `initialized` and asks for its CodeLens at once, the way the editor does after a
 * reload. Prints the median of N fresh server starts, for samples/xray.chain and a generated 200-box chain,
 * split into spawn → initialize answered and initialize → CodeLens answered.
 *
 *   node bench/ide/bench-codelens.mjs [--runs 7] [--server path/to/server.cjs]
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const rpc = createRequire(join(root, 'language', 'package.json'))('vscode-languageserver/node.js');
const option = (name, fallback) => {
    const i = process.argv.indexOf(name);
    return i > 0 ? process.argv[i + 1] : fallback;
};
const ANCHOR_MS = 2000;

/** A chain of `n` boxes: a source, n-2 gains in a row, a sink (as bench-diagram.mjs). */
export function chainText(n) {
    const lines = [
        'platform P { cores 4 }',
        'image F 256 x 256 of u16',
        'box Src { out o: F source period 40 ms }',
        'box Gain { in i: F out o: F kernel gain(1.5) split rows depends pointwise cost 0.1 ms }',
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

/**
 * One fresh server: spawn, initialize (with `workspace` as its folder), open `file`, ask for its CodeLens.
 * Resolves the times in ms from the spawn: { initialized, codeLens, lenses }.
 */
export async function firstCodeLens(server, workspace, file) {
    const t0 = performance.now();
    const child = spawn(process.execPath, [server, '--stdio'], { stdio: 'pipe' });
    let stderr = '';
    child.stderr.on('data', chunk => {
        stderr += String(chunk);
    });
    // A server that dies answers nothing: fail instead of waiting for ever.
    const died = new Promise((_, reject) =>
        child.once('exit', (code, signal) => reject(new Error(`the server exited (${code ?? signal}): ${stderr}`))),
    );
    died.catch(() => undefined);
    const connection = rpc.createProtocolConnection(
        new rpc.StreamMessageReader(child.stdout),
        new rpc.StreamMessageWriter(child.stdin),
    );
    connection.onRequest('workspace/configuration', params => params.items.map(() => null));
    connection.onRequest('client/registerCapability', () => null);
    connection.onNotification(() => undefined);
    connection.listen();
    try {
        const uri = pathToFileURL(file).href;
        const folder = pathToFileURL(workspace).href;
        await Promise.race([
            died,
            connection.sendRequest(rpc.InitializeRequest.type, {
                processId: process.pid,
                rootUri: folder,
                workspaceFolders: [{ uri: folder, name: 'bench' }],
                capabilities: { workspace: { configuration: true, workspaceFolders: true } },
            }),
        ]);
        const initialized = performance.now() - t0;
        await connection.sendNotification(rpc.InitializedNotification.type, {});
        await connection.sendNotification(rpc.DidOpenTextDocumentNotification.type, {
            textDocument: { uri, languageId: 'chain', version: 1, text: readFileSync(file, 'utf-8') },
        });
        const lenses = await Promise.race([
            died,
            connection.sendRequest(rpc.CodeLensRequest.type, { textDocument: { uri } }),
        ]);
        return { initialized, codeLens: performance.now() - t0, lenses: lenses?.length ?? 0 };
    } finally {
        connection.dispose();
        const exited =
            child.exitCode === null && child.signalCode === null
                ? new Promise(resolve => child.once('exit', resolve))
                : Promise.resolve();
        child.kill();
        const stuck = setTimeout(() => child.kill('SIGKILL'), 2000);
        await exited;
        clearTimeout(stuck);
    }
}

const median = values => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
    const runs = Number(option('--runs', 7));
    const server = option('--server', join(root, 'language', 'dist', 'server.cjs'));
    const scratch = mkdtempSync(join(tmpdir(), 'chainlab-codelens-'));
    writeFileSync(join(scratch, 'big.chain'), chainText(200));
    const cases = [
        ['samples/xray.chain (workspace: samples/)', join(root, 'samples'), join(root, 'samples', 'xray.chain')],
        ['200-box chain (workspace: the file alone)', scratch, join(scratch, 'big.chain')],
    ];
    console.log(
        `language server start → first CodeLens, median of ${runs} fresh starts (${server.replace(root + '/', '')})`,
    );
    for (const [name, workspace, file] of cases) {
        const times = [];
        for (let i = 0; i < runs; i++) times.push(await firstCodeLens(server, workspace, file));
        const first = median(times.map(t => t.codeLens));
        console.log(
            `${name}: ${first.toFixed(0)} ms (initialize answered ${median(times.map(t => t.initialized)).toFixed(0)} ms, then CodeLens ${(first - median(times.map(t => t.initialized))).toFixed(0)} ms; ${times[0].lenses} lenses; min ${Math.min(...times.map(t => t.codeLens)).toFixed(0)}, max ${Math.max(...times.map(t => t.codeLens)).toFixed(0)})   anchor ${ANCHOR_MS} ms   ratio ${(first / ANCHOR_MS).toFixed(2)}`,
        );
    }
    rmSync(scratch, { recursive: true, force: true });
    process.exit(0); // a killed server's pipe has been seen to keep the event loop alive
}
