/**
 * `chainlab throttle-params`: propose throttler parameters for a target (thesis §4.6.4, Yun et al.'s budget analysis).
 */
import type { Command } from 'commander';
import type { BudgetBound, BudgetProposal, DutyCycleProposal, ThrottleResult } from '@chainlab/contract';
import { withBackend } from './backend-session.js';
import { loadIr, processOutput, type Output } from './commands.js';

const num = (v: unknown, digits = 3) => (typeof v === 'number' ? Number(v.toFixed(digits)).toString() : String(v));

export function describeThrottleParams(p: ThrottleResult): string[] {
    const lines = [
        `target ${p.target}: throttle ${p.throttle} (${p.mode}) on best-effort core(s) ${p.be_cores.join(', ')}`,
        '',
    ];
    if (p.mode === 'duty-cycle') {
        const q = p.proposal as DutyCycleProposal;
        lines.push(
            `proposal: sample ${q.sample_ns / 1e3} us, suspend ${q.suspend_ns / 1e3} us, read threshold ${num(q.read_threshold_bps / 1e9, 2)} GB/s (${num(q.read_threshold_pct, 1)}%), write threshold ${num(q.write_threshold_bps / 1e9, 2)} GB/s (${num(q.write_threshold_pct, 1)}%)`,
        );
    } else {
        const budget = p.proposal as BudgetProposal;
        for (const kind of ['single', 'static', 'dynamic'] as const) {
            const r: BudgetBound | undefined = budget[kind];
            if (r)
                lines.push(
                    `${kind.padEnd(8)} Q = ${num(r.Q_ms, 4)} ms = ${r.misses} misses (${num(100 * r.share, 1)}% of the period)`,
                );
        }
        const c = budget.chosen;
        lines.push(`proposal: ${c.distribution}, ${c.budget_misses} misses per ${c.period_ns / 1e6} ms`);
    }
    lines.push(
        '',
        'reasoning',
        ...p.reasoning.map(r => `  - ${r}`),
        '',
        `daemon: chainlab-throttle ${p.daemon_args.join(' ')}`,
    );
    return lines;
}

export interface ThrottleParamsOptions {
    target?: string;
    chain?: string;
    json?: boolean;
}

export async function throttleParamsCommand(
    file: string,
    options: ThrottleParamsOptions,
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const params = await backend.request('throttle/params', { ir, target: options.target!, chain: options.chain });
        if (options.json) output.out(JSON.stringify(params, null, 2));
        else for (const line of describeThrottleParams(params)) output.out(line);
        return 0;
    });
}

export function registerThrottleParams(program: Command): void {
    program
        .command('throttle-params')
        .description(
            'Propose throttler parameters for a target: duty-cycle threshold and suspension (thesis 4.6.4) or the largest budget Q per period P (Yun et al.).',
        )
        .argument('<file>', 'a .chain file')
        .requiredOption('--target <name>', 'the target whose throttle to size')
        .option('--chain <name>', 'the real-time chain (optional when the file has one)')
        .option('--json', 'print the proposal as JSON')
        .action(async (file: string, options: ThrottleParamsOptions) => {
            process.exitCode = await throttleParamsCommand(file, options);
        });
}
