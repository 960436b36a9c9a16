/**
 * What every command needs: the clients it talks to, the document and element it acts on, and one way to send a
 * long request to the language server (backend set up first, progress that can be cancelled, the log, and a message
 * that says clearly what went wrong).
 */
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type {
    LanguageServerNotifications,
    LanguageServerRequest,
    RequestParamsOf,
    RequestResultOf,
} from '@chainlab/contract';
import type { BackendSetup } from './backend-setup';
import type { ChainlabPanelManager } from './diagram-panels';
import type { PlotPanels } from './plot-panel';
import type { BackendStatus } from './status-bar';

/** A command's handler, as vscode.commands.registerCommand takes it. */
export type CommandHandler = (...args: unknown[]) => unknown;

export interface CommandContext {
    client: LanguageClient;
    backend: BackendSetup;
    diagrams: ChainlabPanelManager;
    plots: PlotPanels;
    status: BackendStatus;
    output: vscode.OutputChannel;
}

export function documentUri(arg: unknown): vscode.Uri | undefined {
    if (typeof arg === 'string') return vscode.Uri.parse(arg);
    if (arg instanceof vscode.Uri) return arg;
    const editor = vscode.window.activeTextEditor;
    return editor?.document.languageId === 'chain' ? editor.document.uri : undefined;
}

/** The element name the CodeLens gives, else the only (or a picked) element of that kind the language server finds. */
export async function elementName(
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

export async function request<R extends LanguageServerRequest>(
    ctx: CommandContext,
    title: string,
    method: R,
    params: Omit<RequestParamsOf<R>, 'progressToken'>,
    cancellable = true,
): Promise<RequestResultOf<R> | undefined> {
    // on first use the backend is set up first (its own progress and messages)
    if (!(await ctx.backend.ready())) return undefined;
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
            ? ' Check the setting "chainlab.python" (empty: the environment chainlab sets up itself).'
            : '';
        void vscode.window.showErrorMessage(`chainlab: ${title} failed: ${message}${hint}`, 'Show log').then(choice => {
            if (choice) ctx.output.show();
        });
        return undefined;
    }
}
