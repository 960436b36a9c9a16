/**
 * `chainlab overview FILE`: check a model and run every analysis chainlab has on it, with a readable
 * summary.
 */
import type { Command } from 'commander';
import { BackendModelError } from '../backend-rpc/backend-client.js';
import type { IrModel } from '../ir/ir-types.js';
import { withBackend } from './backend-session.js';
import { loadIr, processOutput, type Output } from './commands.js';
import { formatMs, formatProbability, table } from './text-plot.js';
import { quote } from 'shell-quote';
import { errorLine } from './error-line.js';

const MiB = 1024 * 1024;

export function describeModel(ir: IrModel): string[] {
    const lines = [
        `${ir.source}: ${ir.platforms.length} platform(s), ${ir.images.length} image type(s), ${ir.boxes.length} box(es), ${ir.chains.length} chain(s), ${ir.ptts.length} ptts, ${ir.throttles.length} throttle(s), ${ir.targets.length} target(s)`,
    ];
    for (const chain of ir.chains) {
        const bytes = chain.connections.reduce((n, c) => n + c.bytes, 0);
        lines.push(
            `  chain ${chain.name}${chain.platform ? ` on ${chain.platform}` : ''}: ${chain.instances.length} boxes, ${chain.connections.length} buffers (${(bytes / MiB).toFixed(1)} MiB without reuse), schedule ${chain.schedule.heuristic} on ${chain.schedule.threads} thread(s), cores ${chain.schedule.cores.join(',')}, memory ${chain.memory}`,
        );
    }
    for (const ptts of ir.ptts) {
        lines.push(
            `  ptts ${ptts.name}: ${ptts.components.map(c => `${c.name} (${formatMs(c.period_ns / 1e6)})`).join(' → ')}`,
        );
    }
    for (const target of ir.targets) {
        lines.push(
            `  target ${target.name}: ${target.kind === 'local' ? 'this machine' : `ssh ${target.user ? target.user + '@' : ''}${target.host}:${target.port}`}, rt cores ${target.rt_cores.join(',') || '-'}, be cores ${target.be_cores.join(',') || '-'}${target.throttle ? `, throttle ${target.throttle}` : ''}`,
        );
    }
    return lines;
}

export async function overviewCommand(file: string, output: Output = processOutput): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    output.out('== model');
    for (const line of describeModel(ir)) output.out(line);
    if (ir.ptts.length === 0 && ir.chains.length === 0) return 0;
    return withBackend(output, async backend => {
        let failures = 0;
        if (ir.chains.length > 0) {
            output.out('\n== plan of each chain (chainlab plan)');
            const planRows: string[][] = [
                [
                    'chain',
                    'schedule',
                    'threads',
                    'sub-boxes',
                    'signals',
                    'arena',
                    'lower bound',
                    'predicted p99',
                    'check',
                ],
            ];
            for (const chain of ir.chains) {
                try {
                    const plan = await backend.request('plan/make', { ir, chain: chain.name });
                    planRows.push([
                        chain.name,
                        `${plan.heuristic}/${plan.memory}`,
                        String(plan.threads.length),
                        String(plan.sub_boxes.length),
                        String(plan.signals.length),
                        `${(plan.arena_bytes / MiB).toFixed(1)} MiB`,
                        `${(plan.lower_bound_bytes / MiB).toFixed(1)} MiB`,
                        formatMs(plan.latency.p99_ns / 1e6),
                        plan.check.ok ? 'deadlock-free' : 'FAILED',
                    ]);
                } catch (error) {
                    if (!(error instanceof BackendModelError)) throw error;
                    failures++;
                    planRows.push([chain.name, '-', '-', '-', '-', '-', '-', '-', 'not planned']);
                    output.err(errorLine(error.message));
                }
            }
            for (const line of table(planRows)) output.out(line);
        }
        if (ir.ptts.length === 0) return failures > 0 ? 1 : 0;
        output.out('\n== exact end-to-end latency of each ptts (chainlab analyze)');
        const rows: string[][] = [['ptts', 'trees', 'mean', 'p99', 'max', 'loss', 'requirements', 'time']];
        for (const ptts of ir.ptts) {
            try {
                const r = await backend.request('ptts/analyze', { ir, ptts: ptts.name });
                const failed = r.requirements.filter(q => !q.passed).length;
                rows.push([
                    ptts.name,
                    String(r.roots),
                    formatMs(r.mean_ms),
                    formatMs(r.percentiles['99']),
                    formatMs(r.max_ms),
                    formatProbability(r.loss_probability),
                    r.requirements.length === 0
                        ? '-'
                        : failed === 0
                          ? `all ${r.requirements.length} met`
                          : `${failed} of ${r.requirements.length} FAIL`,
                    `${r.analysis_ms.toFixed(1)} ms`,
                ]);
            } catch (error) {
                if (!(error instanceof BackendModelError)) throw error;
                failures++;
                rows.push([ptts.name, '-', '-', '-', '-', '-', 'not analysed', '-']);
                output.err(errorLine(error.message));
            }
        }
        for (const line of table(rows)) output.out(line);
        output.out(
            `\nDetails: npx chainlab plan ${quote([file])} --chain NAME, npx chainlab analyze ${quote([file])} --ptts NAME`,
        );
        return failures > 0 ? 1 : 0;
    });
}

export function registerOverview(program: Command): void {
    program
        .command('overview')
        .description('Check a model and run every analysis chainlab has on it, with a readable summary.')
        .argument('<file>', 'a .chain file')
        .action(async (file: string) => {
            process.exitCode = await overviewCommand(file);
        });
}
