/**
 * report.html's script: the run's RunReport, embedded in the page as JSON, drawn by the plot panel's own view
 * (the same conversion, plot-data.ts runPlot, and the same render), so the report a run leaves on disk is what
 * the editor showed. Bundled into one file that the backend writes inline into every report (no network, no
 * other file). Exports are downloads in a browser and the save dialog in the editor's report panel.
 */
import type { RunReport } from '@chainlab/contract';
import { runPlot } from '../src/plot-data';
import type { PlotRequest } from '../src/plot-messages';
import { PlotView } from './plot/view';

const vscode = (
    globalThis as unknown as { acquireVsCodeApi?: () => { postMessage(m: PlotRequest): void } }
).acquireVsCodeApi?.();

const TYPES = { svg: 'image/svg+xml', png: 'image/png', csv: 'text/csv' } as const;

/** A file the browser downloads: text for SVG and CSV, base64 for PNG. */
function download(format: keyof typeof TYPES, name: string, content: string): void {
    const bytes = format === 'png' ? Uint8Array.from(atob(content), c => c.charCodeAt(0)) : content;
    const url = URL.createObjectURL(new Blob([bytes], { type: TYPES[format] }));
    const link = Object.assign(document.createElement('a'), { href: url, download: name });
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function main(): void {
    const embedded = document.getElementById('chainlab-report')?.textContent;
    const root = document.getElementById('plot');
    if (!embedded || !root) return;
    const report = JSON.parse(embedded) as RunReport;
    const view = new PlotView(root, {
        save: (format, name, content) =>
            vscode ? vscode.postMessage({ type: 'export', format, name, content }) : download(format, name, content),
    });
    // the report is the page: it has no button to open itself
    const { report: _self, ...plot } = runPlot(report.chain, report.target, report);
    view.show(plot);
    let resizing: ReturnType<typeof setTimeout> | undefined;
    window.addEventListener('resize', () => {
        clearTimeout(resizing);
        resizing = setTimeout(() => view.render(), 150);
    });
}

main();
