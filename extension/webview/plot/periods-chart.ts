/**
 * Nearby periods: the analysed proposals by their cost (latency trees) against their p99, and the table of every
 * proposal with an *Apply* button per row.
 */
import * as Plot from '@observablehq/plot';
import { formatCount, formatMs, formatNumber, formatProbability } from '../../src/number-format';
import type { PeriodsPlotData } from '../../src/periods-data';
import { button, element, tagged } from './dom';
import { logTicks } from './scales';
import { BACKGROUND, COLOURS, FOREGROUND } from './theme';

type Proposal = PeriodsPlotData['proposals'][number];

/**
 * Nearby periods (thesis 5.7): each analysed proposal by its number of latency trees (what an analysis costs; log
 * axis where they span decades) against its p99, the current count as a dashed line, the proposals' periods as
 * labels where they fit (the table names them all).
 */
export function periodsChartElement(d: PeriodsPlotData, width: number): SVGSVGElement | HTMLElement | undefined {
    const analysed = d.proposals.filter(p => p.p99_ms !== undefined);
    if (!analysed.length) return undefined;
    const roots = [d.current.roots, ...analysed.map(p => p.roots)];
    const log = Math.max(...roots) / Math.max(1, Math.min(...roots)) > 20;
    const chart = Plot.plot({
        width,
        height: Math.round(Math.min(420, Math.max(260, width * 0.42))),
        marginLeft: 72,
        marginRight: 24,
        marginTop: 28,
        marginBottom: 46,
        style: { color: FOREGROUND, background: 'transparent', fontSize: '12px' },
        x: {
            type: log ? 'log' : 'linear',
            label: 'latency trees (the cost of one exact analysis)',
            labelAnchor: 'center',
            labelArrow: 'none',
            grid: true,
            tickFormat: formatNumber,
            ...(log ? { ticks: logTicks([Math.min(...roots) / 1.5, Math.max(...roots) * 1.5], 8) } : { ticks: 6 }),
            domain: log ? [Math.min(...roots) / 1.5, Math.max(...roots) * 1.5] : undefined,
            nice: !log,
        },
        y: {
            label: 'p99 latency (ms)',
            labelAnchor: 'center',
            labelArrow: 'none',
            grid: true,
            nice: true,
            inset: 10, // a dot on the highest or lowest p99 stays inside the frame, clear of the "now" label
            ticks: 6,
            tickFormat: formatNumber,
        },
        marks: [
            Plot.ruleX([d.current.roots], { stroke: FOREGROUND, strokeDasharray: '6 4', className: 'current' }),
            Plot.text([d.current], {
                x: 'roots',
                frameAnchor: 'top',
                dy: -10,
                textAnchor: 'end',
                text: () => `now: ${formatCount(d.current.roots)} trees`,
                fill: FOREGROUND,
                className: 'current-label',
            }),
            Plot.dot(analysed, {
                x: 'roots',
                y: 'p99_ms',
                r: 5,
                fill: COLOURS[0],
                stroke: BACKGROUND,
                className: 'proposals',
                title: (p: Proposal) =>
                    `${p.label}\n${formatCount(p.roots)} trees, periods move ≤ ${formatNumber(p.change_pct)} %\np99 ${formatMs(p.p99_ms)}`,
            }),
            Plot.text(analysed, {
                x: 'roots',
                y: 'p99_ms',
                text: (p: Proposal) => p.label,
                dx: 9,
                textAnchor: 'start',
                fill: FOREGROUND,
                stroke: BACKGROUND,
                strokeWidth: 3,
                className: 'best-label', // left out by declutter() where it would meet another text
            }),
            Plot.frame({ stroke: FOREGROUND, strokeOpacity: 0.35 }),
        ],
    });
    return tagged(chart, 'plot-periods');
}

/** Every proposal with what its exact analysis gives and an *Apply* button (one edit of the model). */
export function proposalsTable(d: PeriodsPlotData, onApply: (index: number) => void): HTMLElement {
    const table = element('table', { class: 'stats proposals' });
    table.append(
        element(
            'tr',
            {},
            ...['periods', 'latency trees', 'periods move', 'p99 ms', 'mean ms', 'loss', 'hyper-period', ''].map(h =>
                element('th', { scope: 'col' }, h),
            ),
        ),
    );
    for (const p of d.proposals) {
        const cells =
            p.error !== undefined
                ? [element('td', { colspan: '3' }, p.error)]
                : [p.p99_ms, p.mean_ms].map(v => element('td', {}, v === undefined ? '–' : formatNumber(v)));
        if (p.error === undefined)
            cells.push(element('td', {}, p.loss === undefined ? '–' : formatProbability(p.loss)));
        const apply = element(
            'td',
            {},
            button('Apply', () => onApply(p.index)),
        );
        table.append(
            element(
                'tr',
                { 'data-index': String(p.index) },
                element('td', {}, p.label),
                element('td', {}, formatCount(p.roots)),
                element('td', {}, `≤ ${formatNumber(p.change_pct)} %`),
                ...cells,
                element('td', {}, formatMs(p.hyperperiod_ms)),
                apply,
            ),
        );
    }
    return table;
}
