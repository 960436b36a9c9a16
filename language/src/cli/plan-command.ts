/** `chainlab plan` (box chain → static schedule, buffers, signals, predicted latency) and `chainlab synth`. */
import type { Command } from 'commander';
import {
    HEURISTICS,
    MEMORY_ALLOCATORS,
    type Heuristic,
    type MemoryAllocator,
    type PlanResult,
    type PlanStep,
} from '@chainlab/contract';
import { withBackend } from './backend-session.js';
import { integer, LIMITS, nonNegativeInt, oneOf, positiveInt } from './cli-options.js';
import { loadIr, processOutput, type Output } from './commands.js';
import { formatMs, table } from './text-plot.js';

const KiB = (bytes: number) => `${(bytes / 1024).toFixed(0)} KiB`;

function stepText(step: PlanStep): string {
    if (step.op === 'wait') return `W ${step.signal}`;
    if (step.op === 'signal') return `S ${step.signal}`;
    if (step.op === 'execute') return `E ${step.sub_box}`;
    return step.op.toUpperCase();
}

export function describePlan(plan: PlanResult): string[] {
    const ms = (ns: number) => formatMs(ns / 1e6);
    const lines = [
        `${plan.source}: chain ${plan.chain}: ${plan.heuristic} schedule on ${plan.threads.length} thread(s), memory ${plan.memory}; ${plan.check.ok ? 'deadlock-free' : 'CHECK FAILED'} (${plan.check.message})`,
        '',
        'threads (W wait, E execute, S signal)',
        ...table(
            plan.threads.map(t => [
                t.name,
                t.core === null ? 'unpinned' : `core ${t.core}`,
                t.steps.map(stepText).join(', '),
            ]),
        ),
        '',
        'sub-boxes',
        ...table([
            ['sub-box', 'box', 'kernel', 'rows', 'thread', 'cost'],
            ...plan.sub_boxes.map(s => [
                s.name,
                s.box,
                s.kernel,
                `${s.rows[0]}..${s.rows[1]}`,
                String(s.thread),
                ms(s.estimated_cost_ns),
            ]),
        ]),
        '',
        'buffers',
        ...table([['buffer', 'offset', 'size'], ...plan.buffers.map(b => [b.name, String(b.offset), String(b.size)])]),
        `  arena ${KiB(plan.arena_bytes)}, lower bound ${KiB(plan.lower_bound_bytes)}, sum of buffers ${KiB(plan.sum_bytes)}; peak active data ${KiB(plan.active_data.peak_bytes)}`,
        '',
        `signals (${plan.signals.length}, ${plan.signals.filter(s => s.initial_tokens > 0).length} with an initial token)`,
        ...table(
            plan.signals.map(s => [
                `${s.initial_tokens > 0 ? '!' : ' '}${s.name}`,
                s.kind,
                `${s.from.sub_box} -> ${s.to.sub_box}`,
            ]),
        ),
        '',
        `predicted latency (${plan.latency.samples} simulated iterations, model costs): mean ${ms(plan.latency.mean_ns)}  std ${ms(plan.latency.std_ns)}  p50 ${ms(plan.latency.p50_ns)}  p99 ${ms(plan.latency.p99_ns)}  max ${ms(plan.latency.max_ns)}${plan.latency.overloaded ? '  (OVERLOADED: the iteration takes longer than the period)' : ''}`,
    ];
    for (const note of plan.notes) lines.push(`note: ${note}`);
    return lines;
}

export interface PlanOptions {
    chain?: string;
    schedule?: Heuristic;
    memory?: MemoryAllocator;
    threads?: number;
    seed?: number;
    json?: boolean;
}

export async function planCommand(file: string, options: PlanOptions, output: Output = processOutput): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const plan = await backend.request('plan/make', {
            ir,
            chain: options.chain,
            heuristic: options.schedule,
            memory: options.memory,
            threads: options.threads,
            seed: options.seed,
        });
        if (options.json) output.out(JSON.stringify(plan, null, 2));
        else for (const line of describePlan(plan)) output.out(line);
        return plan.check.ok ? 0 : 1;
    });
}

export function registerPlan(program: Command): void {
    program
        .command('plan')
        .description(
            'Turn a box chain into a plan: data-parallel sub-boxes, a static schedule on pinned threads, buffers, signals, predicted latency.',
        )
        .argument('<file>', 'a .chain file')
        .option('--chain <name>', 'the chain to plan (optional when the file has one)')
        .option('--schedule <heuristic>', HEURISTICS.join(' | '), oneOf('--schedule', HEURISTICS))
        .option('--memory <allocator>', MEMORY_ALLOCATORS.join(' | '), oneOf('--memory', MEMORY_ALLOCATORS))
        .option('--threads <n>', "number of threads (default: the chain's)", positiveInt('--threads', LIMITS.threads))
        .option('--seed <n>', 'seed of the latency prediction', nonNegativeInt('--seed'))
        .option('--json', 'print the plan as JSON')
        .action(async (file: string, options: PlanOptions) => {
            process.exitCode = await planCommand(file, options);
        });
}

export function registerSynth(program: Command): void {
    program
        .command('synth')
        .description("Print a synthetic image-processing chain (.chain text) like the thesis' generator.")
        .option('--boxes <n>', 'number of boxes', integer('--boxes', LIMITS.synthBoxes.min, LIMITS.synthBoxes.max), 100)
        .option('--seed <n>', 'random seed', nonNegativeInt('--seed'), 0)
        .action(async (options: { boxes: number; seed: number }) => {
            process.exitCode = await withBackend(processOutput, async backend => {
                const { text } = await backend.request('plan/synth', { boxes: options.boxes, seed: options.seed });
                process.stdout.write(text.endsWith('\n') ? text : text + '\n');
                return 0;
            });
        });
}
