/**
 * What an offset sweep (`chainlab/explore`, the backend's ptts/explore) tells the user: the best offsets for
 * the objective and the best points as a table (pure functions, no VS Code). The numbers are the reply's.
 */
import type { ExplorePoint, ExploreResult } from '@chainlab/contract';
import { formatMs as ms, formatProbability as probability } from './number-format';

/** The value a point is ranked by (lower is better; for `deadline` the probability of missing it). */
export function objectiveValue(result: Pick<ExploreResult, 'objective'>, point: ExplorePoint): number {
    switch (result.objective) {
        case 'mean':
            return point.mean_ms;
        case 'p50':
            return point.p50_ms;
        case 'loss':
            return point.loss;
        case 'deadline':
            return 1 - (point.p_deadline ?? 0);
        default:
            return point.p99_ms;
    }
}

/**
 * Candidate periods as typed in the editor: `Wall=16.6,16.7` (ms), several components separated by `;` or spaces.
 * Returns ns per component, or the reason it cannot be read.
 */
export function parseCandidatePeriods(text: string): Record<string, number[]> | string {
    const out: Record<string, number[]> = {};
    for (const part of text.split(/[;\s]+/).filter(Boolean)) {
        const match = /^([A-Za-z_][\w]*)=([\d.,]+)$/.exec(part);
        if (!match) return `'${part}': write NAME=ms,ms (e.g. Wall=16.6,16.7)`;
        const values = match[2].split(',').filter(Boolean).map(Number);
        if (!values.length || values.some(v => !(v > 0) || !Number.isFinite(v)))
            return `'${part}': periods are positive numbers of ms`;
        out[match[1]] = values.map(v => Math.round(v * 1e6));
    }
    return out;
}

function offsetsText(point: ExplorePoint, vary: readonly string[]): string {
    return vary.map(name => `${name} ${ms(point.offsets_ms[name])}`).join(', ');
}

/** One line: the best offsets and what they give. */
export function bestText(result: ExploreResult): string {
    const best = result.best;
    return (
        `best offsets for ${result.objective}: ${offsetsText(best, result.vary)} → p99 ${ms(best.p99_ms)}, ` +
        `mean ${ms(best.mean_ms)}, loss ${probability(best.loss)}`
    );
}

/** The sweep as text for the output: the best line, then the `rows` best points (the best one first). */
export function exploreTable(result: ExploreResult, rows = 10): string[] {
    // the backend's best first (it breaks ties its own way), then the others by the objective, loss, mean
    const same = (a: ExplorePoint, b: ExplorePoint) => result.vary.every(n => a.offsets_ns[n] === b.offsets_ns[n]);
    const others = result.points
        .filter(p => !same(p, result.best))
        .sort(
            (a, b) => objectiveValue(result, a) - objectiveValue(result, b) || a.loss - b.loss || a.mean_ms - b.mean_ms,
        );
    const ranked = [result.best, ...others];
    const header = [...result.vary.map(name => `${name} offset`), 'mean', 'p99', 'max', 'loss'];
    const lines = ranked
        .slice(0, rows)
        .map(p => [
            ...result.vary.map(name => ms(p.offsets_ms[name])),
            ms(p.mean_ms),
            ms(p.p99_ms),
            ms(p.max_ms),
            probability(p.loss),
        ]);
    const widths = header.map((h, i) => Math.max(h.length, ...lines.map(l => l[i].length)));
    const row = (cells: string[]) => cells.map((c, i) => c.padStart(widths[i])).join('  ');
    return [
        `ptts ${result.name}: ${result.points.length} offset combinations, ${bestText(result)}`,
        row(header),
        ...lines.map(row),
    ];
}

/** What the explore chart draws: the objective over one offset (a line) or two (a heat map). */
export interface ExplorePlotData {
    view: 'explore';
    key: string;
    title: string;
    /** The swept components: one or two are drawn (more: the table only). */
    vary: string[];
    /** The axis title of the objective, with its unit. */
    objective: string;
    /** A latency (ms) or a probability (log colour scale / axis where it spans decades). */
    unit: 'ms' | 'probability';
    points: Array<{ x: number; y?: number; value: number }>;
    best: { x: number; y?: number; value: number };
    /** The best offsets and what they give, in words. */
    summary: string;
}

const OBJECTIVE_TITLE: Record<ExploreResult['objective'], [string, ExplorePlotData['unit']]> = {
    p50: ['median latency (ms)', 'ms'],
    p99: ['p99 latency (ms)', 'ms'],
    mean: ['mean latency (ms)', 'ms'],
    loss: ['loss probability', 'probability'],
    deadline: ['P(latency > deadline)', 'probability'],
};

/** The sweep as a chart: every point's offsets (ms) and its objective value. */
export function exploreChart(result: ExploreResult): ExplorePlotData {
    const [xName, yName] = result.vary;
    const at = (p: ExplorePoint) => ({
        x: p.offsets_ms[xName],
        ...(yName !== undefined ? { y: p.offsets_ms[yName] } : {}),
        value: objectiveValue(result, p),
    });
    const [objective, unit] = OBJECTIVE_TITLE[result.objective] ?? [String(result.objective), 'ms'];
    const deadline = result.objective === 'deadline' && result.deadline_ms !== null ? ` ${result.deadline_ms} ms` : '';
    return {
        view: 'explore',
        key: `explore ${result.name} ${result.vary.join(' ')}`,
        title: `ptts ${result.name}: ${objective.replace(' deadline', deadline)} over the offset of ${result.vary.join(' and ')}`,
        vary: [...result.vary],
        objective: objective.replace(' deadline', deadline),
        unit,
        points: result.points.map(at),
        best: at(result.best),
        summary: bestText(result),
    };
}
