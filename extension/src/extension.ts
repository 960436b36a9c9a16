/**
 * chainlab for VS Code: the language client for .chain files, diagram webviews (Sprotty), the latency
 * plot, the analysis/run commands behind the CodeLens, and the backend's state in the status bar.
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import { BackendSetup } from './backend-setup';
import { registerCommands } from './commands';
import { registerCodeLens } from './code-lens';
import { CHAIN_DOCUMENTS, createLanguageClient } from './language-client';
import { showPendingExample } from './example-workspace';
import { PlotPanels } from './plot-panel';
import { registerSetupCommands } from './setup-commands';
import { registerWhenReady } from './when-ready';
import { BackendStatus } from './status-bar';

let client: LanguageClient | undefined;

/**
 * First use: a workspace with models. The backend is set up while the user reads the model (the commands that need
 * it wait for it); a window that activated for a command alone (the walkthrough's) sets nothing up.
 */
async function setUpOnFirstUse(backend: BackendSetup): Promise<void> {
    if (backend.isReady()) return;
    if ((await vscode.workspace.findFiles('**/*.chain', '**/node_modules/**', 1)).length > 0) await backend.ready();
}

export async function activate(context: vscode.ExtensionContext): Promise<void> {
    const output = vscode.window.createOutputChannel('chainlab');
    const backend = new BackendSetup(context, output);
    context.subscriptions.push(backend);
    // the walkthrough's commands first: they work in an empty window, with no server
    registerSetupCommands(context, backend);
    const commandsReady = registerWhenReady(context);
    client = createLanguageClient(context, output, () => backend.python());
    context.subscriptions.push(registerCodeLens(client, CHAIN_DOCUMENTS));
    // The server first: an opened file's CodeLens and diagnostics wait for nothing else. The diagram code
    // (sprotty-vscode, a third of this bundle) is loaded while the server parses the file.
    const started = client.start();
    const status = new BackendStatus();
    context.subscriptions.push(output, status);
    void showPendingExample(context);
    void setUpOnFirstUse(backend);
    await started;
    const [{ registerDefaultCommands }, { ChainlabPanelManager }] = await Promise.all([
        import('sprotty-vscode'),
        import('./diagram-panels.js'),
    ]);
    const diagrams = new ChainlabPanelManager(context, client);
    registerDefaultCommands(diagrams, context, { extensionPrefix: 'chainlab' });
    registerCommands(context, {
        client,
        backend,
        diagrams,
        plots: new PlotPanels(context.extensionUri),
        status,
        output,
    });
    commandsReady();
    context.subscriptions.push(
        vscode.workspace.onDidChangeConfiguration(e => {
            if (e.affectsConfiguration('chainlab.python')) void client?.restart();
        }),
    );
}

export async function deactivate(): Promise<void> {
    await client?.stop();
}
