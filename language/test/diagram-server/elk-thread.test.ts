/**
 * ELK in the language server's worker thread (dist/elk-worker.cjs, built by esbuild.mjs): the same drawing as
 * ELK in the server's own thread, ELK's errors as rejected layouts, and a thread that dies failing its layouts
 * instead of leaving them waiting, then started again for the next one.
 */
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SGraph, SNode } from 'sprotty-protocol';
import { ChainlabLayoutEngine } from '../../src/diagram-server/chainlab-layout.js';
import { edge, label, port, T, type ChainlabGraph } from '../../src/diagram-server/diagram-elements.js';
import { elkThreadFactory } from '../../src/diagram-server/elk-thread.js';
import { ensureServerBundle, languageDir } from '../lsp/server-bundle.js';

const workerFile = join(languageDir, 'dist', 'elk-worker.cjs');
let scratch: string;

beforeAll(async () => {
    await ensureServerBundle();
    scratch = mkdtempSync(join(tmpdir(), 'chainlab-elk-thread-'));
}, 120_000);
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function chain(boxes: number): ChainlabGraph {
    const children: SGraph['children'] = [];
    for (let i = 0; i < boxes; i++)
        children.push({
            type: T.box,
            id: `b${i}`,
            size: { width: 120, height: 50 },
            children: [
                label(`b${i}.name`, T.heading, `b${i}`),
                port(`b${i}.i`, T.inPort, 'i'),
                port(`b${i}.o`, T.outPort, 'o'),
            ],
        } as SNode);
    for (let i = 1; i < boxes; i++) children.push(edge(`e${i}`, T.edge, `b${i - 1}.o`, `b${i}.i`));
    return { type: T.graph, id: 'g', view: 'chain', children };
}

const drawing = (graph: SGraph) =>
    graph.children.map(c => ({ id: c.id, at: (c as SNode).position, size: (c as SNode).size }));

/** A worker script that exits at once the first time it is started (a crash), and is ELK's worker after. */
function crashOnceWorker(): string {
    const marker = join(scratch, 'crashed');
    const file = join(scratch, 'crash-once.cjs');
    writeFileSync(
        file,
        `const fs = require('node:fs');\n` +
            `if (!fs.existsSync(${JSON.stringify(marker)})) { fs.writeFileSync(${JSON.stringify(marker)}, ''); ` +
            `require('node:worker_threads').parentPort.once('message', () => process.exit(3)); }\n` +
            `else require(${JSON.stringify(workerFile)});\n`,
    );
    return file;
}

describe('ELK in a worker thread', () => {
    test('draws what ELK in the server thread draws', async () => {
        const inThread = await new ChainlabLayoutEngine(elkThreadFactory(workerFile)).layout(chain(8));
        const here = await new ChainlabLayoutEngine().layout(chain(8));
        expect(drawing(inThread as SGraph)).toEqual(drawing(here as SGraph));
        const boxes = (inThread as SGraph).children.filter(c => c.type === T.box);
        expect(boxes.every(c => (c as SNode).position !== undefined)).toBe(true);
    });

    test('an error of ELK rejects the layout with its message, and the thread goes on', async () => {
        const elk = elkThreadFactory(workerFile)();
        const dangling = {
            id: 'g',
            children: [{ id: 'a' }],
            edges: [{ id: 'e', sources: ['a'], targets: ['nowhere'] }],
        };
        await expect(elk.layout(dangling)).rejects.toThrow(/nowhere/);
        await expect(elk.layout({ id: 'g', children: [{ id: 'a', width: 10, height: 10 }] })).resolves.toBeDefined();
    });

    test('a thread that dies fails its layout in words, and the next layout starts a new one', async () => {
        const engine = new ChainlabLayoutEngine(elkThreadFactory(crashOnceWorker()));
        await expect(engine.layout(chain(3))).rejects.toThrow('the layout thread stopped: it exited with code 3');
        const again = (await engine.layout(chain(5))) as SGraph;
        expect(again.children.filter(c => (c as SNode).position).length).toBeGreaterThanOrEqual(5);
    });

    test('the warm-up lays out a chain in the thread', async () => {
        await expect(new ChainlabLayoutEngine(elkThreadFactory(workerFile)).warmUp()).resolves.toBeUndefined();
    });
});
