/**
 * The plot panels beside the editor: one per element or run (a new analysis of the same ptts redraws its panel;
 * another run opens its own), titled with it, so results stay side by side. The panel saves what its webview
 * exports (save dialog), overlays another open run (*Compare with…*), opens a run's report.html.
 */
import { readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import * as vscode from 'vscode';
import type { LatencyPlotData } from './plot-data';
import { withComparison, withoutComparison } from './plot-data';
import { saveUserFile } from './save-user-file';
import type { ExportFormat, PlotRequest, PlotViewData } from './plot-messages';

interface Shown {
    panel: vscode.WebviewPanel;
    data: PlotViewData;
    ready: boolean;
    /** What *Apply…* in the webview does (explore and periods panels): the best point, or proposal `index`. */
    apply?: (index?: number) => unknown;
}

const FILTERS: Record<string, Record<string, string[]>> = {
    svg: { 'SVG image': ['svg'] },
    png: { 'PNG image': ['png'] },
    csv: { 'CSV table': ['csv'] },
};

export class PlotPanels {
    private readonly shown = new Map<string, Shown>();

    constructor(private readonly extensionUri: vscode.Uri) {}

    /** Draws `data` in the panel of its key (opened beside the editor when there is none). */
    show(data: PlotViewData, apply?: (index?: number) => unknown): void {
        const existing = this.shown.get(data.key);
        if (existing) {
            existing.data = data;
            existing.apply = apply;
            existing.panel.reveal(vscode.ViewColumn.Beside, true);
            if (existing.ready) void existing.panel.webview.postMessage(data);
            return;
        }
        const shown: Shown = { panel: this.create(data), data, ready: false, apply };
        this.shown.set(data.key, shown);
        shown.panel.webview.onDidReceiveMessage((message: PlotRequest) => void this.answer(shown, message));
        shown.panel.onDidDispose(() => this.shown.delete(data.key));
    }

    /** The keys of the open latency panels (for tests and *Compare with…*). */
    latencyKeys(): string[] {
        return [...this.shown.values()].filter(s => s.data.view === 'latency').map(s => s.data.key);
    }

    private create(data: PlotViewData): vscode.WebviewPanel {
        const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
        const title =
            data.view === 'latency'
                ? `Latency: ${data.key.replace(/^ptts /, '')}`
                : data.view === 'periods'
                  ? `Periods: ${data.key.replace(/^periods /, '')}`
                  : `Explore: ${data.key.replace(/^explore /, '')}`;
        const panel = vscode.window.createWebviewPanel(
            'chainlab.plot',
            title,
            { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
            { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
        );
        const src = panel.webview.cspSource;
        // Observable Plot writes inline styles and a <style> element: style-src needs 'unsafe-inline' (no script does)
        panel.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src ${src}; style-src ${src} 'unsafe-inline'; img-src ${src} data: blob:">
<link rel="stylesheet" href="${panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'plot.css')).toString()}"></head>
<body><div id="plot"></div><script src="${panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'plot.js')).toString()}"></script></body></html>`;
        return panel;
    }

    private async answer(shown: Shown, message: PlotRequest): Promise<void> {
        switch (message.type) {
            case 'ready':
                shown.ready = true;
                await shown.panel.webview.postMessage(shown.data);
                return;
            case 'export':
                return saveExport(message.name, message.format, message.content);
            case 'compare':
                return this.compare(shown);
            case 'openReport':
                if (shown.data.view === 'latency' && shown.data.report) openReport(shown.data.report);
                return;
            case 'applyBest':
                await shown.apply?.();
                return;
            case 'applyProposal':
                await shown.apply?.(message.index);
                return;
        }
    }

    /** Overlays the curves of another open latency panel on this one. */
    private async compare(shown: Shown): Promise<void> {
        if (shown.data.view !== 'latency') return;
        const base = withoutComparison(shown.data);
        const others = [...this.shown.values()].filter(s => s !== shown && s.data.view === 'latency');
        if (!others.length)
            return void vscode.window.showInformationMessage(
                'chainlab: open a second result (another run or analysis) to compare with',
            );
        const picked = await vscode.window.showQuickPick(
            [
                ...others.map(s => ({ label: s.data.key, detail: s.data.title, other: s.data as LatencyPlotData })),
                ...(base.series.length !== shown.data.series.length
                    ? [{ label: 'none', detail: 'remove the overlay' }]
                    : []),
            ],
            {
                title: `Compare ${shown.data.key} with…`,
                placeHolder: 'the curves of the picked result are overlaid (dashed)',
            },
        );
        if (!picked) return;
        shown.data = 'other' in picked && picked.other ? withComparison(base, picked.other) : base;
        await shown.panel.webview.postMessage(shown.data);
    }
}

/** What a plot view exports, where the save dialog says. */
async function saveExport(name: string, format: ExportFormat, content: string): Promise<void> {
    const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
    const target = await vscode.window.showSaveDialog({
        title: `Export the plot as ${format.toUpperCase()}`,
        defaultUri: folder ? vscode.Uri.joinPath(folder, name) : undefined,
        filters: FILTERS[format],
    });
    if (!target) return;
    const bytes = format === 'png' ? Buffer.from(content, 'base64') : Buffer.from(content, 'utf-8');
    await saveUserFile(target, bytes, 'plot');
}

/**
 * A run's report.html in a panel of its own: the plot view drawn by the page's one inline script (its CSP allows
 * that script by its hash and loads nothing else), in the editor's theme.
 */
export function openReport(path: string): void {
    const panel = vscode.window.createWebviewPanel(
        'chainlab.report',
        `Report: ${dirname(path).split(/[\\/]/).at(-1)}`,
        vscode.ViewColumn.Active,
        { enableScripts: true, localResourceRoots: [] },
    );
    // the report's exports: the save dialog, as in the plot panel
    panel.webview.onDidReceiveMessage((message: PlotRequest) => {
        if (message.type === 'export') void saveExport(message.name, message.format, message.content);
    });
    try {
        panel.webview.html = readFileSync(path, 'utf-8');
    } catch (error) {
        panel.dispose();
        void vscode.window.showErrorMessage(`chainlab: no report at ${path}: ${(error as Error).message}`);
    }
}
