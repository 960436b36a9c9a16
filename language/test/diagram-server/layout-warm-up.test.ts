/**
 * ELK's warm-ups: the small one at the start and the larger one once the editor is quiet. They compile ELK's code
 * and leave no drawing behind (in memory or on disk); the larger one waits for quiet, runs one long chain at a
 * time, and ends when a large real diagram has done its work.
 */
import { afterEach, beforeEach, describe, expect, test } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { SGraph, SNode } from 'sprotty-protocol';
import { ChainlabLayoutEngine } from '../../src/diagram-server/chainlab-layout.js';
import { LayoutStore } from '../../src/diagram-server/layout-store.js';
import { watchedElkFactory } from './watched-elk.js';

/** ELK's layouts of whole graphs (not the node shapes it learns on the way): which graph, how many boxes, when. */
interface Run {
    id: string;
    boxes: number;
    at: number;
}

function countingEngine(store?: LayoutStore): { engine: ChainlabLayoutEngine; runs: Run[] } {
    const runs: Run[] = [];
    const factory = watchedElkFactory(graph => {
        if (graph.id === 'g' || graph.id === 'warm-up')
            runs.push({ id: graph.id, boxes: graph.children?.length ?? 0, at: Date.now() });
    });
    return { engine: new ChainlabLayoutEngine(factory, store), runs };
}

function chain(boxes: number): SGraph {
    const nodes: SNode[] = Array.from({ length: boxes }, (_, i) => ({
        type: 'node:box',
        id: `b${i}`,
        size: { width: 90, height: 40 },
        children: [],
    }));
    const edges = nodes
        .slice(1)
        .map((_, i) => ({ type: 'edge', id: `e${i}`, sourceId: `b${i}`, targetId: `b${i + 1}` }));
    return { type: 'graph', id: 'g', children: [...nodes, ...edges] };
}

let dir: string;
beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'chainlab-warm-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

describe("ELK's warm-ups", () => {
    test('the small warm-up and the larger one lay out chains and keep none of their drawings', async () => {
        const { engine, runs } = countingEngine(new LayoutStore(dir, 'elk'));
        await engine.warmUp();
        await engine.warmUpForLargeGraphs(20);
        expect(runs.map(r => `${r.id}:${r.boxes}`)).toEqual(['warm-up:12', 'warm-up:60', 'warm-up:60', 'warm-up:60']);
        expect(readdirSync(dir)).toEqual([]);
        await engine.layout(chain(5));
        expect(runs.filter(r => r.id === 'g')).toHaveLength(1);
    }, 60_000);

    test('the larger warm-up starts only once no diagram has been laid out for the quiet time', async () => {
        const { engine, runs } = countingEngine();
        await engine.layout(chain(4));
        const warming = engine.warmUpForLargeGraphs(400);
        await new Promise(resolve => setTimeout(resolve, 150));
        await engine.layout(chain(6)); // a diagram asked for meanwhile: the quiet starts again
        const lastDiagram = runs.at(-1)!.at;
        await warming;
        const warmUps = runs.filter(r => r.id === 'warm-up');
        expect(warmUps).toHaveLength(3);
        expect(warmUps[0].at - lastDiagram).toBeGreaterThanOrEqual(390);
    }, 60_000);

    test('a large real diagram ends the larger warm-up: ELK is warm for large graphs already', async () => {
        const { engine, runs } = countingEngine();
        await engine.layout(chain(120));
        await engine.warmUpForLargeGraphs(10);
        expect(runs.filter(r => r.id === 'warm-up')).toEqual([]);
    }, 60_000);
});
