/** `chainlab analyze FILE --ptts NAME`: the exact end-to-end latency distribution and loss of a PTTS chain. */
import type { Command } from 'commander';
import {
    formatDuration,
    formatLevel,
    type AnalyzeResult,
    type LossPair,
    type RequirementResult,
} from '@chainlab/contract';
import { positiveInt } from './cli-options.js';
import { loadIr, processOutput, type Output } from './commands.js';
import { withBackend } from './backend-session.js';
import { formatMs, formatProbability, table, textCdf } from './text-plot.js';

export interface AnalyzeOptions {
    ptts?: string;
    json?: boolean;
    perRoot?: boolean;
    maxTrees?: number;
}

export async function analyzeCommand(
    file: string,
    options: AnalyzeOptions,
    output: Output = processOutput,
): Promise<number> {
    const ir = await loadIr(file, output);
    if (!ir) return 1;
    return withBackend(output, async backend => {
        const result = await backend.request('ptts/analyze', {
            ir,
            ptts: options.ptts,
            per_root: options.perRoot ?? false,
            ...(options.maxTrees ? { max_trees: options.maxTrees } : {}),
        });
        if (options.json) {
            output.out(JSON.stringify(result, null, 2));
        } else {
            for (const line of describeAnalysis(result)) output.out(line);
        }
        return result.requirements.every(r => r.passed) ? 0 : 3;
    });
}

function describeRequirement(r: RequirementResult): [string, string, string] {
    const verdict = r.passed ? 'ok' : 'FAIL';
    if (r.kind === 'percentile')
        return [
            verdict,
            `latency p${r.percentile} ${r.op} ${formatMs(r.bound_ms)}`,
            `p${r.percentile} = ${formatMs(r.value_ms)}`,
        ];
    if (r.kind === 'deadline')
        return [
            verdict,
            `latency ${r.op} ${formatMs(r.bound_ms)} with probability >= ${formatLevel(r.required_probability! * 100)} %`,
            missText(r),
        ];
    return [verdict, `loss ${r.op} ${formatProbability(r.limit)}`, `loss = ${formatProbability(r.value)}`];
}

/**
 * What a deadline found, as the plot panel words it: the chance of missing it, since 3 significant digits write
 * a chance of meeting it such as 0.99995 as 1.
 */
function missText(r: RequirementResult): string {
    const miss = formatProbability(Math.max(0, 1 - (r.probability ?? r.value)));
    const allowed = formatProbability(1 - r.required_probability!);
    return `P(> ${formatMs(r.bound_ms)}) ${miss.startsWith('<') ? '' : '= '}${miss}, allowed ${allowed}`;
}

export function describeAnalysis(r: AnalyzeResult): string[] {
    const p = r.percentiles;
    const lines = [
        `${r.source}: ptts ${r.name}: exact end-to-end latency (${r.trees.method} method, ${r.analysis_ms.toFixed(1)} ms)`,
        `  hyper-period ${formatMs(r.hyperperiod_ms)}, ${r.roots} latency trees, time grid ${formatDuration(r.grid_ns)}`,
        `  mean ${formatMs(r.mean_ms)}  std ${formatMs(r.std_ms)}  min ${formatMs(r.min_ms)}  max ${formatMs(r.max_ms)}`,
        `  p50 ${formatMs(p['50'])}  p90 ${formatMs(p['90'])}  p99 ${formatMs(p['99'])}  p99.9 ${formatMs(p['99.9'])}`,
        `  loss probability ${formatProbability(r.loss_probability)} per frame`,
    ];
    const pairs = r.loss_pairs.slice(0, 3);
    if (pairs.length > 0) lines.push(`  largest loss contributions: ${pairs.map(describePair).join('; ')}`);
    if (r.requirements.length > 0) {
        lines.push('requirements');
        lines.push(...table(r.requirements.map(describeRequirement)));
    }
    for (const warning of r.warnings) lines.push(`warning: ${warning}`);
    lines.push('CDF P(latency <= x)');
    lines.push(...textCdf(r.distribution).map(l => '  ' + l));
    return lines;
}

function describePair(pair: LossPair): string {
    return `root ${formatMs(pair.root_ms)} overwritten by ${formatMs(pair.overwritten_by_ms)} (p ${formatProbability(pair.probability)})`;
}

export function registerAnalyze(program: Command): void {
    program
        .command('analyze')
        .description(
            'Exact end-to-end latency distribution and loss probability of a PTTS chain (thesis chapter 5). Exit 3 when a requirement fails.',
        )
        .argument('<file>', 'a .chain file')
        .option('--ptts <name>', 'the ptts to analyse (optional when the file has one)')
        .option('--json', 'print one JSON object (distribution, percentiles, loss, requirements, timing)')
        .option('--per-root', 'include the distribution of every latency tree (root)')
        .option('--max-trees <n>', 'refuse exact analysis above this many latency trees', positiveInt('--max-trees'))
        .action(async (file: string, options: AnalyzeOptions) => {
            process.exitCode = await analyzeCommand(file, options);
        });
}
