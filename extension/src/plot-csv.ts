/**
 * The numbers behind a plot as CSV (the *Export CSV* button): every point of every curve, or every point of an
 * offset sweep, unrounded, so a spreadsheet or a script redraws exactly what the panel shows. Pure.
 */
import { ccdf, cdf, normalised } from './distribution';
import type { PlotViewData } from './plot-messages';

const cell = (value: string | number | undefined) =>
    value === undefined ? '' : typeof value === 'number' ? String(value) : `"${value.replace(/"/g, '""')}"`;
const line = (cells: Array<string | number | undefined>) => cells.map(cell).join(',');

export function plotCsv(data: PlotViewData): string {
    if (data.view === 'periods') {
        const header = [
            'periods',
            'latency trees',
            'periods move (%)',
            'p99 (ms)',
            'mean (ms)',
            'loss',
            'hyper-period (ms)',
        ];
        const rows = data.proposals.map(p =>
            line([p.label, p.roots, p.change_pct, p.p99_ms, p.mean_ms, p.loss, p.hyperperiod_ms]),
        );
        return [line(header), ...rows].join('\n') + '\n';
    }
    if (data.view === 'explore') {
        const header = [...data.vary.slice(0, 2).map(name => `${name} offset (ms)`), data.objective];
        const rows = data.points.map(p => line([p.x, ...(data.vary.length > 1 ? [p.y] : []), p.value]));
        return [line(header), ...rows].join('\n') + '\n';
    }
    const rows = data.series.flatMap(s => {
        const below = cdf(s.points),
            above = ccdf(s.points);
        return normalised(s.points).map(([ms, p], i) => line([s.name, s.kind, ms, p, below[i][1], above[i][1]]));
    });
    return (
        [line(['series', 'kind', 'latency (ms)', 'probability', 'P(latency <= x)', 'P(latency > x)']), ...rows].join(
            '\n',
        ) + '\n'
    );
}
