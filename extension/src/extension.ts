/**
 * chainlab for VS Code: the language client for .chain files, diagram webviews (Sprotty), the latency
 * plot, the analysis/run commands behind the CodeLens, and the backend's state in the status bar.
 */
import * as vscode from 'vscode';
import { registerDefaultCommands } from 'sprotty-vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { registerCommands } from './commands';
import { ChainlabPanelManager } from './diagram-panels';
import { createLanguageClient } from './language-client';
import { PlotPanel } from './plot-panel';
import { BackendStatus } from './status-bar';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const output = vscode.window.createOutputChannel('chainlab');
    const status = new BackendStatus();
    context.subscriptions.push(output, status);
    client = createLanguageClient(context, output);
    await client.start();
    const diagrams = new ChainlabPanelManager(context, client);
    registerDefaultCommands(diagrams, context, { extensionPrefix: 'chainlab' });
    registerCommands(context, { client, diagrams, plots: new PlotPanel(context.extensionUri), status, output });
    context.subscriptions.push(vscode.workspace.onDidChangeConfiguration(e => {
        if (e.affectsConfiguration('chainlab.python')) void client?.restart();
    }));
}

export async function deactivate(): Promise<void> {
    await client?.stop();
}
