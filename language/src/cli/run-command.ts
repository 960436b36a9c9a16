/**
 * `chainlab generate` (plan → standalone C project) and `chainlab run --target here` (plan, generate, build, run,
 * measure).
 */
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { HEURISTICS, MEMORY_ALLOCATORS, type Heuristic, type MemoryAllocator } from '@chainlab/contract';
import { measuredRun, runExitCode, withBackend } from './backend-session.js';
import { LIMITS, nonNegativeInt, oneOf, positiveInt, scenarioList } from './cli-options.js';
import { loadIr, processOutput, type Output } from './commands.js';
import { quote } from 'shell-quote';

export interface GenerateOptions {
    chain?: string;
    out: string;
    schedule?: Heuristic;
    memory?: MemoryAllocator;
    threads?: number;
    force?: boolean;
    json?: boolean;
}

export async function generateCommand(
    file: string,
    options: GenerateOptions,
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const reply = await backend.request('run/generate', {
            ir,
            chain: options.chain,
            out: resolve(options.out),
            heuristic: options.schedule,
            memory: options.memory,
            threads: options.threads,
            force: options.force,
        });
        if (options.json) output.out(JSON.stringify(reply, null, 2));
        else {
            output.out(
                `chain ${reply.chain}: ${reply.heuristic}/${reply.memory}, ${reply.threads} thread(s) -> ${reply.out} (${reply.files.length} files)`,
            );
            // quoted: a path with a space or a `;` pasted into a shell must not split or run anything else
            const [project, build] = [reply.out, `${reply.out}/build`].map(path => quote([path]));
            output.out(
                `build: cmake -S ${project} -B ${build} && cmake --build ${build} && ${quote([`${reply.out}/build/chain`])}`,
            );
        }
        return 0;
    });
}

export interface RunOptions {
    chain?: string;
    target: string;
    iterations?: number;
    schedule?: Heuristic;
    memory?: MemoryAllocator;
    threads?: number;
    calibrate?: number;
    scenario?: string;
    out?: string;
    json?: boolean;
}

export async function runCommand(file: string, options: RunOptions, output: Output = processOutput): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const reply = await measuredRun(backend, output, options.json, 'run/local', {
            ir,
            file: resolve(file), // the calibration of a chain on a target is kept beside its model
            chain: options.chain,
            target: options.target,
            iterations: options.iterations,
            heuristic: options.schedule,
            memory: options.memory,
            threads: options.threads,
            calibrate: options.calibrate,
            scenario: options.scenario,
            // no -o: the backend's chainlab-runs/CHAIN, named after the chain it picked (not one folder for all)
            out: options.out ? resolve(options.out) : undefined,
        });
        return runExitCode(reply, output);
    });
}

export function registerGenerate(program: Command): void {
    program
        .command('generate')
        .description("Generate a standalone C project (CMake, runtime, README) that runs the chain's plan.")
        .argument('<file>', 'a .chain file')
        .option('--chain <name>', 'the chain (optional when the file has one)')
        .requiredOption('-o, --out <dir>', 'directory of the generated project')
        .option('--schedule <heuristic>', HEURISTICS.join(' | '), oneOf('--schedule', HEURISTICS))
        .option('--memory <allocator>', MEMORY_ALLOCATORS.join(' | '), oneOf('--memory', MEMORY_ALLOCATORS))
        .option('--threads <n>', "number of threads (default: the chain's)", positiveInt('--threads', LIMITS.threads))
        .option('--force', 'write into a non-empty directory that chainlab did not generate')
        .option('--json', 'print the result as JSON')
        .action(async (file: string, options: GenerateOptions) => {
            process.exitCode = await generateCommand(file, options);
        });
}

export function registerRun(program: Command): void {
    program
        .command('run')
        .description(
            'Plan, generate, build (cached) and run the chain on a target (this machine by default) and report measured vs predicted latency; the same run as deploy, once, into one folder.',
        )
        .argument('<file>', 'a .chain file')
        .option('--chain <name>', 'the chain (optional when the file has one)')
        .option(
            '--target <name>',
            'a target of the file, local or ssh (threads = its rt-cores); "here" = this machine',
            'here',
        )
        .option(
            '--iterations <n>',
            "iterations to measure (default: the chain's)",
            positiveInt('--iterations', LIMITS.iterations),
        )
        .option('--schedule <heuristic>', HEURISTICS.join(' | '), oneOf('--schedule', HEURISTICS))
        .option('--memory <allocator>', MEMORY_ALLOCATORS.join(' | '), oneOf('--memory', MEMORY_ALLOCATORS))
        .option(
            '--threads <n>',
            "threads (default: the target's rt-core count)",
            positiveInt('--threads', LIMITS.threads),
        )
        .option(
            '--calibrate <iterations>',
            'first run the chain this many iterations on the target with every sub-box timed, keep the times beside the model (.chainlab/calibration/CHAIN@TARGET.json) and plan and predict with them; later runs on that target use them until you delete the file',
            nonNegativeInt('--calibrate', LIMITS.calibrate),
        )
        .option(
            '--scenario <list>',
            'comma-separated: baseline (chain alone), congested (+ best-effort workload on the be-cores), throttled (+ the throttler); prints a Table 4.4-style comparison',
            scenarioList,
            'baseline',
        )
        .option('-o, --out <dir>', "directory of the run's files (default chainlab-runs/CHAIN)")
        .option('--json', 'print the report as JSON')
        .action(async (file: string, options: RunOptions) => {
            process.exitCode = await runCommand(file, options);
        });
}
