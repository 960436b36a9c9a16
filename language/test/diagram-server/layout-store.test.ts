/**
 * Drawings kept on disk: a new server process (a new engine) with the same store draws a known graph without ELK
 * and puts every node where ELK put it; a file that is damaged, another ELK, an unwritable folder or a full store
 * cost a layout, never a diagram.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { chmodSync, mkdtempSync, readdirSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { tmpdir } from 'node:os';
import { gzipSync } from 'node:zlib';
import { join } from 'node:path';
import type { SGraph, SNode } from 'sprotty-protocol';
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import { CachedElkLayoutEngine } from '../../src/diagram-server/cached-elk-layout.js';
import { ChainlabLayoutConfigurator } from '../../src/diagram-server/chainlab-layout.js';
import { LayoutStore, layoutStoreFromEnv } from '../../src/diagram-server/layout-store.js';
import { watchedElkFactory } from './watched-elk.js';

function chain(boxes: number): SGraph {
    const nodes: SNode[] = Array.from({ length: boxes }, (_, i) => ({
        type: 'node:box',
        id: `b${i}`,
        size: { width: 90 + (i % 3) * 20, height: 40 },
        children: [{ type: 'label:heading', id: `b${i}.name`, text: `b${i}`, size: { width: 30, height: 14 } }],
    }));
    const edges = nodes
        .slice(1)
        .map((_, i) => ({ type: 'edge', id: `e${i}`, sourceId: `b${i}`, targetId: `b${i + 1}` }));
    return { type: 'graph', id: 'g', children: [...nodes, ...edges] };
}

/** A new engine over `store`, as a new server process makes, counting ELK's layouts of the drawing itself. */
function engineOver(store: LayoutStore | undefined): { engine: CachedElkLayoutEngine; runs: () => number } {
    let runs = 0;
    const factory = watchedElkFactory(graph => {
        if (graph.id === 'g') runs++;
    });
    return { engine: new CachedElkLayoutEngine(factory, new ChainlabLayoutConfigurator(), store), runs: () => runs };
}

/** Text gzip cannot shrink much: a drawing of a known size on disk. */
const randomText = (bytes: number) => randomBytes(bytes / 2).toString('hex');

/** Keeps `drawing` and dates its file `minutesAgo` (its last use), as if it had been written then. */
function putUsed(store: LayoutStore, key: string, drawing: ElkNode, minutesAgo: number): void {
    const before = new Set(readdirSync(store.dir));
    store.put(key, drawing);
    const past = new Date(Date.now() - minutesAgo * 60_000);
    for (const name of readdirSync(store.dir)) if (!before.has(name)) utimesSync(join(store.dir, name), past, past);
}

const placed = (graph: SGraph) =>
    graph.children.map(c => `${c.id}:${JSON.stringify([(c as SNode).position, (c as SNode).size])}`);
const drawings = (dir: string) => readdirSync(dir).filter(n => n.endsWith('.json.gz'));

let dir: string;
beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chainlab-layouts-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe('drawings kept between server processes', () => {
    test('a new process draws a known graph without ELK, every node where ELK put it', async () => {
        const first = engineOver(new LayoutStore(dir, 'elk-a'));
        const drawn = placed(await first.engine.layout(chain(30)));
        expect(first.runs()).toBe(1);
        expect(drawings(dir)).toHaveLength(1);
        expect(readdirSync(dir).some(n => n.endsWith('.part'))).toBe(false);

        const next = engineOver(new LayoutStore(dir, 'elk-a'));
        expect(placed(await next.engine.layout(chain(30)))).toEqual(drawn);
        expect(next.runs()).toBe(0);
        // another graph is ELK's again
        await next.engine.layout(chain(31));
        expect(next.runs()).toBe(1);
    });

    test("another ELK's drawings are not used", async () => {
        await engineOver(new LayoutStore(dir, 'elk-a')).engine.layout(chain(12));
        const other = engineOver(new LayoutStore(dir, 'elk-b'));
        await other.engine.layout(chain(12));
        expect(other.runs()).toBe(1);
    });

    test('a damaged drawing is drawn again and replaced', async () => {
        const drawn = placed(await engineOver(new LayoutStore(dir, 'elk-a')).engine.layout(chain(12)));
        const [file] = drawings(dir);
        const damaged = ['{"children": [{"id": "b0", "x"', '{}', 'null'].map(text => gzipSync(text));
        for (const damage of [...damaged, Buffer.from('{"children": []} not gzipped'), Buffer.alloc(0)]) {
            writeFileSync(join(dir, file), damage);
            const next = engineOver(new LayoutStore(dir, 'elk-a'));
            expect(placed(await next.engine.layout(chain(12)))).toEqual(drawn);
            expect(next.runs()).toBe(1);
        }
        const last = engineOver(new LayoutStore(dir, 'elk-a'));
        await last.engine.layout(chain(12));
        expect(last.runs()).toBe(0); // the last one wrote it whole again
    });

    test('a folder that cannot be written costs a layout, not the diagram', async () => {
        const blocked = join(dir, 'file-not-folder');
        writeFileSync(blocked, '');
        const engine = engineOver(new LayoutStore(join(blocked, 'layouts'), 'elk-a'));
        expect(placed(await engine.engine.layout(chain(5)))).toHaveLength(9);
        if (process.getuid?.() !== 0) {
            chmodSync(dir, 0o500); // root writes anyway
            const readOnly = engineOver(new LayoutStore(dir, 'elk-a'));
            expect(placed(await readOnly.engine.layout(chain(6)))).toHaveLength(11);
            chmodSync(dir, 0o700);
        }
    });

    test('the least recently used drawings go beyond the number kept', () => {
        const store = new LayoutStore(dir, 'elk-a', 3);
        for (let i = 0; i < 5; i++) putUsed(store, `graph ${i}`, { id: `g${i}`, children: [] }, 10 - i);
        expect(store.get('graph 0')?.id).toBe('g0'); // read now: used last
        store.prune();
        expect(drawings(dir)).toHaveLength(3);
        expect(store.get('graph 0')?.id).toBe('g0');
        expect(store.get('graph 4')?.id).toBe('g4');
        expect(store.get('graph 3')?.id).toBe('g3');
        expect(store.get('graph 1')).toBeUndefined();
    });

    test('the least recently used drawings go beyond the bytes kept', () => {
        const store = new LayoutStore(dir, 'elk-a', 200, 3000);
        const big = (i: number): ElkNode => ({ id: `g${i}`, children: [], layoutOptions: { noise: randomText(2000) } });
        for (let i = 0; i < 4; i++) putUsed(store, `graph ${i}`, big(i), 10 - i);
        expect(store.get('graph 0')?.id).toBe('g0'); // read now: used last
        store.prune();
        const sizes = drawings(dir).map(name => statSync(join(dir, name)).size);
        expect(sizes.length).toBe(2); // ~1.1 KB each gzipped
        expect(sizes.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3000);
        expect(store.get('graph 0')?.id).toBe('g0');
        expect(store.get('graph 3')?.id).toBe('g3');
        expect(store.get('graph 2')).toBeUndefined();
    });

    test('the server keeps drawings only where the editor asked, for the ELK it runs', () => {
        const elkFile = join(dir, 'elk-worker.cjs');
        writeFileSync(elkFile, 'elk code');
        expect(layoutStoreFromEnv(elkFile, {})).toBeUndefined();
        expect(layoutStoreFromEnv(join(dir, 'missing.cjs'), { CHAINLAB_LAYOUT_STORE: dir })).toBeUndefined();
        const store = layoutStoreFromEnv(elkFile, { CHAINLAB_LAYOUT_STORE: join(dir, 'layouts') })!;
        store.put('k', { id: 'g', children: [] });
        writeFileSync(elkFile, 'new elk code');
        expect(layoutStoreFromEnv(elkFile, { CHAINLAB_LAYOUT_STORE: join(dir, 'layouts') })!.get('k')).toBeUndefined();
        expect(store.get('k')?.id).toBe('g');
    });
});
