/**
 * The parts of *Import measured times from CSV* that need no editor: the choices it offers and what the output
 * channel and the notification say about the edit.
 */
import type { ModelElements, RequestResultOf } from '@chainlab/contract';

export const TIMINGS_FILTERS: Record<string, string[]> = { 'Measured times (CSV)': ['csv', 'txt'] };

export const STATISTICS = ['median', 'mean', 'p90', 'p99', 'max'] as const;
export type Statistic = (typeof STATISTICS)[number];

/** One choice of where the times go: a chain (its boxes) or a ptts (its components). */
export interface TimingsTargetItem {
    label: string;
    description: string;
    target: { chain: string } | { ptts: string };
}

export function targetItems(elements: Pick<ModelElements, 'chain' | 'ptts'>): TimingsTargetItem[] {
    return [
        ...elements.chain.map(c => ({
            label: `chain ${c.name}`,
            description: 'its boxes, by box or instance name',
            target: { chain: c.name },
        })),
        ...elements.ptts.map(p => ({
            label: `ptts ${p.name}`,
            description: 'its components',
            target: { ptts: p.name },
        })),
    ];
}

export interface AsItem {
    label: string;
    description: string;
    as: 'cost' | 'etp';
}

/** Cost (a statistic) or ETP (the binned times), the usual one first: cost for a chain's boxes, etp for components. */
export function asItems(target: TimingsTargetItem['target']): AsItem[] {
    const cost: AsItem = {
        label: 'chain' in target ? 'cost' : 'etp point',
        description: 'one statistic of the measured times',
        as: 'cost',
    };
    const etp: AsItem = { label: 'etp pmf', description: 'the measured distribution, at most 50 points', as: 'etp' };
    return 'chain' in target ? [cost, etp] : [etp, cost];
}

/** What the output channel says: the CSV, then each setting written and the names left as they were. */
export function timingsLog(csv: string, result: RequestResultOf<'chainlab/importTimings'>): string[] {
    return [
        `  ${csv}: ${result.rows} row(s)`,
        ...result.settings.map(s => `  ${s.element}: ${s.text} (${s.detail})`),
        ...(result.untouched.length ? [`  not in the CSV (left as they are): ${result.untouched.join(', ')}`] : []),
    ];
}

export function timingsMessage(result: RequestResultOf<'chainlab/importTimings'>): string {
    const n = result.settings.length;
    return `chainlab: measured times set in ${n} element${n === 1 ? '' : 's'} (undo reverts them; details in the output)`;
}
