/**
 * chainlab for VS Code: the language client for .chain files, diagram webviews (Sprotty), the latency
 * plot, the analysis/run commands behind the CodeLens, and the backend's state in the status bar.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { registerCommands } from './commands';
import { registerCodeLens } from './code-lens';
import { CHAIN_DOCUMENTS, createLanguageClient } from './language-client';
import { PlotPanels } from './plot-panel';
import { BackendStatus } from './status-bar';

let client: LanguageClient | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const output = vscode.window.createOutputChannel('chainlab');
    client = createLanguageClient(context, output);
    context.subscriptions.push(registerCodeLens(client, CHAIN_DOCUMENTS));
    // The server first: an opened file's CodeLens and diagnostics wait for nothing else. The diagram code
    // (sprotty-vscode, a third of this bundle) is loaded while the server parses the file.
    const started = client.start();
    const status = new BackendStatus();
    context.subscriptions.push(output, status);
    await started;
    const [{ registerDefaultCommands }, { ChainlabPanelManager }] = await Promise.all([
        import('sprotty-vscode'),
        import('./diagram-panels.js'),
    ]);
    const diagrams = new ChainlabPanelManager(context, client);
    registerDefaultCommands(diagrams, context, { extensionPrefix: 'chainlab' });
    registerCommands(context, { client, diagrams, plots: new PlotPanels(context.extensionUri), status, output });
    context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration(e => {
            if (e.affectsConfiguration('chainlab.python')) void client?.restart();
        }),
    );
}

export async function deactivate(): Promise<void> {
    await client?.stop();
}
