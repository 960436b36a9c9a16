/**
 * View 2, the plan (thesis chapter 3), computed by the backend's planner: (a) the sub-box graph, each
 * sub-box coloured by its thread (and so its core), fine-grained dependencies between slices, and the
 * buffer offsets of the arena on hover. The thread lanes (b) are lanes-view.ts.
 */
import type { SModelElement } from 'sprotty-protocol';
import type { Heuristic, PlanResult } from '@chainlab/contract';
import type { Chain } from '../generated/ast.js';
import type { IrModel } from '../ir/ir-types.js';
import { chainInstances } from '../dsl/model-util.js';
import { edge, label, node, port, shortBytes, T, type ChainlabGraph, type ChainlabNode } from './diagram-elements.js';
import { formatTime } from './time-format.js';
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

export function planView(chain: Chain, plan: PlanJson, ctx: ViewContext): ChainlabGraph {
    const instances = new Map(chainInstances(chain).map(i => [i.name, i]));
    const buffersOf = new Map<string, PlanJson['buffers']>();
    for (const b of plan.buffers)
        buffersOf.set(b.producer.instance, [...(buffersOf.get(b.producer.instance) ?? []), b]);
    const cores = new Map(plan.threads.map(t => [t.index, t.core]));
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
                label(`${s.name}.cost`, T.text, `${formatTime(s.estimated_cost_ns)} · rows ${s.rows[0]}..${s.rows[1]}`),
            );
        const n: ChainlabNode = node(ctx.id(s.name), T.subBox, lines, { cssClasses: [`thread-${s.thread % 8}`] });
        n.tooltip = [
            `${s.name}: ${s.box} (${s.kernel}), slice ${s.slice + 1} of ${s.slices}, rows ${s.rows[0]}..${s.rows[1]}`,
            ...(buffersOf.get(s.instance) ?? []).map(
                b => `writes ${b.name}: ${shortBytes(b.bytes)} at arena offset ${b.offset ?? '-'}`,
            ),
        ].join('\n');
        n.children!.push(port(`${n.id}.in`, T.inPort), port(`${n.id}.out`, T.outPort));
        ctx.trace(n, instances.get(s.instance));
        children.push(n);
    }
    for (const d of plan.dependencies) {
        children.push(edge(`${d.from}->${d.to}:${d.buffer}`, T.dependency, `${d.from}.out`, `${d.to}.in`));
    }
    return {
        type: T.graph,
        id: 'root',
        view: 'plan',
        element: `${plan.chain} (${plan.heuristic}, ${plan.memory}, arena ${shortBytes(plan.arena_bytes)})`,
        children,
    };
}
