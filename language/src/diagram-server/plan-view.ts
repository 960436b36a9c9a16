/**
 * View 2, the plan (thesis chapter 3), computed by the backend's planner: (a) the sub-box graph, each
 * sub-box coloured by its thread (and so its core), fine-grained dependencies between slices, and the
 * buffer offsets of the arena on hover; (b) the thread lanes: each pinned thread's static order of
 * wait / execute / signal steps, like the thesis' Figures 3.3 and 3.4.
 */
import type { SModelElement } from 'sprotty-protocol';
import type { Heuristic, PlanResult } from '@chainlab/contract';
import type { Chain } from '../generated/ast.js';
import type { IrModel } from '../ir/ir-types.js';
import { chainInstances } from '../dsl/model-util.js';
import {
    edge,
    label,
    messageGraph,
    placedLabel,
    node,
    port,
    shortBytes,
    T,
    textWidth,
    type ChainlabGraph,
    type ChainlabNode,
} from './diagram-elements.js';
import type { ViewContext } from './view-context.js';

/** The part of the backend's plan (plan/make's reply, contract/schemas/rpc-plan.schema.json) the views read. */
export type PlanJson = Pick<
    PlanResult,
    'chain' | 'heuristic' | 'memory' | 'arena_bytes' | 'threads' | 'sub_boxes' | 'dependencies' | 'buffers'
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
                label(
                    `${s.name}.cost`,
                    T.text,
                    `${+(s.estimated_cost_ns / 1e6).toFixed(3)} ms · rows ${s.rows[0]}..${s.rows[1]}`,
                ),
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

export const LANES = { stepWidth: 34, execWidth: 96, height: 40, gap: 10, nameWidth: 120 };

/** The static order per thread: wait (W), execute (E) and signal (S) steps left to right, one lane per thread. */
export function lanesView(chain: Chain, plan: PlanJson, ctx: ViewContext): ChainlabGraph {
    if (!plan.threads.length) return messageGraph('lanes', `the plan of ${plan.chain} has no threads`, chain.name);
    const instances = new Map(chainInstances(chain).map(i => [i.name, i]));
    const subBoxes = new Map(plan.sub_boxes.map(s => [s.name, s]));
    const children: SModelElement[] = plan.threads.map((t, row) => {
        const laneId = ctx.id(`lane.${t.name}`);
        const lane: ChainlabNode = {
            type: T.lane,
            id: laneId,
            position: { x: 0, y: row * (LANES.height + LANES.gap) },
            cssClasses: [`thread-${t.index % 8}`],
            children: [
                placedLabel(
                    `${laneId}.name`,
                    T.heading,
                    `${t.name}${t.core !== null ? ` @ core ${t.core}` : ''}`,
                    6,
                    12,
                ),
            ],
        };
        let x = LANES.nameWidth;
        t.steps.forEach((step, i) => {
            const execute = step.op === 'execute';
            const text = execute ? step.sub_box! : `${step.op === 'wait' ? 'W' : 'S'} ${step.signal}`;
            const width = execute
                ? Math.max(LANES.execWidth, textWidth(text) + 8)
                : Math.max(LANES.stepWidth, textWidth(text) + 4);
            const stepNode: ChainlabNode = {
                type: T.step,
                id: `${laneId}.${i}`,
                cssClasses: [`step-${step.op}`],
                position: { x, y: 6 },
                size: { width, height: LANES.height - 12 },
                tooltip: execute ? `execute ${step.sub_box}` : `${step.op} ${step.signal}`,
                children: [placedLabel(`${laneId}.${i}.text`, T.text, text, 4, 6)],
            };
            const sub = execute ? subBoxes.get(step.sub_box!) : undefined;
            if (sub) ctx.trace(stepNode, instances.get(sub.instance));
            lane.children!.push(stepNode);
            x += width + 4;
        });
        lane.size = { width: x + 6, height: LANES.height };
        return lane;
    });
    return { type: T.graph, id: 'root', view: 'lanes', element: `${plan.chain} (${plan.heuristic})`, children };
}
