/**
 * The plot view, one render for every place that shows it: the editor's plot panel and a run's report.html. The
 * view keeps what the user picked (CDF, CCDF or PMF; the log latency axis; the zoom) and asks its host for what
 * only the host can do: save a file, overlay another result, open the report, apply a proposal.
 */
import { plotCsv } from '../../src/plot-csv';
import type { LatencyPlotData } from '../../src/plot-data';
import type { ExportFormat, PlotViewData } from '../../src/plot-messages';
import { declutter } from './declutter';
import { button, element } from './dom';
import { exploreChartElement } from './explore-chart';
import { exportName, exportedSvg, pngOf } from './export';
import { latencyChart } from './latency-chart';
import { detailTable, legend, stats, verdicts } from './latency-tables';
import { periodsChartElement, proposalsTable } from './periods-chart';
import { chartWidth, spansDecades, type Mode } from './scales';

export interface PlotHost {
    /** Saves an export: text for SVG and CSV, base64 for PNG. */
    save: (format: ExportFormat, name: string, content: string) => void;
    /** Overlays another result (*Compare with…*); no button without it. */
    compare?: () => void;
    /** Opens the run's report.html; no button without it. */
    openReport?: () => void;
    /** Applies the best offsets of a sweep; no button without it. */
    applyBest?: () => void;
    /** Applies one proposal of the nearby periods. */
    applyProposal?: (index: number) => void;
}

type Part = HTMLElement | SVGElement | undefined;

export class PlotView {
    private data: PlotViewData | undefined;
    private mode: Mode = 'cdf';
    /** A log latency axis: for curves decades apart (a backlog next to its prediction); undefined: by the data. */
    private logX: boolean | undefined;
    /** The latency range zoomed into with the mouse wheel (a double click goes back to all of it). */
    private zoomed: [number, number] | undefined;

    constructor(
        private readonly root: HTMLElement,
        private readonly host: PlotHost,
    ) {}

    /** Draws `data`; another result than the one shown starts with its own axis and no zoom. */
    show(data: PlotViewData): void {
        if (this.data?.key !== data.key) {
            this.logX = undefined;
            this.zoomed = undefined;
        }
        this.data = data;
        this.render();
    }

    render(): void {
        this.root.replaceChildren();
        const d = this.data;
        if (!d) return;
        const parts: Part[] = [element('h2', {}, d.title)];
        if (d.view === 'latency') parts.push(...this.latencyParts(d));
        else if (d.view === 'periods') {
            const chart = periodsChartElement(d, chartWidth(this.root));
            parts.push(
                element('p', { class: 'summary' }, d.summary),
                this.toolbar(),
                chart ? element('figure', { class: 'chart' }, chart) : undefined,
                // nothing to propose: said where the table would be, and it stays (not a toast that goes)
                d.note !== undefined
                    ? element('p', { class: 'note', role: 'status' }, d.note)
                    : proposalsTable(d, index => this.host.applyProposal?.(index)),
            );
        } else {
            parts.push(
                element('p', { class: 'summary' }, d.summary),
                this.toolbar(),
                d.vary.length <= 2
                    ? element('figure', { class: 'chart' }, exploreChartElement(d, chartWidth(this.root)))
                    : element('p', {}, `${d.vary.length} components: see the table in the output`),
            );
        }
        this.root.append(...parts.filter((p): p is HTMLElement | SVGElement => p !== undefined));
        declutter(this.root);
    }

    private log(d: LatencyPlotData): boolean {
        return this.mode !== 'pmf' && (this.logX ?? spansDecades(d));
    }

    private latencyParts(d: LatencyPlotData): Part[] {
        const chart = latencyChart(d, {
            mode: this.mode,
            log: this.log(d),
            width: chartWidth(this.root),
            zoomed: this.zoomed,
            onZoom: range => {
                this.zoomed = range;
                this.render();
            },
        });
        return [
            ...(d.warnings ?? []).map(text => element('div', { class: 'warning', role: 'alert' }, `⚠ ${text}`)),
            this.toolbar(),
            legend(d),
            element('figure', { class: 'chart' }, chart),
            verdicts(d),
            stats(d),
            d.notes?.length ? element('ul', { class: 'notes' }, ...d.notes.map(n => element('li', {}, n))) : undefined,
            ...(d.tables ?? []).map(detailTable),
        ];
    }

    private latencyTools(d: LatencyPlotData): HTMLElement[] {
        const views = element('div', { class: 'views', role: 'group', 'aria-label': 'view' });
        for (const [m, label] of [
            ['cdf', 'CDF'],
            ['ccdf', 'CCDF (log tail)'],
            ['pmf', 'PMF'],
        ] as const) {
            const pick = () => {
                this.mode = m;
                this.render();
            };
            views.append(button(label, pick, { 'data-mode': m, 'aria-pressed': String(this.mode === m) }));
        }
        const log = this.log(d);
        const toggle = () => {
            this.logX = !log;
            this.zoomed = undefined;
            this.render();
        };
        const logToggle = button('log latency axis', toggle, { 'data-action': 'log-x', 'aria-pressed': String(log) });
        logToggle.disabled = this.mode === 'pmf'; // a histogram's bins are linear
        const tools: HTMLElement[] = [views, logToggle];
        const { compare, openReport } = this.host;
        if (compare) tools.push(button('Compare with…', () => compare(), { 'data-action': 'compare' }));
        if (d.report && openReport) tools.push(button('Open report', () => openReport(), { 'data-action': 'report' }));
        return tools;
    }

    private toolbar(): HTMLElement {
        const d = this.data!;
        const bar = element('div', { class: 'toolbar', role: 'toolbar' });
        const { applyBest } = this.host;
        if (d.view === 'latency') bar.append(...this.latencyTools(d));
        else if (d.view === 'explore' && applyBest) {
            const apply = button('Apply best offsets', () => applyBest(), { 'data-action': 'apply' });
            // nothing to write where the current offsets are best (or nothing swept changes the objective)
            apply.disabled = d.changes === 0;
            if (apply.disabled) apply.title = 'the current offsets are already the best';
            bar.append(apply);
        }
        const exports = element('div', { class: 'exports', role: 'group', 'aria-label': 'export' });
        for (const f of ['svg', 'png', 'csv'] as const)
            exports.append(button(`Export ${f.toUpperCase()}`, () => void this.exportAs(f), { 'data-export': f }));
        bar.append(exports);
        return bar;
    }

    /** What is on screen, title and legend included, as a file; CSV: every point behind it. */
    private async exportAs(format: ExportFormat): Promise<void> {
        if (!this.data) return;
        const name = exportName(this.data.key, format);
        if (format === 'csv') return this.host.save(format, name, plotCsv(this.data));
        const image = exportedSvg(this.root, getComputedStyle(document.body).backgroundColor);
        if (!image) return;
        if (format === 'svg') return this.host.save(format, name, image.text);
        this.host.save(format, name, await pngOf(image.text, image.width, image.height));
    }
}
