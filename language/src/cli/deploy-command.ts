/** `chainlab deploy` (an experiment on a local or ssh target: scenarios, collect, report) and `chainlab trust-host`. */
import { resolve } from 'node:path';
import { InvalidArgumentError, type Command } from 'commander';
import { HEURISTICS, MEMORY_ALLOCATORS, SCENARIOS, type Heuristic, type MemoryAllocator } from '@chainlab/contract';
import { measuredRun, runExitCode, withBackend } from './backend-session.js';
import { LIMITS, nonNegativeInt, oneOf, positiveInt, scenarioList } from './cli-options.js';
import { loadIr, processOutput, type Output } from './commands.js';

export interface DeployOptions {
    chain?: string;
    target: string;
    scenario: string;
    iterations?: number;
    calibrate?: number;
    schedule?: Heuristic;
    memory?: MemoryAllocator;
    threads?: number;
    runs?: string;
    json?: boolean;
}

export async function deployCommand(
    file: string,
    options: DeployOptions,
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const reply = await measuredRun(backend, output, options.json, 'deploy/run', {
            ir,
            file,
            chain: options.chain,
            target: options.target,
            scenario: options.scenario,
            iterations: options.iterations,
            calibrate: options.calibrate,
            heuristic: options.schedule,
            memory: options.memory,
            threads: options.threads,
            runs: resolve(options.runs ?? 'runs'),
        });
        return runExitCode(reply, output);
    });
}

export interface TrustHostOptions {
    target: string;
    replace?: string;
    json?: boolean;
}

export async function trustHostCommand(
    file: string,
    options: TrustHostOptions,
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const reply = await backend.request('deploy/trust-host', {
            ir,
            target: options.target,
            file,
            ...(options.replace ? { replace: options.replace } : {}),
        });
        if (options.json) output.out(JSON.stringify(reply, null, 2));
        else
            output.out(
                `${reply.host} (target ${reply.target}): ${reply.fingerprint} ${reply.added ? `added to ${reply.known_hosts}` : `already in ${reply.known_hosts}`}`,
            );
        for (const warning of reply.warnings ?? []) output.err(`chainlab: warning: ${warning}`);
        return 0;
    });
}

function fingerprintOption(value: string): string {
    if (!/^SHA256:[A-Za-z0-9+/=]+$/.test(value))
        throw new InvalidArgumentError(`--replace: expected a fingerprint like SHA256:abc..., got '${value}'`);
    return value;
}

export function registerDeploy(program: Command): void {
    program
        .command('deploy')
        .description(
            'Run the chain on a target (this machine or a lab machine over SSH) in every scenario, each run in a dated folder under --runs; the same run as `run` with other defaults.',
        )
        .argument('<file>', 'a .chain file')
        .option('--chain <name>', 'the chain (optional when the file has one)')
        .option('--target <name>', 'a target of the file ("here" = this machine)', 'here')
        .option(
            '--scenario <list>',
            'baseline, congested (+ best-effort workload), throttled (+ the throttler)',
            scenarioList,
            SCENARIOS.join(','),
        )
        .option(
            '--iterations <n>',
            "iterations per scenario (default: the chain's)",
            positiveInt('--iterations', LIMITS.iterations),
        )
        .option(
            '--calibrate <iterations>',
            'first run the chain this many iterations on the target with every sub-box timed, keep the times beside the model (.chainlab/calibration/CHAIN@TARGET.json) and plan and predict with them; later runs on that target use them until you delete the file',
            nonNegativeInt('--calibrate', LIMITS.calibrate),
        )
        .option('--schedule <heuristic>', HEURISTICS.join(' | '), oneOf('--schedule', HEURISTICS))
        .option('--memory <allocator>', MEMORY_ALLOCATORS.join(' | '), oneOf('--memory', MEMORY_ALLOCATORS))
        .option(
            '--threads <n>',
            "threads (default: the target's rt-core count)",
            positiveInt('--threads', LIMITS.threads),
        )
        .option('--runs <dir>', 'where runs are stored (default runs/)')
        .option('--json', 'print the results as JSON')
        .action(async (file: string, options: DeployOptions) => {
            process.exitCode = await deployCommand(file, options);
        });
    program
        .command('trust-host')
        .description(
            'Show the SSH host key fingerprint of a target and add it to known_hosts (check it against the lab machine first).',
        )
        .argument('<file>', 'a .chain file')
        .requiredOption('--target <name>', 'an ssh target of the file')
        .option(
            '--replace <fingerprint>',
            'the known key (SHA256:...) to replace when the host key changed (refused otherwise)',
            fingerprintOption,
        )
        .option('--json', 'print the result as JSON')
        .action(async (file: string, options: TrustHostOptions) => {
            process.exitCode = await trustHostCommand(file, options);
        });
}
