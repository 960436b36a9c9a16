/** The latency plot beside the editor: one panel, updated by every analysis and run. */
import * as vscode from 'vscode';
import type { PlotData } from './plot-data';

export class PlotPanel {
    private panel?: vscode.WebviewPanel;
    private ready = false;
    private latest?: PlotData;

    constructor(private readonly extensionUri: vscode.Uri) {}

    show(data: PlotData): void {
        this.latest = data;
        if (!this.panel) this.panel = this.create();
        else this.panel.reveal(vscode.ViewColumn.Beside, true);
        if (this.ready) void this.panel.webview.postMessage(data);
    }

    private create(): vscode.WebviewPanel {
        const dist = vscode.Uri.joinPath(this.extensionUri, 'dist');
        const panel = vscode.window.createWebviewPanel(
            'chainlab.plot',
            'Latency plot',
            { viewColumn: vscode.ViewColumn.Beside, preserveFocus: true },
            { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
        );
        const src = panel.webview.cspSource;
        panel.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src ${src}; style-src ${src}; img-src ${src} data:">
<link rel="stylesheet" href="${panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'plot.css')).toString()}"></head>
<body><div id="plot"></div><script src="${panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'plot.js')).toString()}"></script></body></html>`;
        panel.webview.onDidReceiveMessage(message => {
            if ((message as { ready?: boolean }).ready) {
                this.ready = true;
                if (this.latest) void panel.webview.postMessage(this.latest);
            }
        });
        panel.onDidDispose(() => {
            this.panel = undefined;
            this.ready = false;
        });
        return panel;
    }
}
