/**
 * Node shapes laid out once: the drawing is the one ELK makes with its own micro layout per node (same node
 * sizes, ports, labels and edges) for every sample's box chain and PTTS in tall, wide and short panels, and a
 * shape ELK has placed once is not laid out again.
 */
import { join } from 'node:path';
import { describe, expect, test } from 'vitest';
import type { ELK, ElkNode } from 'elkjs/lib/elk-api.js';
import { SModelIndex, type SGraph } from 'sprotty-protocol';
import { ElkLayoutEngine } from 'sprotty-elk/lib/elk-layout.js';
import { ChainlabLayoutConfigurator, elkFactory } from '../../src/diagram-server/chainlab-layout.js';
import { NodeShapes, placesNodes, shapeKey } from '../../src/diagram-server/node-shapes.js';
import { isChain, isPtts } from '../../src/generated/ast.js';
import { diagram, diagramServices, load, repo, sampleFiles } from './diagram-helpers.js';

const services = diagramServices({ plan: () => Promise.reject(new Error('no plans in this test')) });
const PANELS = {
    tall: { width: 800, height: 1000 },
    wide: { width: 1600, height: 900 },
    short: { width: 1600, height: 384 },
};

/** The ELK graph the server sends for a diagram: the configurator's options, sprotty-elk's transformation. */
class ElkGraphs extends ElkLayoutEngine {
    constructor() {
        super(elkFactory, undefined, new ChainlabLayoutConfigurator());
    }

    of(graph: SGraph): ElkNode {
        const index = new SModelIndex();
        index.add(graph);
        return this.transformGraph(graph, index);
    }
}

/**
 * Without wrapping: the wrapping cuts a chain by the node sizes it sees before the micro layout, which are the
 * final ones only when the shapes come first (the drawing's aspect ratio then comes closer to the panel's).
 */
function unwrapped(graph: ElkNode): ElkNode {
    const options = { ...graph.layoutOptions };
    delete options['org.eclipse.elk.layered.wrapping.strategy'];
    return { ...structuredClone(graph), layoutOptions: options };
}

/** Every position and size of the drawing, by element id. */
function geometry(result: ElkNode): Record<string, unknown> {
    const out: Record<string, unknown> = { root: [result.width, result.height] };
    const shape = (s: { id?: string; x?: number; y?: number; width?: number; height?: number }) =>
        (out[s.id ?? '?'] = [s.x, s.y, s.width, s.height]);
    for (const node of result.children ?? []) {
        shape(node);
        for (const label of node.labels ?? []) shape(label);
        for (const port of node.ports ?? []) {
            shape(port);
            for (const label of port.labels ?? []) shape(label);
        }
    }
    for (const edge of result.edges ?? []) {
        out[edge.id] = edge.sections?.map(s => [s.startPoint, s.bendPoints, s.endPoint]);
        for (const label of edge.labels ?? []) shape(label);
    }
    return out;
}

async function withShapes(elk: ELK, shapes: NodeShapes, graph: ElkNode): Promise<ElkNode> {
    const placed = await shapes.place(graph);
    return placed.restore(await elk.layout(placed.graph));
}

async function sampleGraphs(): Promise<Array<[string, SGraph]>> {
    const graphs: Array<[string, SGraph]> = [];
    for (const path of sampleFiles()) {
        const document = await load(services, path);
        const elements = document.parseResult.value.elements;
        const name = path.split('/').slice(-2).join('/');
        for (const [panel, viewport] of Object.entries(PANELS)) {
            for (const chain of elements.filter(isChain))
                graphs.push([
                    `${name} chain ${chain.name} ${panel}`,
                    await diagram(services, document, { view: 'chain', element: chain.name, viewport }, false),
                ]);
            for (const ptts of elements.filter(isPtts))
                graphs.push([
                    `${name} ptts ${ptts.name} ${panel}`,
                    await diagram(services, document, { view: 'ptts', element: ptts.name, viewport }, false),
                ]);
        }
    }
    return graphs;
}

describe('node shapes laid out once', () => {
    test('every sample diagram is drawn as ELK draws it with a micro layout per node', async () => {
        const graphs = new ElkGraphs();
        const elk = elkFactory();
        const shapes = new NodeShapes(() => elk);
        const samples = await sampleGraphs();
        expect(samples.length).toBeGreaterThan(20);
        const differing: string[] = [];
        for (const [name, sgraph] of samples) {
            const graph = unwrapped(graphs.of(sgraph));
            const own = geometry(await elk.layout(structuredClone(graph)));
            const shaped = geometry(await withShapes(elk, shapes, graph));
            expect(Object.keys(shaped).length, name).toBe(Object.keys(own).length);
            if (JSON.stringify(shaped) !== JSON.stringify(own)) differing.push(name);
        }
        expect(differing).toEqual([]);
    }, 120_000);

    test('placed from shapes: top-down drawings where most nodes share a shape', async () => {
        const graphs = new ElkGraphs();
        const document = await load(services, join(repo, 'diagram', 'test', 'fixtures', 'synth-200.chain'));
        const placed: Record<string, boolean> = {};
        for (const [panel, viewport] of Object.entries(PANELS))
            placed[panel] = placesNodes(
                graphs.of(await diagram(services, document, { view: 'chain', viewport }, false)),
            );
        expect(placed).toEqual({ tall: true, wide: false, short: true });
        // 21 shapes in 25 boxes: learning them costs more than it saves
        const [[, xray]] = (await sampleGraphs()).filter(([name]) => name === 'samples/xray.chain chain XRay tall');
        expect(placesNodes(graphs.of(xray))).toBe(false);
    }, 60_000);

    test('a shape is laid out once: a drawing of known shapes runs ELK only for the drawing', async () => {
        const graphs = new ElkGraphs();
        const elk = elkFactory();
        const runs: string[] = [];
        const counted: ELK = { ...elk, layout: (graph, options) => (runs.push(graph.id), elk.layout(graph, options)) };
        const shapes = new NodeShapes(() => counted);
        const [[, sgraph]] = (await sampleGraphs()).filter(([name]) => name.startsWith('samples/xray.chain chain'));
        const graph = graphs.of(sgraph);
        const distinct = new Set((graph.children ?? []).map(shapeKey)).size;
        expect(distinct).toBeLessThan(graph.children!.length);
        await withShapes(counted, shapes, graph);
        await withShapes(counted, shapes, graph);
        expect(runs).toEqual(['node-shapes', graph.id, graph.id]);
    }, 60_000);
});
