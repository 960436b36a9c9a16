/**
 * The commands behind the CodeLens and the command palette. Each asks the language server (which asks the
 * Python backend), shows progress that can be cancelled, logs everything to the output channel and says
 * clearly what went wrong (a model error with file:line:col, a missing toolchain, a dead backend).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type {
    DeleteSelectionAction,
    RenameSelectionAction,
    LanguageServerNotifications,
    LanguageServerRequest,
    RequestParamsOf,
    RequestResultOf,
} from '@chainlab/contract';
import type { ChainlabPanelManager } from './diagram-panels';
import { analysisPlot, measuredSomething, runPlot } from './plot-data';
import type { PlotPanel } from './plot-panel';
import type { BackendStatus } from './status-bar';

export interface CommandContext {
    client: LanguageClient;
    diagrams: ChainlabPanelManager;
    plots: PlotPanel;
    status: BackendStatus;
    output: vscode.OutputChannel;
}

/** The chain of the latest run that measured something (the language server keeps the measurement itself). */
let lastMeasured: { uri: string; chain: string } | undefined;

function documentUri(arg: unknown): vscode.Uri | undefined {
    if (typeof arg === 'string') return vscode.Uri.parse(arg);
    if (arg instanceof vscode.Uri) return arg;
    const editor = vscode.window.activeTextEditor;
    return editor?.document.languageId === 'chain' ? editor.document.uri : undefined;
}

/** The element name the CodeLens gives, else the only (or a picked) element of that kind the language server finds. */
async function elementName(
    ctx: CommandContext,
    uri: vscode.Uri,
    kind: 'chain' | 'ptts' | 'target',
    given: unknown,
): Promise<string | undefined> {
    if (typeof given === 'string' && given) return given;
    const elements = await ctx.client.sendRequest<RequestResultOf<'chainlab/elements'>>('chainlab/elements', {
        uri: uri.toString(),
    } satisfies RequestParamsOf<'chainlab/elements'>);
    const names = elements[kind].map(e => e.name);
    if (names.length <= 1) return names[0];
    return vscode.window.showQuickPick(names, { placeHolder: `which ${kind}?` });
}

async function request<R extends LanguageServerRequest>(
    ctx: CommandContext,
    title: string,
    method: R,
    params: Omit<RequestParamsOf<R>, 'progressToken'>,
    cancellable = true,
): Promise<RequestResultOf<R> | undefined> {
    const progressToken = `${method}-${Date.now()}`;
    ctx.output.appendLine(`[${new Date().toISOString()}] ${title}`);
    try {
        return await ctx.status.around(title, async () =>
            vscode.window.withProgress(
                { location: vscode.ProgressLocation.Notification, title, cancellable },
                async (progress, token) => {
                    let last = 0;
                    const sub = ctx.client.onNotification(
                        'chainlab/progress',
                        (p: LanguageServerNotifications['chainlab/progress']) => {
                            if (p.token !== progressToken) return;
                            ctx.output.appendLine(`  ${Math.round(p.fraction * 100)}% ${p.message}`);
                            progress.report({ message: p.message, increment: Math.max(0, (p.fraction - last) * 100) });
                            last = p.fraction;
                        },
                    );
                    try {
                        return await ctx.client.sendRequest<RequestResultOf<R>>(
                            method,
                            { ...params, progressToken },
                            token,
                        );
                    } finally {
                        sub.dispose();
                    }
                },
            ),
        );
    } catch (error) {
        const message = (error as Error).message;
        ctx.output.appendLine(`  failed: ${message}`);
        const hint = /No module named|not set up|python/i.test(message)
            ? ' Set "chainlab.python" to an interpreter with the chainlab backend.'
            : '';
        void vscode.window.showErrorMessage(`chainlab: ${title} failed: ${message}${hint}`, 'Show log').then(choice => {
            if (choice) ctx.output.show();
        });
        return undefined;
    }
}

export function registerCommands(context: vscode.ExtensionContext, ctx: CommandContext): void {
    const register = (name: string, handler: (...args: unknown[]) => unknown) =>
        context.subscriptions.push(vscode.commands.registerCommand(name, handler));

    register('chainlab.openDiagram', async (uriArg, view = 'chain', element) => {
        const uri = documentUri(uriArg);
        if (!uri) return void vscode.window.showWarningMessage('chainlab: open a .chain file first');
        await ctx.diagrams.open(
            uri,
            typeof view === 'string' ? view : 'chain',
            typeof element === 'string' ? element : undefined,
        );
    });
    for (const view of ['plan', 'lanes', 'ptts', 'timeline']) {
        register(`chainlab.open${view[0].toUpperCase()}${view.slice(1)}Diagram`, uriArg =>
            vscode.commands.executeCommand('chainlab.openDiagram', uriArg, view),
        );
    }

    // Delete in the box-chain diagram: webviews get no key events of their own in VS Code, so the keybinding
    // asks the webview to delete its selection (as text edits, through the language server).
    register('chainlab.diagram.deleteSelection', () =>
        ctx.diagrams
            .findActiveWebview()
            ?.sendAction({ kind: 'chainlabDeleteSelection' } satisfies DeleteSelectionAction),
    );

    // F2 in the box-chain diagram: the webview asks for the new name and the language server renames (one edit)
    register('chainlab.diagram.renameSelection', () =>
        ctx.diagrams
            .findActiveWebview()
            ?.sendAction({ kind: 'chainlabRenameSelection' } satisfies RenameSelectionAction),
    );

    register('chainlab.analyze', async (uriArg, name) => {
        const uri = documentUri(uriArg);
        const ptts = uri && (await elementName(ctx, uri, 'ptts', name));
        if (!uri || !ptts) return void vscode.window.showWarningMessage('chainlab: no ptts to analyse in this file');
        const result = await request(ctx, `Analyze latency of ${ptts}`, 'chainlab/analyze', {
            uri: uri.toString(),
            ptts,
        });
        if (!result) return;
        ctx.output.appendLine(
            `  p50 ${result.percentiles['50']} ms, p99 ${result.percentiles['99']} ms, loss ${result.loss_probability}`,
        );
        ctx.plots.show(analysisPlot(result));
    });

    register('chainlab.explore', async (uriArg, name) => {
        const uri = documentUri(uriArg);
        const ptts = uri && (await elementName(ctx, uri, 'ptts', name));
        if (!uri || !ptts) return;
        // the contract requires `vary`: without it the backend refuses the sweep (a model error shown to the user)
        const result = await request(ctx, `Explore offsets of ${ptts}`, 'chainlab/explore', {
            uri: uri.toString(),
            ptts,
        } as RequestParamsOf<'chainlab/explore'>);
        if (!result) return;
        ctx.output.appendLine(JSON.stringify(result, null, 2));
        ctx.output.show(true);
    });

    register('chainlab.generate', async (uriArg, name) => {
        const uri = documentUri(uriArg);
        const chain = uri && (await elementName(ctx, uri, 'chain', name));
        if (!uri || !chain) return;
        const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? join(uri.fsPath, '..');
        const out = join(folder, 'generated', chain);
        const reply = await request(
            ctx,
            `Generate C project for ${chain}`,
            'chainlab/generate',
            { uri: uri.toString(), chain, out },
            false,
        );
        if (reply)
            void vscode.window.showInformationMessage(
                `chainlab: ${reply.files.length} files in ${reply.out} (build: cmake -S ${reply.out} -B build && cmake --build build)`,
            );
    });

    register('chainlab.run', async (uriArg, name, targetArg) => {
        const uri = documentUri(uriArg);
        const chain = uri && (await elementName(ctx, uri, 'chain', name));
        if (!uri || !chain) return;
        const settings = vscode.workspace.getConfiguration('chainlab');
        const target = typeof targetArg === 'string' ? targetArg : settings.get<string>('target', 'here');
        const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? join(uri.fsPath, '..');
        const reply = await request(ctx, `Run ${chain} on ${target}`, 'chainlab/deploy', {
            uri: uri.toString(),
            chain,
            target,
            scenario: settings.get('scenarios', 'baseline'),
            iterations: settings.get('iterations', 200),
            runs: join(folder, 'runs'),
        });
        if (!reply) return;
        ctx.output.appendLine(reply.summary);
        ctx.output.show(true);
        ctx.plots.show(runPlot(chain, target, reply));
        if (measuredSomething(reply)) lastMeasured = { uri: uri.toString(), chain };
        await vscode.commands.executeCommand('setContext', 'chainlab.hasMeasurement', !!lastMeasured);
        const verdict = reply.status === 'ok' ? 'done' : reply.status;
        void vscode.window
            .showInformationMessage(
                `chainlab: run ${verdict}; report in ${reply.local_dir}`,
                'Update ETP from measurement',
            )
            .then(choice => {
                if (choice) void vscode.commands.executeCommand('chainlab.updateEtpFromMeasurement');
            });
    });

    // The language server writes the edit (from the run it relayed); the editor applies it, so undo works.
    register('chainlab.updateEtpFromMeasurement', async () => {
        if (!lastMeasured)
            return void vscode.window.showWarningMessage('chainlab: run the chain first (Run on target)');
        try {
            const reply = await ctx.client.sendRequest<RequestResultOf<'chainlab/etpFromMeasurement'>>(
                'chainlab/etpFromMeasurement',
                lastMeasured,
            );
            await vscode.workspace.applyEdit(await ctx.client.protocol2CodeConverter.asWorkspaceEdit(reply.edit));
        } catch (error) {
            void vscode.window.showWarningMessage(`chainlab: ${(error as Error).message}`);
        }
    });

    register('chainlab.openSample', async () => {
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
        const sample = folder && vscode.Uri.joinPath(folder, 'samples', 'xray.chain');
        if (!sample || !existsSync(sample.fsPath))
            return void vscode.window.showWarningMessage(
                'chainlab: open the chainlab repository (it has samples/xray.chain)',
            );
        await vscode.window.showTextDocument(sample);
    });

    register('chainlab.showLog', () => ctx.output.show());
    register('chainlab.restartBackend', async () => {
        await ctx.client.restart();
        ctx.status.idle();
    });
}
