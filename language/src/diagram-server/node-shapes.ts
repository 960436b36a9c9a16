/**
 * ELK's node micro layout (node sizes from labels and ports, label and port placement) done once per distinct
 * node shape instead of once per node and layout. A 200-box chain has 5-15 shapes (box type, name length), and the
 * micro layout with the labels' import was about a fifth of ELK's time on it. The layout proper then gets every node
 * at its final size with its ports at fixed positions and no labels, which ELK places exactly as before; the labels
 * are put back afterwards.
 */
import type { ELK, ElkLabel, ElkNode, ElkPort, LayoutOptions } from 'elkjs/lib/elk-api.js';

const ELK_ = 'org.eclipse.elk.';

/** Where ELK put a shape's parts: positions relative to the node, in the order of the node's labels and ports. */
interface NodeShape {
    width: number;
    height: number;
    labels: Array<[number, number]>;
    ports: Array<{ x: number; y: number; labels: Array<[number, number]> }>;
}

/** Node options read only by the micro layout: the placed node no longer needs them. */
const MICRO_LAYOUT_OPTIONS = [
    'portConstraints',
    'nodeLabels.placement',
    'portLabels.placement',
    'nodeSize.constraints',
    'nodeSize.minimum',
    'spacing.labelNode',
    'spacing.labelLabel',
    'spacing.portPort',
].map(name => ELK_ + name);

/** Graph options that concern the drawing as a whole, not one node: left out of the shapes' own layout. */
const WHOLE_GRAPH_OPTIONS = new Set(
    [
        'aspectRatio',
        'layered.wrapping.strategy',
        'layered.wrapping.additionalEdgeSpacing',
        'layered.wrapping.correctionFactor',
    ].map(name => ELK_ + name),
);

/**
 * Whether a graph's nodes are placed from their shapes: top-down drawings where most nodes share a shape. Learning a
 * shape costs about what ELK's own micro layout of a node does, plus an ELK run (the X-ray chain has 21 shapes in 25
 * boxes: its first drawing took 50-80 ms longer). In a left-to-right drawing the boxes' final widths move the cuts of
 * ELK's wrapping (the X-ray chain's rows in a wide panel came out 10 % wider), so ELK keeps sizing those nodes itself.
 */
export function placesNodes(graph: ElkNode): boolean {
    if (graph.layoutOptions?.[ELK_ + 'direction'] !== 'DOWN') return false;
    const leaves = (graph.children ?? []).filter(isLeaf);
    return new Set(leaves.map(shapeKey)).size * SHARED_SHAPES <= leaves.length;
}

const isLeaf = (node: ElkNode) => !node.children?.length;

/** Nodes per distinct shape, at least, for placing them from shapes to pay. */
const SHARED_SHAPES = 3;

/**
 * ELK's wrapping cuts a chain by the node sizes it sees when it runs. A placed top-down box comes to it at its final
 * size, about twice as tall as before its micro layout (its port labels inside above and below); this factor on the
 * aspect ratio keeps the columns ELK chose before: the same drawing of `chainlab synth` chains (200 and 500 boxes,
 * seeds 1-4: 7 of 8 the same, one 3 % smaller at *Fit*), while straight chains come out closer to the panel's shape
 * (500 boxes in a tall panel: *Fit* zoom 0.127 → 0.135).
 */
const WRAP_CORRECTION = 0.6;

/** Shapes kept across layouts: far more than the views of a few documents have. */
const KEPT_SHAPES = 5000;

/** Keys made once per node object: placesNodes and NodeShapes.place both ask. */
const keys = new WeakMap<ElkNode, string>();

/** Everything the micro layout reads of a node: its options, sizes and its labels' and ports' sizes and options. */
export function shapeKey(node: ElkNode): string {
    let key = keys.get(node);
    if (key === undefined) keys.set(node, (key = nodeShapeKey(node)));
    return key;
}

function nodeShapeKey(node: ElkNode): string {
    const sized = (l: ElkLabel) => [l.width, l.height, l.layoutOptions];
    return JSON.stringify([
        node.layoutOptions,
        node.width,
        node.height,
        (node.labels ?? []).map(sized),
        (node.ports ?? []).map(p => [p.width, p.height, p.layoutOptions, (p.labels ?? []).map(sized)]),
    ]);
}

/** A graph whose leaf nodes are placed (final size, fixed ports, no labels), and how to put the labels back. */
export interface PlacedGraph {
    graph: ElkNode;
    /** The layout of `graph` with every node's labels and port labels back, at their places. */
    restore(result: ElkNode): ElkNode;
}

export class NodeShapes {
    private readonly shapes = new Map<string, NodeShape>();

    constructor(private readonly elk: () => ELK) {}

    /**
     * `graph` with its top-level leaf nodes placed (where placesNodes says it pays); ELK lays out the shapes it has not
     * seen before first.
     */
    async place(graph: ElkNode): Promise<PlacedGraph> {
        const options = shapeOptions(graph.layoutOptions);
        // the graph's options (the direction) are part of a shape: a node is shaped otherwise in another graph
        const inGraph = JSON.stringify(options);
        const leaves = (graph.children ?? []).filter(isLeaf);
        const keys = new Map(leaves.map(n => [n, inGraph + shapeKey(n)]));
        const unknown = new Map<string, ElkNode>();
        for (const [node, key] of keys) if (!this.shapes.has(key)) unknown.set(key, node);
        if (unknown.size) await this.learn(options, unknown);
        const shapeOf = (node: ElkNode) => {
            const key = keys.get(node);
            return key === undefined ? undefined : this.shapes.get(key);
        };
        const originals = new Map((graph.children ?? []).map(n => [n.id, n]));
        return {
            graph: {
                ...graph,
                layoutOptions: withWrapCorrection(graph.layoutOptions),
                children: graph.children?.map(n => placedNode(n, shapeOf(n))),
            },
            restore: result => {
                for (const node of result.children ?? []) {
                    const original = originals.get(node.id);
                    const shape = original && shapeOf(original);
                    if (original && shape) withLabels(node, original, shape);
                }
                return result;
            },
        };
    }

    /** One ELK run over one node of each new shape, side by side: where ELK puts their labels and ports. */
    private async learn(options: LayoutOptions, unknown: Map<string, ElkNode>): Promise<void> {
        const samples = [...unknown.values()].map((node, i) => renamed(node, `shape${i}`));
        const result = await this.elk().layout({
            id: 'node-shapes',
            // one layered run for all of them, not one per node (each node would be a component of its own)
            layoutOptions: { ...options, [ELK_ + 'separateConnectedComponents']: 'false' },
            children: samples,
            edges: [],
        });
        if (this.shapes.size + unknown.size > KEPT_SHAPES) this.shapes.clear();
        const laidOut = result.children ?? [];
        [...unknown.keys()].forEach((key, i) => this.shapes.set(key, shapeOfNode(laidOut[i])));
    }
}

/** The graph's options with WRAP_CORRECTION on the wrapping's correction factor (times any it has). */
function withWrapCorrection(options: LayoutOptions | undefined): LayoutOptions {
    const name = ELK_ + 'layered.wrapping.correctionFactor';
    return { ...options, [name]: String(Number(options?.[name] ?? 1) * WRAP_CORRECTION) };
}

/** The graph's options that the shapes' own layout keeps. */
function shapeOptions(graphOptions: LayoutOptions | undefined): LayoutOptions {
    return Object.fromEntries(Object.entries(graphOptions ?? {}).filter(([k]) => !WHOLE_GRAPH_OPTIONS.has(k)));
}

/** A copy of `node` with ids of its own, so that shapes can be laid out side by side in one graph. */
function renamed(node: ElkNode, id: string): ElkNode {
    const labels = (prefix: string, list: ElkLabel[] | undefined) =>
        (list ?? []).map((l, i) => ({ ...l, id: `${prefix}.label${i}` }));
    return {
        id,
        layoutOptions: node.layoutOptions,
        width: node.width,
        height: node.height,
        labels: labels(id, node.labels),
        ports: (node.ports ?? []).map((p, i) => ({
            ...p,
            id: `${id}.port${i}`,
            labels: labels(`${id}.port${i}`, p.labels),
        })),
    };
}

function shapeOfNode(node: ElkNode): NodeShape {
    const at = (l: ElkLabel): [number, number] => [l.x ?? 0, l.y ?? 0];
    return {
        width: node.width ?? 0,
        height: node.height ?? 0,
        labels: (node.labels ?? []).map(at),
        ports: (node.ports ?? []).map(p => ({ x: p.x ?? 0, y: p.y ?? 0, labels: (p.labels ?? []).map(at) })),
    };
}

/** The node at its shape's size, its ports where the shape has them, without labels. */
function placedNode(node: ElkNode, shape: NodeShape | undefined): ElkNode {
    if (!shape) return node;
    const options = Object.fromEntries(
        Object.entries(node.layoutOptions ?? {}).filter(([k]) => !MICRO_LAYOUT_OPTIONS.includes(k)),
    );
    const ports = (node.ports ?? []).map((p, i): ElkPort => ({
        id: p.id,
        width: p.width,
        height: p.height,
        x: shape.ports[i].x,
        y: shape.ports[i].y,
        // no options: the position holds the side and the border offset (a side set as well moved the nodes)
    }));
    return {
        id: node.id,
        width: shape.width,
        height: shape.height,
        layoutOptions: { ...options, [ELK_ + 'portConstraints']: 'FIXED_POS' },
        ports,
        edges: node.edges,
    };
}

/** Puts the original labels back on a laid-out node and its ports, where its shape has them. */
function withLabels(node: ElkNode, original: ElkNode, shape: NodeShape): void {
    const placed = (labels: ElkLabel[] | undefined, at: Array<[number, number]>) =>
        (labels ?? []).map((l, i) => ({ ...l, x: at[i][0], y: at[i][1] }));
    node.labels = placed(original.labels, shape.labels);
    const index = new Map((original.ports ?? []).map((p, i) => [p.id, i]));
    for (const port of node.ports ?? []) {
        const i = index.get(port.id);
        if (i !== undefined) port.labels = placed(original.ports?.[i].labels, shape.ports[i].labels);
    }
}
