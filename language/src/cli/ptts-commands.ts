/**
 * `chainlab simulate` (Monte Carlo cross-check of the exact analysis, physical
 * buffers) and `chainlab explore` (offset sweep, thesis Figure 5.14).
 */
import type { Command } from 'commander';
import { OBJECTIVES, type Objective } from '@chainlab/contract';
import { withBackend } from './backend-session.js';
import { duration, LIMITS, oneOf, positiveInt, nonNegativeInt } from './cli-options.js';
import { loadIr, processOutput, type Output } from './commands.js';
import { formatMs, formatProbability, table, textCdf } from './text-plot.js';

export interface SimulateOptions {
    ptts?: string;
    iterations: number;
    seed: number;
    json?: boolean;
}

export async function simulateCommand(
    file: string,
    options: SimulateOptions,
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const r = await backend.request('ptts/simulate', {
            ir,
            ptts: options.ptts,
            iterations: options.iterations,
            seed: options.seed,
        });
        if (options.json) {
            output.out(JSON.stringify(r, null, 2));
            return 0;
        }
        output.out(
            `${r.source}: Monte Carlo simulation, ${r.iterations} triggers of the first component, seed ${r.seed} (${r.simulation_ms.toFixed(1)} ms) — approximate`,
        );
        output.out(
            `  mean ${formatMs(r.mean_ms)}  std ${formatMs(r.std_ms)}  min ${formatMs(r.min_ms)}  max ${formatMs(r.max_ms)}`,
        );
        output.out(
            `  p50 ${formatMs(r.percentiles['50'])}  p90 ${formatMs(r.percentiles['90'])}  p99 ${formatMs(r.percentiles['99'])}  p99.9 ${formatMs(r.percentiles['99.9'])}`,
        );
        output.out(`  CDF band ±${r.dkw_epsilon.toFixed(4)} at ${r.confidence * 100} % confidence (DKW)`);
        output.out(
            `  loss rate ${formatProbability(r.loss_rate)} (interval ${formatProbability(r.loss_interval[0])} .. ${formatProbability(r.loss_interval[1])})`,
        );
        if (r.ks_distance !== undefined) {
            output.out(
                `  KS distance to the exact analysis ${r.ks_distance.toFixed(4)} (${r.ks_within_band ? 'within' : 'OUTSIDE'} the band)${r.in_order ? '' : ' — production can be out of order here: the tree model departs from physics'}`,
            );
        }
        output.out('CDF P(latency <= x)');
        for (const line of textCdf(r.distribution)) output.out('  ' + line);
        return 0;
    });
}

export interface ExploreOptions {
    ptts?: string;
    vary: string[];
    step?: number;
    objective: Objective;
    json?: boolean;
}

export async function exploreCommand(
    file: string,
    options: ExploreOptions,
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const started = Date.now();
        const r = await backend.request(
            'ptts/explore',
            {
                ir,
                ptts: options.ptts,
                vary: options.vary,
                objective: options.objective,
                ...(options.step ? { step_ns: options.step } : {}),
            },
            { onProgress: p => process.stderr.write(`\r  ${Math.round(p.fraction * 100)} % ${p.message}`) },
        );
        if (options.json) {
            output.out(JSON.stringify(r, null, 2));
            return 0;
        }
        output.out(
            `${r.source}: ptts ${r.name}: ${r.points.length} offset combinations of ${r.vary.join(', ')} (exact, ${r.workers} workers, ${((Date.now() - started) / 1000).toFixed(1)} s), objective ${r.objective}`,
        );
        const deadline = r.deadline_ms !== null ? `P(<= ${formatMs(r.deadline_ms)})` : 'P(deadline)';
        const rows = [[...r.vary.map(v => `${v} offset`), 'mean', 'p99', 'max', deadline, 'loss']];
        const shown =
            r.points.length <= 40 ? r.points : r.points.filter((_, i) => i % Math.ceil(r.points.length / 40) === 0);
        for (const point of shown) {
            rows.push([
                ...r.vary.map(v => formatMs(point.offsets_ms[v])),
                formatMs(point.mean_ms),
                formatMs(point.p99_ms),
                formatMs(point.max_ms),
                point.p_deadline === undefined ? '-' : formatProbability(point.p_deadline),
                formatProbability(point.loss),
            ]);
        }
        for (const line of table(rows)) output.out(line);
        if (shown.length < r.points.length)
            output.out(`  (${shown.length} of ${r.points.length} points shown; --json lists all)`);
        const best = r.best;
        output.out(
            `best for ${r.objective}: ${r.vary.map(v => `${v} offset ${formatMs(best.offsets_ms[v])}`).join(', ')} → mean ${formatMs(best.mean_ms)}, p99 ${formatMs(best.p99_ms)}, loss ${formatProbability(best.loss)}`,
        );
        return 0;
    });
}

export function registerSimulate(program: Command): void {
    program
        .command('simulate')
        .description(
            'Monte Carlo simulation of a PTTS chain with physical one-place buffers (approximate; cross-checks analyze).',
        )
        .argument('<file>', 'a .chain file')
        .option('--ptts <name>', 'the ptts to simulate (optional when the file has one)')
        .option(
            '--iterations <n>',
            'triggers of the first component to simulate',
            positiveInt('--iterations', LIMITS.simulateIterations),
            10_000,
        )
        .option('--seed <n>', 'random seed', nonNegativeInt('--seed'), 0)
        .option('--json', 'print one JSON object')
        .action(async (file: string, options: SimulateOptions) => {
            process.exitCode = await simulateCommand(file, options);
        });
}

export function registerExplore(program: Command): void {
    program
        .command('explore')
        .description(
            'Sweep the offsets of components over their period and find the best (exact analysis per point, on all cores).',
        )
        .argument('<file>', 'a .chain file')
        .option('--ptts <name>', 'the ptts to explore (optional when the file has one)')
        .requiredOption('--vary <component...>', 'component(s) whose offset to sweep')
        .option(
            '--step <duration>',
            "offset step, e.g. '1 ms' (default: the time grid or period/20)",
            duration('--step'),
        )
        .option('--objective <what>', OBJECTIVES.join(' | '), oneOf('--objective', OBJECTIVES), 'p99')
        .option('--json', 'print one JSON object with every point')
        .action(async (file: string, options: ExploreOptions) => {
            process.exitCode = await exploreCommand(file, options);
        });
}
