/**
 * ELK layout that remembers its last results. Most edits (a cost, a period, a kernel) change only label texts,
 * and ELK places labels by their sizes, never by their text: the same graph without texts gets the same drawing.
 * ELK layered takes 100-200 ms for a 200-box chain, most of the 300 ms an edit may take to reach the diagram.
 * A new top-down drawing gets its nodes' micro layout from the shapes ELK has placed before (node-shapes.ts).
 * With a store (layout-store.ts) the drawings also outlive the server process.
 */
import type { ElkNode } from 'elkjs/lib/elk-api.js';
import { type SGraph, SModelIndex } from 'sprotty-protocol';
import { ElkLayoutEngine, type ElkFactory, type ILayoutConfigurator } from 'sprotty-elk/lib/elk-layout.js';
import { NodeShapes, placesNodes } from './node-shapes.js';
import type { LayoutStore } from './layout-store.js';

/** Distinct drawings kept: the open views of a few documents. */
const KEPT = 16;

export class CachedElkLayoutEngine extends ElkLayoutEngine {
    private readonly results = new Map<string, ElkNode>();
    /** Layouts ELK is making: a second request for one (the panel's model request after its preparation) waits. */
    private readonly making = new Map<string, Promise<ElkNode>>();
    private readonly shapes = new NodeShapes(() => this.elk);

    constructor(
        elkFactory: ElkFactory,
        configurator: ILayoutConfigurator,
        private readonly store?: LayoutStore,
    ) {
        super(elkFactory, undefined, configurator);
    }

    override layout(sgraph: SGraph, index?: SModelIndex): SGraph | Promise<SGraph> {
        if (this.getBasicType(sgraph) !== 'graph') return sgraph;
        if (!index) {
            index = new SModelIndex();
            index.add(sgraph);
        }
        const elkGraph = this.transformGraph(sgraph, index);
        const key = layoutKey(elkGraph);
        const known = this.results.get(key) ?? this.store?.get(key);
        if (known) {
            this.remember(key, known);
            this.applyLayout(known, index);
            return sgraph;
        }
        const graphIndex = index;
        return this.made(key, elkGraph).then(result => {
            this.applyLayout(result, graphIndex);
            return sgraph;
        });
    }

    private made(key: string, elkGraph: ElkNode): Promise<ElkNode> {
        let making = this.making.get(key);
        if (!making) {
            making = this.laidOut(elkGraph)
                .then(result => {
                    this.remember(key, result);
                    this.store?.put(key, result);
                    return result;
                })
                .finally(() => this.making.delete(key));
            this.making.set(key, making);
        }
        return making;
    }

    /**
     * Has ELK lay out `sgraph` and forgets the drawing: a warm-up compiles ELK's code without filling the caches (or
     * the store) with drawings nobody asked for. The node shapes it learns are kept.
     */
    async warm(sgraph: SGraph): Promise<void> {
        const index = new SModelIndex();
        index.add(sgraph);
        await this.laidOut(this.transformGraph(sgraph, index));
    }

    private remember(key: string, result: ElkNode): void {
        this.results.delete(key); // most recently used last
        this.results.set(key, result);
        if (this.results.size > KEPT) this.results.delete(this.results.keys().next().value as string);
    }

    private async laidOut(elkGraph: ElkNode): Promise<ElkNode> {
        if (!placesNodes(elkGraph)) return this.elk.layout(elkGraph);
        const placed = await this.shapes.place(elkGraph);
        return placed.restore(await this.elk.layout(placed.graph));
    }
}

/** Everything ELK reads (ids, sizes, options, edges), without label texts. */
export function layoutKey(elkGraph: ElkNode): string {
    return JSON.stringify(elkGraph, (name, value: unknown) => (name === 'text' ? undefined : value));
}
