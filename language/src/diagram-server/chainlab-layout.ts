/**
 * Server-side layout: ELK layered, ports on fixed sides (inputs west, outputs east), labels
 * stacked at the top inside their node. ElkLayoutEngine ignores layoutOptions on model elements, so all
 * options come from this configurator. The timeline view is positioned by its builder and skips ELK.
 *
 * The flow direction follows the shape of the panel that shows the diagram (the webview sends its size):
 * one 25-box row in a half-width panel fits only at an unreadable zoom.
 */
import ElkConstructor from 'elkjs/lib/elk.bundled.js';
import type { SGraph, SModelIndex, SNode, SPort, SLabel, SModelRoot } from 'sprotty-protocol';
import { DefaultLayoutConfigurator, type ElkFactory } from 'sprotty-elk/lib/elk-layout.js';
import { CachedElkLayoutEngine } from './cached-elk-layout.js';
import type { LayoutStore } from './layout-store.js';
import type { IModelLayoutEngine } from 'sprotty-protocol/lib/diagram-services.js';
import { T, edge, label, port, type ChainlabGraph } from './diagram-elements.js';
import type { Viewport } from '@chainlab/contract';

export class ChainlabLayoutConfigurator extends DefaultLayoutConfigurator {
    protected override graphOptions(graph: SGraph): Record<string, string> {
        return {
            ...flowOptions((graph as ChainlabGraph).viewport, boxCount(graph as ChainlabGraph)),
            'org.eclipse.elk.algorithm': 'org.eclipse.elk.layered',
            'org.eclipse.elk.edgeRouting': 'ORTHOGONAL',
            'org.eclipse.elk.spacing.nodeNode': '30',
            'org.eclipse.elk.layered.spacing.nodeNodeBetweenLayers': '50',
            'org.eclipse.elk.spacing.edgeLabel': '4',
            'org.eclipse.elk.edgeLabels.placement': 'CENTER',
            'org.eclipse.elk.padding': '[top=20,left=20,bottom=20,right=20]',
            // the text's order breaks ties, so an edit elsewhere does not swap boxes that stay in one layer
            'org.eclipse.elk.layered.considerModelOrder.strategy': 'PREFER_NODES',
            'org.eclipse.elk.layered.crossingMinimization.forceNodeModelOrder': 'true',
            ...planOptions(graph as ChainlabGraph),
        };
    }

    protected override nodeOptions(node: SNode): Record<string, string> {
        return {
            // ports in their declaration order: ELK reordered them to save a crossing after every edit
            'org.eclipse.elk.portConstraints': 'FIXED_ORDER',
            'org.eclipse.elk.nodeLabels.placement': '[H_CENTER, V_TOP, INSIDE]',
            'org.eclipse.elk.portLabels.placement': '[INSIDE]',
            'org.eclipse.elk.nodeSize.constraints': '[NODE_LABELS, PORTS, PORT_LABELS, MINIMUM_SIZE]',
            'org.eclipse.elk.nodeSize.minimum': `(${node.size?.width ?? 90},${node.size?.height ?? 40})`,
            'org.eclipse.elk.spacing.labelNode': '6',
            'org.eclipse.elk.spacing.labelLabel': '2',
            'org.eclipse.elk.spacing.portPort': '14',
        };
    }

    protected override portOptions(port: SPort, index: SModelIndex): Record<string, string> {
        // data flows along the layout direction: inputs on the side it comes from, outputs where it goes
        const down = flowsDown(index.getRoot(port) as ChainlabGraph);
        const side = port.type === T.inPort ? (down ? 'NORTH' : 'WEST') : down ? 'SOUTH' : 'EAST';
        return { 'org.eclipse.elk.port.side': side, 'org.eclipse.elk.port.borderOffset': '-5' };
    }

    protected override labelOptions(_label: SLabel, _index: SModelIndex): Record<string, string> | undefined {
        return undefined;
    }
}

/**
 * The plan: ELK's simple node placement keeps each thread's slices in one straight column and the drawing
 * about a third narrower than Brandes-Köpf, which spreads the layers apart to straighten the many edges of
 * one port per dependency (the xray plan: 2350 instead of 3470 px wide), so *Fit* shows it larger.
 */
function planOptions(graph: ChainlabGraph): Record<string, string> {
    if (graph.view !== 'plan') return {};
    return { 'org.eclipse.elk.layered.nodePlacement.strategy': 'SIMPLE' };
}

/** A half-width VS Code panel (about 800 × 1000 CSS px): what a diagram is laid out for when no size was sent. */
export const DEFAULT_VIEWPORT: Viewport = { width: 800, height: 1000 };

function isTall(viewport: Viewport | undefined): boolean {
    const { width, height } = viewport ?? DEFAULT_VIEWPORT;
    return width < height;
}

/**
 * A top-down chain of up to this many boxes stays one column: it fills a half-width panel's width at readable
 * zoom and is read by scrolling down a few screens. A longer one is a column hundreds of boxes deep that fits
 * the panel only as a strip of specks, so it is wrapped into columns side by side instead.
 */
export const WRAP_DOWN_ABOVE_BOXES = 40;

/**
 * A panel at least this many times wider than tall (a bottom panel, or an editor under Theia's Problems view) is
 * short: a left-to-right chain there shows about 4 boxes at readable zoom, its rows taller than the panel.
 */
export const SHORT_PANEL_RATIO = 3;

/** Model units a box takes in a left-to-right row (the box and the space between layers): a short panel draws a
 * chain as one row where the row fits its width, as columns only where it would not. */
const ROW_UNITS_PER_BOX = 200;

/**
 * A short panel's chain is cut into top-down columns side by side, and ELK is asked for a drawing this many
 * times wider than the panel: its columns then come out about as tall as the panel at readable zoom (the
 * X-ray chain shows 11 of 25 boxes in a 1600 × 384 panel instead of 5), read left to right by scrolling.
 */
export const SHORT_PANEL_STRETCH = 3;

/** ELK's ratio-driven wrapping gives up beyond about this ratio (it left the X-ray chain one column at 40). */
const MAX_WRAP_RATIO = 20;

/**
 * The flow direction from the panel's shape. A panel taller than wide gets a top-down flow: a chain is
 * long and narrow, so it then fills the panel's width and is read by scrolling down. A wide panel gets
 * left to right; a short one (SHORT_PANEL_RATIO) top-down columns side by side where one row would not fit.
 * Long chains are wrapped toward the panel's aspect ratio (ELK layered's MULTI_EDGE wrapping cuts the layer
 * sequence where few edges cross; ELK only wraps drawings wider than the ratio, so short chains stay in one row),
 * so that the whole of a 200-box chain fills the panel when it is fitted.
 */
export function flowOptions(viewport: Viewport | undefined, boxes = 0): Record<string, string> {
    const { width, height } = viewport ?? DEFAULT_VIEWPORT;
    const ratio = width / height;
    const wrap = (aspect: number) => ({
        'org.eclipse.elk.aspectRatio': aspect.toFixed(3),
        'org.eclipse.elk.layered.wrapping.strategy': 'MULTI_EDGE',
        'org.eclipse.elk.layered.wrapping.additionalEdgeSpacing': '20',
    });
    if (ratio >= SHORT_PANEL_RATIO && boxes * ROW_UNITS_PER_BOX > width)
        return {
            'org.eclipse.elk.direction': 'DOWN',
            ...wrap(Math.min(MAX_WRAP_RATIO, ratio * SHORT_PANEL_STRETCH)),
        };
    if (isTall(viewport))
        return { 'org.eclipse.elk.direction': 'DOWN', ...(boxes > WRAP_DOWN_ABOVE_BOXES ? wrap(ratio) : {}) };
    return { 'org.eclipse.elk.direction': 'RIGHT', ...wrap(ratio) };
}

function boxCount(graph: ChainlabGraph): number {
    return (graph.children ?? []).filter(c => c.type === T.box).length;
}

/** Whether a graph flows top-down, decided once per graph: every port asks. */
const downward = new WeakMap<ChainlabGraph, boolean>();

function flowsDown(graph: ChainlabGraph): boolean {
    let down = downward.get(graph);
    if (down === undefined) {
        down = flowOptions(graph.viewport, boxCount(graph))['org.eclipse.elk.direction'] === 'DOWN';
        downward.set(graph, down);
    }
    return down;
}

export const elkFactory: ElkFactory = () => new ElkConstructor.default({ algorithms: ['layered'] });

/** Boxes of the long chains laid out, one at a time, once the editor is quiet after the start. */
const LARGE_WARM_UP = [60, 60, 60];

/** How long no diagram must have been laid out before a piece of the larger warm-up runs. */
export const QUIET_MS = 2000;

/** A real diagram at least this large compiles ELK's code for large graphs itself: the larger warm-up stops. */
const WARM_FROM_BOXES = 100;

export class ChainlabLayoutEngine implements IModelLayoutEngine {
    /** Made for the first diagram or the warm-up: starting ELK costs 60-130 ms the server's start need not wait for. */
    private elk?: CachedElkLayoutEngine;
    /** When a diagram was last laid out; the start counts as one, so the larger warm-up waits for quiet after it. */
    private lastLayout = Date.now();
    private largestLaidOut = 0;

    /**
     * `startElk`: where ELK runs; in this thread unless the server gives it a worker thread (elk-thread.ts).
     * `store`: where drawings are kept between server processes, if anywhere.
     */
    constructor(
        private readonly startElk: ElkFactory = elkFactory,
        private readonly store?: LayoutStore,
    ) {}

    layout(model: SModelRoot): SModelRoot | Promise<SModelRoot> {
        const graph = model as ChainlabGraph;
        if (
            graph.view === 'timeline' ||
            graph.view === 'lanes' ||
            (graph.children ?? []).every(c => c.type === T.banner)
        )
            return model;
        this.lastLayout = Date.now();
        this.largestLaidOut = Math.max(this.largestLaidOut, boxCount(graph));
        return this.engine().layout(model as SGraph);
    }

    /**
     * Starts ELK and lays out a small chain once, so that the first diagram a user opens finds ELK's code
     * compiled: a cold first layout of the 25-box X-ray chain took twice as long as the next one.
     */
    async warmUp(): Promise<void> {
        await this.engine().warm(warmUpChain(12));
    }

    /**
     * Then, whenever no diagram has been laid out for QUIET_MS, long branching chains one at a time: the first
     * layout of a 200-box chain after only the small warm-up took 2-3 times a warm one (ELK's code for large graphs
     * not compiled yet). A diagram asked for meanwhile waits for one piece at most; a large real diagram ends it.
     */
    async warmUpForLargeGraphs(quietMs = QUIET_MS): Promise<void> {
        for (const boxes of LARGE_WARM_UP) {
            for (let idle = Date.now() - this.lastLayout; idle < quietMs; idle = Date.now() - this.lastLayout)
                await new Promise(resolve => setTimeout(resolve, quietMs - idle).unref());
            if (this.largestLaidOut >= WARM_FROM_BOXES) return;
            await this.engine().warm(warmUpChain(boxes, 5));
        }
    }

    private engine(): CachedElkLayoutEngine {
        return (this.elk ??= new CachedElkLayoutEngine(this.startElk, new ChainlabLayoutConfigurator(), this.store));
    }
}

/**
 * A chain of `boxes` boxes with labelled ports, in the shape the chain view makes; with `branchEvery`, every so
 * many boxes also feed the box two further on (a second input), as in a real chain's forks and joins.
 */
function warmUpChain(boxes: number, branchEvery = 0): ChainlabGraph {
    const name = (i: number) => `warm${i}`;
    const joins = (i: number) => branchEvery > 0 && i >= 2 && (i - 2) % branchEvery === 0;
    const children: ChainlabGraph['children'] = [];
    for (let i = 0; i < boxes; i++)
        children.push({
            type: T.box,
            id: name(i),
            size: { width: 160, height: 60 },
            children: [
                label(`${name(i)}.name`, T.heading, name(i)),
                label(`${name(i)}.kernel`, T.text, i % 3 ? 'Gain · gain(1.5)' : 'Conv · convolution(k)'),
                port(`${name(i)}.i`, T.inPort, 'i: F'),
                ...(joins(i) ? [port(`${name(i)}.j`, T.inPort, 'j: F')] : []),
                port(`${name(i)}.o`, T.outPort, 'o: F'),
            ],
        } as SNode);
    for (let i = 1; i < boxes; i++) {
        children.push(edge(`e${i}`, T.edge, `${name(i - 1)}.o`, `${name(i)}.i`));
        if (joins(i)) children.push(edge(`f${i}`, T.edge, `${name(i - 2)}.o`, `${name(i)}.j`));
    }
    return { type: T.graph, id: 'warm-up', view: 'chain', viewport: DEFAULT_VIEWPORT, children };
}
