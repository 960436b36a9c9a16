/**
 * The layout cache: a graph that differs only in label texts gets the drawing ELK made for it before, without
 * running ELK; any change ELK reads (a node, a size, an edge, the direction) gets a new layout.
 */
import { describe, expect, test } from 'vitest';
import type { SGraph, SLabel, SNode } from 'sprotty-protocol';
import { CachedElkLayoutEngine } from '../../src/diagram-server/cached-elk-layout.js';
import { ChainlabLayoutConfigurator } from '../../src/diagram-server/chainlab-layout.js';
import { watchedElkFactory } from './watched-elk.js';

function chain(costs: string[], width = 90): SGraph {
    const boxes: SNode[] = costs.map((cost, i) => ({
        type: 'node:box',
        id: `b${i}`,
        size: { width, height: 40 },
        children: [{ type: 'label:text', id: `b${i}-cost`, text: cost, size: { width: 50, height: 14 } }],
    }));
    const edges = costs
        .slice(1)
        .map((_, i) => ({ type: 'edge', id: `e${i}`, sourceId: `b${i}`, targetId: `b${i + 1}` }));
    return { type: 'graph', id: 'g', children: [...boxes, ...edges] };
}

/** An engine that counts how often ELK lays out the drawing itself (not the node shapes it learns on the way). */
function countingEngine(): { engine: CachedElkLayoutEngine; runs: () => number } {
    let runs = 0;
    const factory = watchedElkFactory(graph => {
        if (graph.id === 'g') runs++;
    });
    return {
        engine: new CachedElkLayoutEngine(factory, new ChainlabLayoutConfigurator()),
        runs: () => runs,
    };
}

const positions = (graph: SGraph) => graph.children.map(c => JSON.stringify((c as SNode).position ?? null));

describe('the layout cache', () => {
    test('new label texts reuse the drawing; the texts themselves are the new ones', async () => {
        const { engine, runs } = countingEngine();
        const first = await engine.layout(chain(['0.1 ms', '0.2 ms', '0.3 ms']));
        const second = await engine.layout(chain(['0.4 ms', '0.5 ms', '0.6 ms']));
        expect(runs()).toBe(1);
        expect(positions(second)).toEqual(positions(first));
        expect(((second.children[0] as SNode).children![0] as SLabel).text).toBe('0.4 ms');
    });

    test('a box more, another size or another direction is laid out anew', async () => {
        const { engine, runs } = countingEngine();
        await engine.layout(chain(['1', '2', '3']));
        await engine.layout(chain(['1', '2', '3', '4']));
        await engine.layout(chain(['1', '2', '3'], 140));
        const wide = { ...chain(['1', '2', '3']), viewport: { width: 1600, height: 900 } };
        await engine.layout(wide);
        expect(runs()).toBe(4);
        await engine.layout(chain(['7', '8', '9'])); // the first drawing is still known
        expect(runs()).toBe(4);
    });

    test('a layout asked for while ELK makes the same one waits for it', async () => {
        const { engine, runs } = countingEngine();
        const [first, second] = await Promise.all([
            engine.layout(chain(['1', '2', '3'])),
            engine.layout(chain(['4', '5', '6'])),
        ]);
        expect(runs()).toBe(1);
        expect(positions(second)).toEqual(positions(first));
        await engine.layout(chain(['1', '2'])); // a finished layout is not waited for again
        expect(runs()).toBe(2);
    });
});
