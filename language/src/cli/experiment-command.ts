/**
 * `chainlab experiment heuristics`: the synthetic experiment of papers 002/003 (every heuristic x allocator on N
 * seeded synthetic chains, Tables I-III, box plots), planned on the sweep engine, optionally run on a target.
 */
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { InvalidArgumentError, type Command } from 'commander';
import { measuredRun, withBackend } from './backend-session.js';
import { LIMITS, nonNegativeInt, positiveInt } from './cli-options.js';
import { loadIr, processOutput, type Output } from './commands.js';

export interface HeuristicsOptions {
    chain?: string;
    chains: number;
    seed?: number;
    boxes?: number;
    threads?: number;
    samples?: number;
    out: string;
    resume?: boolean;
    scheduler?: string;
    target?: string;
    iterations?: number;
    json?: boolean;
}

/** The X-ray chain of the samples (Table I), found upwards from this module (out/ and dist/ differ in depth). */
export function defaultModel(): string | undefined {
    let dir = dirname(fileURLToPath(import.meta.url));
    for (;;) {
        const candidate = join(dir, 'samples', 'xray.chain');
        if (existsSync(candidate)) return candidate;
        const parent = dirname(dir);
        if (parent === dir) return undefined;
        dir = parent;
    }
}

function schedulerOption(value: string): string {
    if (value === 'process' || value === 'local' || /^(tcp|tls|inproc|ucx|ws|wss):\/\/\S+$/.test(value)) return value;
    throw new InvalidArgumentError(
        `--scheduler is 'local', 'process' or a Dask scheduler address such as tcp://HOST:8786, not '${value.slice(0, 40)}'`,
    );
}

export async function heuristicsCommand(
    file: string | undefined,
    options: HeuristicsOptions,
    output: Output = processOutput,
): Promise<number> {
    const model = file ?? defaultModel();
    const ir = model ? await loadIr(model, output) : undefined;
    if (model && !ir) return 1;
    return withBackend(output, async backend => {
        const reply = await measuredRun(backend, output, options.json, 'experiment/heuristics', {
            ir,
            file: model ? resolve(model) : undefined,
            chain: options.chain,
            chains: options.chains,
            seed: options.seed,
            boxes: options.boxes,
            threads: options.threads,
            samples: options.samples,
            out: resolve(options.out),
            resume: options.resume ?? false,
            scheduler: options.scheduler,
            target: options.target,
            iterations: options.iterations,
        });
        if (!options.json) {
            output.out('');
            output.out(
                `${reply.chains_done} of ${reply.chains} chain(s) (${reply.chains_resumed} read back from results.csv) in ${reply.wall_s.toFixed(1)} s (planning ${reply.planning_s.toFixed(1)} s on ${reply.engine})`,
            );
            for (const f of reply.files) output.out(`  ${f}`);
        }
        if (reply.status === 'stopped') {
            output.err(
                `chainlab: interrupted: the ${reply.chains_done} chain(s) done are kept in ${reply.out}; --resume continues`,
            );
            return 130;
        }
        return reply.status === 'ok' ? 0 : 1;
    });
}

export function registerExperiment(program: Command): void {
    const experiment = program
        .command('experiment')
        .description("Reproduce the papers' experiments on chainlab's planner (and, with --target, on a machine).");
    experiment
        .command('heuristics')
        .description(
            'Papers 002/003: every heuristic x allocator on N seeded synthetic chains; Tables I-III (predicted mean, sigma, p99, arena; ratios to simple/naive), box plots; results.csv written as chains finish, --resume continues.',
        )
        .argument(
            '[file]',
            'model whose chain gives Table I and whose targets --target names (default: samples/xray.chain)',
        )
        .option('--chain <name>', "the model's chain (optional when it has one)")
        .option('--chains <n>', 'number of synthetic chains', positiveInt('--chains', 100_000), 250)
        .option('--seed <n>', 'seed of the first chain (chain k: seed + k)', nonNegativeInt('--seed', 2 ** 31 - 1))
        .option('--boxes <n>', 'boxes per synthetic chain (default 100)', positiveInt('--boxes', 10_000))
        .option(
            '--threads <n>',
            'threads of the pinned heuristics (default 4)',
            positiveInt('--threads', LIMITS.threads),
        )
        .option(
            '--samples <n>',
            'latency samples of each prediction (default 1000)',
            positiveInt('--samples', 1_000_000),
        )
        .option('-o, --out <dir>', 'directory of results.csv, tables.md, boxplot.png/.svg', 'experiment-heuristics')
        .option('--resume', 'continue the results already in --out (nothing is recomputed)')
        .option(
            '--scheduler <address>',
            "where the sweep runs: 'local' (default: a Dask LocalCluster here), 'process' (the backend alone) or tcp://HOST:PORT (an existing Dask scheduler)",
            schedulerOption,
        )
        .option(
            '--target <name>',
            "also run every plan on this target of the model ('here': this machine), one at a time",
        )
        .option(
            '--iterations <n>',
            'iterations of each run on the target (default 200)',
            positiveInt('--iterations', LIMITS.iterations),
        )
        .option('--json', 'print the reply as JSON')
        .action(async (file: string | undefined, options: HeuristicsOptions) => {
            process.exitCode = await heuristicsCommand(file, options);
        });
}
