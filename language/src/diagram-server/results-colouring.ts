/**
 * Results on the model: the chain and plan views coloured by what the planner predicted or a run measured
 * (the options panel's `Colour by`), on a 5-step sequential scale (`heat-0` faint .. `heat-4` strong, where the
 * strongest marks what most deserves a look), with a key the webview draws in a corner and the value in each
 * node's popup. It post-processes a built view by node, so the views themselves stay as they are: the option
 * changes colours only, never a label (a layout that moved with it would lose the user's place).
 */
import {
    durationUnitFor,
    formatDuration,
    formatNumber,
    formatPercent,
    type ColourBy,
    type ColouringBin,
    type ColouringFields,
} from '@chainlab/contract';
import { shortBytes, T, type ChainlabGraph, type ChainlabNode } from './diagram-elements.js';
import type { MeasuredTasks } from './measured-tasks.js';
import type { PlanJson } from './plan-view.js';
import { formatIn } from './time-format.js';

export const HEAT_STEPS = 5;

/** A node that carries a result: the line its popup adds (values the drawing only shows as a colour). */
export interface ColouredNode extends ChainlabNode {
    result?: string;
}

/** What a colouring needs: the view's plan (or why there is none) and the chain's latest run, if any. */
export interface ColouringInput {
    by: Exclude<ColourBy, 'none'>;
    plan?: PlanJson;
    /** Why there is no plan (the model does not export, the planner failed). */
    planProblem?: string;
    run?: MeasuredTasks;
    /** The unit the chain's costs are written in (`ms`, `us`, ...): slack reads in it, as the costs do. */
    timeUnit?: string;
}

/** Values per sub-box (plan view) and per box instance (chain view); absent where the metric has none. */
export interface ResultValues {
    subBoxes: Map<string, number>;
    instances: Map<string, number>;
}

type SubBox = PlanJson['sub_boxes'][number];

const TITLES: Record<ColouringInput['by'], { title: string; unit: string }> = {
    share: { title: 'share of the end-to-end latency', unit: '%' },
    measured: { title: 'measured ÷ calibrated time', unit: '×' },
    slack: { title: 'slack before it delays the latency', unit: 'time' },
    memory: { title: 'buffer memory written', unit: 'bytes' },
};

/** Colours the graph's boxes (chain view) or sub-boxes (plan view) and puts the key on its root. */
export function colourGraph(graph: ChainlabGraph, input: ColouringInput): void {
    const { title, unit } = TITLES[input.by];
    const key: ColouringFields = { by: input.by, title, unit, bins: [] };
    graph.colouring = key;
    if (!input.plan) {
        key.note = `no plan: ${input.planProblem ?? 'the model does not export'}`;
        return;
    }
    if (input.by === 'measured' && !input.run) {
        key.note = 'no run yet: run the chain on a target to compare';
        return;
    }
    const values = resultValues(input.by, input.plan, input.run);
    // the scale spans what this view shows: a box writes more than any of its slices
    const shown = graph.view === 'chain' ? values.instances : values.subBoxes;
    key.bins = binsOf(input.by, [...shown.values()], input.timeUnit);
    for (const child of graph.children ?? []) {
        const n = child as ColouredNode;
        const value =
            n.type === T.box
                ? values.instances.get(n.name ?? '')
                : n.type === T.subBox
                  ? values.subBoxes.get(subBoxName(n))
                  : undefined;
        if (n.type !== T.box && n.type !== T.subBox) continue;
        if (value === undefined) {
            n.result = `${title}: ${input.by === 'measured' ? 'not measured' : 'not planned'}`;
            continue;
        }
        const bin = key.bins.find(b => inBin(b, value, key.bins)) ?? key.bins[key.bins.length - 1];
        n.cssClasses = [...(n.cssClasses ?? []), 'heat', bin.cls];
        n.result = `${title}: ${valueText(input.by, value, input.timeUnit)}`;
    }
}

/** A plan sub-box node's name: its heading's text (the node id may carry a suffix that keeps it unique). */
function subBoxName(n: ChainlabNode): string {
    const heading = n.children?.find(c => c.type === T.heading) as { text?: string } | undefined;
    return heading?.text ?? n.id;
}

/** The metric per sub-box and per instance. */
export function resultValues(by: ColouringInput['by'], plan: PlanJson, run?: MeasuredTasks): ResultValues {
    const byInstance = new Map<string, SubBox[]>();
    for (const s of plan.sub_boxes) byInstance.set(s.instance, [...(byInstance.get(s.instance) ?? []), s]);
    const subBoxes = new Map<string, number>();
    const instances = new Map<string, number>();
    const put = (name: string, value: number | undefined, into: Map<string, number>) => {
        if (value !== undefined && Number.isFinite(value)) into.set(name, value);
    };
    const metric = METRICS[by](plan, run);
    for (const s of plan.sub_boxes) put(s.name, metric.subBox(s), subBoxes);
    for (const [instance, subs] of byInstance) put(instance, metric.instance(instance, subs), instances);
    return { subBoxes, instances };
}

interface Metric {
    subBox(s: SubBox): number | undefined;
    instance(name: string, subs: SubBox[]): number | undefined;
}

const METRICS: Record<ColouringInput['by'], (plan: PlanJson, run?: MeasuredTasks) => Metric> = {
    share: plan => {
        const nominal = nominalLatency(plan);
        return {
            subBox: s => (s.critical ? s.estimated_cost_ns / nominal : 0),
            // parallel slices on the path overlap in time: their union, not their sum, is the box's share
            instance: (_, subs) => unionLength(subs.filter(s => s.critical)) / nominal,
        };
    },
    measured: (_, run) => {
        const tasks = new Map((run?.tasks ?? []).map(t => [t.sub_box, t]));
        const ratio = (subs: SubBox[]) => {
            const ran = subs.filter(s => tasks.has(s.name) && s.estimated_cost_ns > 0);
            if (!ran.length) return undefined;
            const measured = ran.reduce((sum, s) => sum + tasks.get(s.name)!.duration_p50_ns, 0);
            return measured / ran.reduce((sum, s) => sum + s.estimated_cost_ns, 0);
        };
        return { subBox: s => ratio([s]), instance: (_name, subs) => ratio(subs) };
    },
    slack: () => ({
        subBox: s => s.slack_ns,
        // a box is as urgent as its most urgent slice
        instance: (_, subs) => subs.reduce((least, s) => Math.min(least, s.slack_ns), Infinity),
    }),
    memory: plan => {
        const written = new Map<string, number>();
        for (const b of plan.buffers)
            written.set(b.producer.instance, (written.get(b.producer.instance) ?? 0) + b.bytes);
        return {
            // a slice writes its rows of the box's buffers
            subBox: s => ((written.get(s.instance) ?? 0) * (s.rows[1] - s.rows[0])) / Math.max(1, s.height),
            instance: name => written.get(name) ?? 0,
        };
    },
};

/** The plan's nominal end-to-end latency; the estimated schedule's end where the plan was not predicted. */
function nominalLatency(plan: PlanJson): number {
    const end = Math.max(1, ...plan.sub_boxes.map(s => s.estimated_start_ns + s.estimated_cost_ns));
    return plan.latency?.nominal_ns || end;
}

/** The time covered by the sub-boxes' estimated intervals together. */
function unionLength(subs: SubBox[]): number {
    const spans = subs
        .map(s => [s.estimated_start_ns, s.estimated_start_ns + s.estimated_cost_ns] as const)
        .sort((a, b) => a[0] - b[0]);
    let [total, end] = [0, -Infinity];
    for (const [from, to] of spans) {
        if (to <= end) continue;
        total += to - Math.max(from, end);
        end = to;
    }
    return total;
}

/** The scale's bins in value order. Shares and ratios have fixed edges, comparable between views and runs. */
export function binsOf(by: ColouringInput['by'], values: number[], timeUnit?: string): ColouringBin[] {
    if (by === 'share') return fixedBins([0, 0.05, 0.15, 0.3, 0.5, Infinity], v => valueText('share', v), false);
    if (by === 'measured') return fixedBins([0, 0.9, 1.1, 1.5, 2, Infinity], v => `${formatNumber(v)}×`, false);
    const max = Math.max(0, ...values);
    if (by === 'memory') return equalBins(max, v => shortBytes(Math.round(v)), false);
    // slack: none is the strongest colour (the critical path), the most the faintest
    return [
        { cls: 'heat-4', from: 0, to: 0, text: 'none (critical)' },
        // one unit for the whole key, as on an axis: `≤ 0.375 ms`, not `≤ 375 µs` beside `0.75 ms – 1.13 ms`
        ...(max > 0 ? equalBins(max, v => formatIn(v, durationUnitFor(max, { unit: timeUnit })), true, 4) : []),
    ];
}

function fixedBins(edges: number[], text: (v: number) => string, reversed: boolean): ColouringBin[] {
    return edges.slice(0, -1).map((from, i) => ({
        cls: `heat-${reversed ? HEAT_STEPS - 1 - i : i}`,
        from,
        to: edges[i + 1],
        text: edges[i + 1] === Infinity ? `> ${text(from)}` : `${text(from)} – ${text(edges[i + 1])}`,
    }));
}

/** `steps` bins of equal width up to `max`; `reversed`: the largest values get the faintest colour. */
function equalBins(max: number, text: (v: number) => string, reversed: boolean, steps = HEAT_STEPS): ColouringBin[] {
    if (max <= 0) return [{ cls: 'heat-0', from: 0, to: 0, text: text(0) }];
    return Array.from({ length: steps }, (_, i) => {
        const [from, to] = [(max * i) / steps, (max * (i + 1)) / steps];
        // bins hold (from, to]: the first reads `≤ to`, which also keeps a zero-slack bin before it apart
        const range = i === 0 ? `≤ ${text(to)}` : `${text(from)} – ${text(to)}`;
        return { cls: `heat-${reversed ? steps - 1 - i : i}`, from, to, text: range };
    });
}

/** Bins hold (from, to]; the first also its `from`, and a zero-width bin just its value. */
function inBin(bin: ColouringBin, value: number, bins: ColouringBin[]): boolean {
    if (bin.from === bin.to) return value === bin.from;
    const first = bins.find(b => b.from !== b.to) === bin;
    return (first ? value >= bin.from : value > bin.from) && value <= bin.to;
}

/** A value as the popup says it. */
export function valueText(by: ColouringInput['by'], value: number, timeUnit?: string): string {
    switch (by) {
        case 'share':
            return formatPercent(value);
        case 'measured':
            return `${formatNumber(value)}× the calibrated time`;
        case 'slack':
            return value === 0 ? 'none (on the critical path)' : formatDuration(value, { unit: timeUnit });
        case 'memory':
            return shortBytes(Math.round(value));
    }
}

/** What a view's colouring is asked for: the option, the plan (fetched only when needed) and the latest run. */
export interface ResultsRequest {
    by: ColourBy | undefined;
    plan: () => Promise<PlanJson> | PlanJson;
    run: MeasuredTasks | undefined;
    /** The unit the chain's costs are written in. */
    timeUnit?: string;
}

/**
 * The view with its colouring where the options ask for one (chain and plan views); the plan is fetched only
 * then, since the box chain needs none otherwise.
 */
export async function withResults(graph: ChainlabGraph, request: ResultsRequest): Promise<ChainlabGraph> {
    const { by, run, timeUnit } = request;
    if (!by || by === 'none' || (graph.view !== 'chain' && graph.view !== 'plan')) return graph;
    if (!graph.children?.some(c => c.type === T.box || c.type === T.subBox)) return graph; // a message
    try {
        colourGraph(graph, { by, plan: await request.plan(), run, timeUnit });
    } catch (error) {
        colourGraph(graph, { by, planProblem: (error as Error).message, timeUnit });
    }
    return graph;
}
