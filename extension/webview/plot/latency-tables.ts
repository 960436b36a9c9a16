/**
 * What is read beside the latency chart: the legend (with KS), the requirements' verdicts with their margins, the
 * statistics of every series, and a run's own tables (its scenarios and phases), which stack into one block per
 * row where the panel is narrow.
 */
import { formatNumber, formatProbability } from '../../src/number-format';
import type { LatencyPlotData } from '../../src/plot-data';
import type { DetailTable } from '../../src/run-tables';
import { element } from './dom';
import { colourOf } from './theme';

export function legend(d: LatencyPlotData): HTMLElement {
    const list = element('div', { class: 'legend', role: 'list' });
    for (const s of d.series) {
        const ks = s.ks !== undefined && s.ks !== null ? ` — KS ${formatNumber(s.ks)} vs predicted` : '';
        const swatch = element('span', { class: `swatch swatch-${s.kind}` });
        swatch.style.borderColor = colourOf(d, s.name);
        list.append(
            element(
                'span',
                { class: 'legend-item', role: 'listitem', 'data-series': s.name },
                swatch,
                `${s.name}${ks}`,
            ),
        );
    }
    return list;
}

export function verdicts(d: LatencyPlotData): HTMLElement | undefined {
    if (!d.requirements.length) return undefined;
    const table = element('table', { class: 'verdicts' });
    table.append(
        element(
            'tr',
            {},
            ...['requirement', 'found', 'verdict', 'margin'].map(h => element('th', { scope: 'col' }, h)),
        ),
    );
    for (const r of d.requirements) {
        const attrs: Record<string, string> = { class: r.passed ? 'pass' : 'fail', 'data-kind': r.kind };
        if (r.series) attrs['data-series'] = r.series;
        table.append(
            element(
                'tr',
                attrs,
                element('td', {}, r.text),
                // a run judges each requirement on every series: the found value says on which
                element('td', {}, r.series ? `${r.series}: ${r.value}` : r.value),
                element('td', { class: 'verdict' }, r.passed ? '✓ PASS' : '✗ FAIL'),
                element('td', {}, r.margin),
            ),
        );
    }
    return table;
}

export function stats(d: LatencyPlotData): HTMLElement {
    const table = element('table', { class: 'stats' });
    table.append(
        element(
            'tr',
            {},
            ...['', 'mean ms', 'p50 ms', 'p99 ms', 'p99.9 ms', 'max ms', 'loss'].map(h => element('th', {}, h)),
        ),
    );
    for (const s of d.stats) {
        const row = element('tr', { 'data-series': s.name });
        for (const cell of [s.name, s.mean, s.p50, s.p99, s.p999, s.max])
            row.append(element('td', {}, typeof cell === 'string' ? cell : formatNumber(cell)));
        row.append(element('td', {}, s.loss === undefined ? '–' : formatProbability(s.loss)));
        table.append(row);
    }
    return table;
}

/** A table of a run (its scenarios, its phases): each cell names its column, for the stacked narrow layout. */
export function detailTable(t: DetailTable): HTMLElement {
    const table = element('table', { class: `details details-${t.id}` });
    table.append(element('tr', {}, ...t.head.map(h => element('th', { scope: 'col' }, h))));
    for (const row of t.rows)
        table.append(
            element(
                'tr',
                { 'data-row': row[0] },
                ...row.map((cell, i) => element('td', { 'data-label': t.head[i] }, cell)),
            ),
        );
    return element('section', { class: `run-${t.id}` }, element('h3', {}, t.caption), table);
}
