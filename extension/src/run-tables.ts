/**
 * A run's tables beside its latency plot: every scenario (status, iterations, latency against the baseline, KS,
 * best-effort load, throttling, the PTTS system's p99 with the measured chain, checksum) and the phases of the run,
 * every value in the one number format and in words (no raw flags, objects or NaN). Pure, no VS Code.
 */
import type { RunReport } from '@chainlab/contract';
import { formatCount, formatMs, formatNumber } from './number-format';

/** A table of cells, its first column naming the row. */
export interface DetailTable {
    id: 'scenarios' | 'phases';
    caption: string;
    head: string[];
    rows: string[][];
}

type Scenario = RunReport['scenarios'][number];

/** What the run's tables read of its report. */
export type RunTablesReply = Pick<RunReport, 'scenarios'> & Partial<Pick<RunReport, 'phases_s' | 'checksums_equal'>>;

const SCENARIO_HEAD = [
    'scenario',
    'status',
    'iterations',
    'mean ms',
    'p99 ms',
    'mean vs baseline',
    'KS',
    'best-effort load',
    'cores suspended',
    'end-to-end p99',
    'checksum',
];

function status(s: Scenario): string {
    const words = [s.status === 'ok' ? 'ok' : s.status.toUpperCase()];
    if (s.overloaded) words.push('overloaded');
    const error = s.error ? `: ${s.error.length > 200 ? `${s.error.slice(0, 199)}…` : s.error}` : '';
    return words.join(', ') + error;
}

function suspended(s: Scenario): string {
    const t = s.throttle;
    if (!t?.wall_ns || !t.cores.length) return '–';
    const total = t.cores.reduce((sum, c) => sum + c.suspended_ns, 0);
    return `${formatNumber((100 * total) / (t.wall_ns * t.cores.length))} %`;
}

/** The first PTTS system that runs the chain, analysed with the measured latency. */
function endToEnd(s: Scenario): string {
    const found = s.ptts?.[0];
    if (!found) return '–';
    return 'p99_ms' in found ? `${found.ptts}: ${formatMs(found.p99_ms)}` : `${found.ptts}: not analysed`;
}

function scenarioRow(s: Scenario, checksumsEqual: boolean): string[] {
    const measured = (s.measured.samples ?? 0) > 0;
    const ms = (ns: number | undefined) => (measured ? formatNumber((ns ?? NaN) / 1e6) : '–');
    const increase = s.increase_pct;
    return [
        s.scenario,
        status(s),
        `${formatCount(s.completed)} / ${formatCount(s.iterations)}`,
        ms(s.measured.mean_ns),
        ms(s.measured.p99_ns),
        increase === undefined ? '–' : `${increase > 0 ? '+' : ''}${formatNumber(increase)} %`,
        formatNumber(s.ks),
        s.be_bytes_per_s ? `${formatNumber(s.be_bytes_per_s / 1e9)} GB/s` : '–',
        suspended(s),
        endToEnd(s),
        (s.checksum ?? '–') + (checksumsEqual || !s.checksum ? '' : ' (differs)'),
    ];
}

/** The scenarios of a run and, where the report has them, its phases. */
export function runTables(reply: RunTablesReply): DetailTable[] {
    const tables: DetailTable[] = [
        {
            id: 'scenarios',
            caption: 'Scenarios',
            head: SCENARIO_HEAD,
            rows: reply.scenarios.map(s => scenarioRow(s, reply.checksums_equal ?? true)),
        },
    ];
    const phases = Object.entries(reply.phases_s ?? {});
    if (phases.length) {
        const total = phases.reduce((sum, [, s]) => sum + s, 0);
        tables.push({
            id: 'phases',
            caption: 'Phases',
            head: ['phase', 'time'],
            rows: [...phases, ['total', total] as const].map(([name, s]) => [name, `${formatNumber(s)} s`]),
        });
    }
    return tables;
}
