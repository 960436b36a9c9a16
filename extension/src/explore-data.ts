/**
 * What an offset sweep (`chainlab/explore`, the backend's ptts/explore) tells the user: the best offsets for
 * the objective, what the objective does not depend on, and the best points as a table (pure functions, no VS
 * Code). The numbers, the ties and the dependence are the reply's: the backend decides them once for the CLI too.
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

const OBJECTIVE_NOUN: Record<ExploreResult['objective'], string> = {
    p50: 'the median latency',
    p99: 'the p99 latency',
    mean: 'the mean latency',
    loss: 'the loss probability',
    deadline: 'the probability of missing the deadline',
};

/** The offsets (and periods of two or more candidates) the objective does not depend on: "C1's offset". */
function independentSettings(result: ExploreResult): string[] {
    return [
        ...result.vary.filter(name => result.depends.offsets[name] === false).map(name => `${name}'s offset`),
        ...Object.keys(result.periods_ns)
            .filter(name => result.periods_ns[name].length > 1 && result.depends.periods[name] === false)
            .map(name => `${name}'s period`),
    ];
}

/** "the mean latency does not depend on C1's offset", or undefined where it depends on everything swept. */
export function independenceText(result: ExploreResult): string | undefined {
    const settings = independentSettings(result);
    if (!settings.length) return undefined;
    return `${OBJECTIVE_NOUN[result.objective] ?? result.objective} does not depend on ${settings.join(' or ')}`;
}

/** Whether nothing swept changes the objective: a flat line or heat map, said in words. */
export function isFlat(result: ExploreResult): boolean {
    const swept = result.vary.length + Object.values(result.periods_ns).filter(c => c.length > 1).length;
    return swept > 0 && independentSettings(result).length === swept;
}

/** What *Apply best offsets* writes: the best point's offsets and periods that differ from the model's. */
export function bestChanges(result: ExploreResult): {
    offsets_ns: Record<string, number>;
    periods_ns: Record<string, number>;
} {
    const differ = (best: Record<string, number>, now: Record<string, number> | undefined) =>
        Object.fromEntries(Object.entries(best).filter(([name, ns]) => now?.[name] !== ns));
    return {
        offsets_ns: differ(result.best.offsets_ns, result.current?.offsets_ns),
        periods_ns: differ(result.best.periods_ns, result.current?.periods_ns),
    };
}

const changeCount = (result: ExploreResult) => {
    const { offsets_ns, periods_ns } = bestChanges(result);
    return Object.keys(offsets_ns).length + Object.keys(periods_ns).length;
};

/** The best offsets, each with what it is now where it changes: "C2 18 ms (now 8 ms), C1 30 ms". */
function offsetsText(result: ExploreResult): string {
    const now = result.current?.offsets_ns ?? {};
    return result.vary
        .map(name => {
            const ns = result.best.offsets_ns[name];
            const was = now[name] === undefined || now[name] === ns ? '' : ` (now ${ms(now[name] / 1e6)})`;
            return `${name} ${ms(ns / 1e6)}${was}`;
        })
        .join(', ');
}

/** One line: the best offsets and what they give, what makes no difference; or that nothing swept does. */
export function bestText(result: ExploreResult): string {
    const best = result.best;
    const independent = independenceText(result);
    if (isFlat(result)) {
        const value = valueText(result, objectiveValue(result, best));
        return `${independent} (${value} at every offset swept): the current offsets stay`;
    }
    const which = changeCount(result) === 0 ? `the current ones (${offsetsText(result)})` : offsetsText(result);
    return (
        `best offsets for ${result.objective}: ${which} → p99 ${ms(best.p99_ms)}, ` +
        `mean ${ms(best.mean_ms)}, loss ${probability(best.loss)}` +
        (independent ? `; ${independent}` : '')
    );
}

const valueText = (result: Pick<ExploreResult, 'objective'>, value: number) =>
    result.objective === 'loss' || result.objective === 'deadline' ? probability(value) : ms(value);

/** The sweep as text for the output: the best line, then the `rows` best points (the best one first). */
export function exploreTable(result: ExploreResult, rows = 10): string[] {
    // the backend's best first (it breaks ties its own way), then the others by the objective in steps of its
    // resolution (rounding noise orders nothing), loss, mean
    const same = (a: ExplorePoint, b: ExplorePoint) =>
        result.vary.every(n => a.offsets_ns[n] === b.offsets_ns[n]) &&
        Object.keys(a.periods_ns).every(n => a.periods_ns[n] === b.periods_ns[n]);
    const step = (p: ExplorePoint) => Math.round(objectiveValue(result, p) / (result.resolution || 1e-300));
    const others = result.points
        .filter(p => !same(p, result.best))
        .sort((a, b) => step(a) - step(b) || a.loss - b.loss || a.mean_ms - b.mean_ms);
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
    /** The model's offsets, where the sweep has that point (the backend sweeps it). */
    current?: { x: number; y?: number; value: number };
    /** No swept offset changes the objective: drawn flat around its value, not as rounding noise. */
    flat: boolean;
    /** Values of the objective closer than this are the same (the reply's resolution). */
    resolution: number;
    /** What the objective does not depend on, in words ("the mean latency does not depend on C1's offset"). */
    note?: string;
    /** The offsets and periods *Apply best offsets* would change (0: the current ones are best). */
    changes: number;
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
    const now = result.current?.offsets_ns ?? {};
    const current = result.points.find(
        p =>
            result.vary.every(n => p.offsets_ns[n] === now[n]) &&
            Object.entries(p.periods_ns).every(([n, ns]) => result.current?.periods_ns[n] === ns),
    );
    const note = independenceText(result);
    return {
        view: 'explore',
        key: `explore ${result.name} ${result.vary.join(' ')}`,
        title: `ptts ${result.name}: ${objective.replace(' deadline', deadline)} over the offset of ${result.vary.join(' and ')}`,
        vary: [...result.vary],
        objective: objective.replace(' deadline', deadline),
        unit,
        points: result.points.map(at),
        best: at(result.best),
        ...(current ? { current: at(current) } : {}),
        flat: isFlat(result),
        resolution: result.resolution,
        ...(note ? { note } : {}),
        changes: changeCount(result),
        summary: bestText(result),
    };
}
