/**
 * `chainlab simulate` (Monte Carlo cross-check of the exact analysis, physical
 * buffers); `chainlab explore` is in explore-command.ts.
 */
import type { Command } from 'commander';
import { withBackend } from './backend-session.js';
import { LIMITS, positiveInt, nonNegativeInt } from './cli-options.js';
import { loadIr, processOutput, type Output } from './commands.js';
import { formatNumber } from '@chainlab/contract';
import { formatMs, formatProbability, textCdf } from './text-plot.js';

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
        output.out(`  CDF band ±${formatNumber(r.dkw_epsilon)} at ${r.confidence * 100} % confidence (DKW)`);
        output.out(
            `  loss rate ${formatProbability(r.loss_rate)} (interval ${formatProbability(r.loss_interval[0])} .. ${formatProbability(r.loss_interval[1])})`,
        );
        if (r.ks_distance !== undefined) {
            output.out(
                `  KS distance to the exact analysis ${formatNumber(r.ks_distance)} (${r.ks_within_band ? 'within' : 'OUTSIDE'} the band)${r.in_order ? '' : ' — production can be out of order here: the tree model departs from physics'}`,
            );
        }
        output.out('CDF P(latency <= x)');
        for (const line of textCdf(r.distribution)) output.out('  ' + line);
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
