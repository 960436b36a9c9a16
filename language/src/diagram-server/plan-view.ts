/**
 * View 2, the plan (thesis chapter 3), computed by the backend's planner: (a) the sub-box graph, each
 * sub-box coloured by its thread (and so its core), fine-grained dependencies between slices, and the
 * buffer offsets of the arena on hover. The thread lanes (b) are lanes-view.ts.
 */
import type { SModelElement } from 'sprotty-protocol';
import type { Heuristic, PlanResult } from '@chainlab/contract';
import type { Chain } from '../generated/ast.js';
import type { IrModel } from '../ir/ir-types.js';
import { boxCost, chainInstances } from '../dsl/model-util.js';
import { edge, label, node, port, shortBytes, T, type ChainlabGraph, type ChainlabNode } from './diagram-elements.js';
import { formatAsWritten } from './time-format.js';
import type { ViewContext } from './view-context.js';

/** The part of the backend's plan (plan/make's reply, contract/schemas/rpc-plan.schema.json) the views read. */
export type PlanJson = Pick<
    PlanResult,
    | 'chain'
    | 'heuristic'
    | 'memory'
    | 'arena_bytes'
    | 'threads'
    | 'sub_boxes'
    | 'dependencies'
    | 'buffers'
    | 'signals'
    | 'latency'
>;

/** Where plans come from: the backend over JSON-RPC in the language server, anything equivalent in tests. */
export interface PlanSource {
    plan(ir: IrModel, chain: string, heuristic?: Heuristic): Promise<PlanJson>;
}

/**
 * The unit each instance's box wrote its cost in, by instance name: a sub-box's cost is a slice of that cost and
 * reads in the same unit (a slice of `cost 0.6 ms` is 0.15 ms, not 150 µs).
 */
export function writtenCostUnits(chain: Chain): Map<string, string | undefined> {
    return new Map(chainInstances(chain).map(i => [i.name, i.box.ref && boxCost(i.box.ref)?.unit]));
}

/** The unit most of the chain's costs are written in (the first such among equals); none where no cost has one. */
export function chainCostUnit(chain: Chain): string | undefined {
    const counts = new Map<string, number>();
    for (const unit of writtenCostUnits(chain).values()) if (unit) counts.set(unit, (counts.get(unit) ?? 0) + 1);
    return [...counts].reduce<[string, number] | undefined>(
        (best, c) => (!best || c[1] > best[1] ? c : best),
        undefined,
    )?.[0];
}

export function planView(chain: Chain, plan: PlanJson, ctx: ViewContext): ChainlabGraph {
    const instances = new Map(chainInstances(chain).map(i => [i.name, i]));
    const costUnits = writtenCostUnits(chain);
    const buffersOf = new Map<string, PlanJson['buffers']>();
    for (const b of plan.buffers)
        buffersOf.set(b.producer.instance, [...(buffersOf.get(b.producer.instance) ?? []), b]);
    const cores = new Map(plan.threads.map(t => [t.index, t.core]));
    const showCritical = ctx.options.showCritical ?? true;
    const critical = new Set(plan.sub_boxes.filter(s => showCritical && s.critical === true).map(s => s.name));
    const ports = dependencyPorts(plan.dependencies);
    const ids = new Map<string, string>();
    const children: SModelElement[] = [];
    for (const s of plan.sub_boxes) {
        const core = cores.get(s.thread);
        const lines = [
            label(`${s.name}.name`, T.heading, s.name),
            label(
                `${s.name}.where`,
                T.text,
                `thread ${s.thread}${core !== null && core !== undefined ? ` · core ${core}` : ''}`,
            ),
        ];
        if (ctx.options.showCosts ?? true)
            lines.push(
                label(
                    `${s.name}.cost`,
                    T.text,
                    `${formatAsWritten(s.estimated_cost_ns, costUnits.get(s.instance))} · rows ${s.rows[0]}..${s.rows[1]}`,
                ),
            );
        const cssClasses = [`thread-${s.thread % 8}`, ...(critical.has(s.name) ? ['critical'] : [])];
        const n: ChainlabNode = node(ctx.id(s.name), T.subBox, lines, { cssClasses });
        ids.set(s.name, n.id);
        n.tooltip = [
            `${s.name}: ${s.box} (${s.kernel}), slice ${s.slice + 1} of ${s.slices}, rows ${s.rows[0]}..${s.rows[1]}`,
            ...(buffersOf.get(s.instance) ?? []).map(
                b => `writes ${b.name}: ${shortBytes(b.bytes)} at arena offset ${b.offset ?? '-'}`,
            ),
        ].join('\n');
        n.children!.push(
            ...portIds(n.id, 'in', ports.inputs.get(s.name)).map(id => port(id, T.inPort)),
            ...portIds(n.id, 'out', ports.outputs.get(s.name)).map(id => port(id, T.outPort)),
        );
        ctx.trace(n, instances.get(s.instance));
        children.push(n);
    }
    plan.dependencies.forEach((d, i) => {
        const [from, to] = [ids.get(d.from) ?? d.from, ids.get(d.to) ?? d.to];
        const e = edge(
            dependencyId(d),
            T.dependency,
            `${from}.out.${ports.outputIndex[i]}`,
            `${to}.in.${ports.inputIndex[i]}`,
        );
        if (critical.has(d.from) && critical.has(d.to)) e.cssClasses = ['critical'];
        children.push(e);
    });
    return {
        type: T.graph,
        id: 'root',
        view: 'plan',
        element: `${plan.chain} (${plan.heuristic}, ${plan.memory}, arena ${shortBytes(plan.arena_bytes)})`,
        children,
    };
}

/**
 * One port per dependency at each end: edges that shared a sub-box's one input port were routed as a common
 * horizontal bus, and which producers fed a sub-box could not be read off the drawing. `inputs`/`outputs`:
 * the count per sub-box; `inputIndex[i]`/`outputIndex[i]`: the port of dependency i at its target/source.
 */
function dependencyPorts(dependencies: PlanJson['dependencies']) {
    const inputs = new Map<string, number>();
    const outputs = new Map<string, number>();
    const inputIndex: number[] = [];
    const outputIndex: number[] = [];
    for (const d of dependencies) {
        inputIndex.push(inputs.get(d.to) ?? 0);
        inputs.set(d.to, (inputs.get(d.to) ?? 0) + 1);
        outputIndex.push(outputs.get(d.from) ?? 0);
        outputs.set(d.from, (outputs.get(d.from) ?? 0) + 1);
    }
    return { inputs, outputs, inputIndex, outputIndex };
}

const dependencyId = (d: PlanJson['dependencies'][number]) => `${d.from}->${d.to}:${d.buffer}`;

/** `id.in.0`, `id.in.1`, … one per dependency; a single `id.in` where there are none (a source or a sink). */
function portIds(id: string, side: 'in' | 'out', count: number | undefined): string[] {
    return count ? Array.from({ length: count }, (_, k) => `${id}.${side}.${k}`) : [`${id}.${side}`];
}
