/**
 * What `chainlab explore` says of a sweep's best point: which offsets (and periods) to change and what that gives,
 * and in words what the objective does not depend on. The backend decides both (ties within the objective's
 * resolution, the current value kept where it makes no difference); this only writes them down.
 */
import type { ExplorePoint, ExploreResult, Objective } from '@chainlab/contract';
import { formatMs, formatProbability } from './text-plot.js';

const OBJECTIVE_NOUN: Record<Objective, string> = {
    p50: 'the median (p50)',
    p99: 'the p99',
    mean: 'the mean',
    loss: 'the loss probability',
    deadline: 'the probability of missing the deadline',
};

/** The swept settings the objective does not depend on: "C1's offset", "C2's period" (periods: of two or more). */
export function independentSettings(r: ExploreResult): string[] {
    return [
        ...r.vary.filter(name => r.depends.offsets[name] === false).map(name => `${name}'s offset`),
        ...Object.keys(r.periods_ns)
            .filter(name => r.periods_ns[name].length > 1 && r.depends.periods[name] === false)
            .map(name => `${name}'s period`),
    ];
}

/** Whether nothing swept changes the objective. */
export function isFlat(r: ExploreResult): boolean {
    const swept = r.vary.length + Object.values(r.periods_ns).filter(candidates => candidates.length > 1).length;
    return swept > 0 && independentSettings(r).length === swept;
}

/** "the mean does not depend on C1's offset", or undefined where it depends on everything swept. */
export function independenceText(r: ExploreResult): string | undefined {
    const settings = independentSettings(r);
    return settings.length ? `${OBJECTIVE_NOUN[r.objective]} does not depend on ${settings.join(' or ')}` : undefined;
}

function objectiveText(r: ExploreResult, value: number): string {
    return r.objective === 'loss' || r.objective === 'deadline' ? formatProbability(value) : formatMs(value);
}

/** The objective's value at a point (for `deadline` the probability of missing it). */
export function objectiveOf(r: ExploreResult, p: ExplorePoint): number {
    const fields = { p50: p.p50_ms, p99: p.p99_ms, mean: p.mean_ms, loss: p.loss };
    return r.objective === 'deadline' ? 1 - (p.p_deadline ?? 0) : fields[r.objective];
}

/** Each swept setting of the best point, with what it is now where it changes: "C2 offset 10 ms (now 8 ms)". */
export function settingsText(r: ExploreResult, best: ExplorePoint = r.best): string {
    const setting = (name: string, what: 'offset' | 'period', ns: number, now: number | undefined) =>
        `${name} ${what} ${formatMs(ns / 1e6)}${now === undefined || now === ns ? '' : ` (now ${formatMs(now / 1e6)})`}`;
    return [
        ...r.vary.map(name => setting(name, 'offset', best.offsets_ns[name], r.current.offsets_ns[name])),
        ...Object.keys(r.periods_ns).map(name =>
            setting(name, 'period', best.periods_ns[name], r.current.periods_ns[name]),
        ),
    ].join(', ');
}

/** Whether the best point is the model as it is (nothing to apply). */
export function bestIsCurrent(r: ExploreResult): boolean {
    return (
        Object.entries(r.best.offsets_ns).every(([name, ns]) => r.current.offsets_ns[name] === ns) &&
        Object.entries(r.best.periods_ns).every(([name, ns]) => r.current.periods_ns[name] === ns)
    );
}

/** The verdict: the best point and what it gives (or that the current settings are); then what makes no difference. */
export function verdictLines(r: ExploreResult): string[] {
    const best = r.best;
    const gives = `mean ${formatMs(best.mean_ms)}, p99 ${formatMs(best.p99_ms)}, loss ${formatProbability(best.loss)}`;
    const independent = independenceText(r);
    if (isFlat(r)) {
        const values = r.points.map(p => objectiveText(r, objectiveOf(r, p)));
        const range = new Set(values).size === 1 ? `${values[0]} at every point` : `${values[0]} within rounding`;
        return [`${independent} (${range}): keep the current settings (${settingsText(r)})`];
    }
    const head = bestIsCurrent(r)
        ? `best for ${r.objective}: the current settings (${settingsText(r)}) → ${gives}`
        : `best for ${r.objective}: ${settingsText(r)} → ${gives}`;
    const keeps = independentSettings(r).length > 1 ? 'they keep their current values' : 'it keeps its current value';
    return [head, ...(independent ? [`  ${independent}: ${keeps}`] : [])];
}
