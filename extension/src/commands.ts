/**
 * The commands behind the CodeLens and the command palette. Each asks the language server (which asks the
 * Python backend), shows progress that can be cancelled, logs everything to the output channel and says
 * clearly what went wrong (a model error with file:line:col, a missing toolchain, a dead backend).
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { LanguageClient } from 'vscode-languageclient/node';
import type { DeleteSelectionAction, LanguageServerNotifications, LanguageServerRequest, RequestParamsOf, RequestResultOf } from '@chainlab/contract';
import type { ChainlabPanelManager } from './diagram-panels';
import { chainEtpRanges, pmfText, readLatencies } from './measurement';
import { analysisPlot, measuredPoints, summary, type PlotData } from './plot-data';
import type { PlotPanel } from './plot-panel';
import type { BackendStatus } from './status-bar';

export interface CommandContext {
    client: LanguageClient;
    diagrams: ChainlabPanelManager;
    plots: PlotPanel;
    status: BackendStatus;
    output: vscode.OutputChannel;
}

interface Measurement { uri: string; chain: string; csv: string }
let lastMeasurement: Measurement | undefined;

function documentUri(arg: unknown): vscode.Uri | undefined {
    if (typeof arg === 'string') return vscode.Uri.parse(arg);
    if (arg instanceof vscode.Uri) return arg;
    const editor = vscode.window.activeTextEditor;
    return editor?.document.languageId === 'chain' ? editor.document.uri : undefined;
}

/** The element name given by the CodeLens, else the only (or a picked) `kind NAME` of the document. */
async function elementName(uri: vscode.Uri, kind: 'chain' | 'ptts' | 'target', given: unknown): Promise<string | undefined> {
    if (typeof given === 'string' && given) return given;
    const text = (await vscode.workspace.openTextDocument(uri)).getText();
    const names = [...text.matchAll(new RegExp(`^${kind}\\s+(\\w+)`, 'gm'))].map(m => m[1]);
    if (names.length <= 1) return names[0];
    return vscode.window.showQuickPick(names, { placeHolder: `which ${kind}?` });
}

async function request<R extends LanguageServerRequest>(ctx: CommandContext, title: string, method: R, params: Omit<RequestParamsOf<R>, 'progressToken'>, cancellable = true): Promise<RequestResultOf<R> | undefined> {
    const progressToken = `${method}-${Date.now()}`;
    ctx.output.appendLine(`[${new Date().toISOString()}] ${title}`);
    try {
        return await ctx.status.around(title, async () => vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title, cancellable }, async (progress, token) => {
            let last = 0;
            const sub = ctx.client.onNotification('chainlab/progress', (p: LanguageServerNotifications['chainlab/progress']) => {
                if (p.token !== progressToken) return;
                ctx.output.appendLine(`  ${Math.round(p.fraction * 100)}% ${p.message}`);
                progress.report({ message: p.message, increment: Math.max(0, (p.fraction - last) * 100) });
                last = p.fraction;
            });
            try {
                return await ctx.client.sendRequest<RequestResultOf<R>>(method, { ...params, progressToken }, token);
            } finally {
                sub.dispose();
            }
        }));
    } catch (error) {
        const message = (error as Error).message;
        ctx.output.appendLine(`  failed: ${message}`);
        const hint = /No module named|not set up|python/i.test(message) ? ' Set "chainlab.python" to an interpreter with the chainlab backend.' : '';
        void vscode.window.showErrorMessage(`chainlab: ${title} failed: ${message}${hint}`, 'Show log').then(choice => { if (choice) ctx.output.show(); });
        return undefined;
    }
}

export function registerCommands(context: vscode.ExtensionContext, ctx: CommandContext): void {
    const register = (name: string, handler: (...args: unknown[]) => unknown) => context.subscriptions.push(vscode.commands.registerCommand(name, handler));

    register('chainlab.openDiagram', async (uriArg, view = 'chain', element) => {
        const uri = documentUri(uriArg);
        if (!uri) return void vscode.window.showWarningMessage('chainlab: open a .chain file first');
        await ctx.diagrams.open(uri, typeof view === 'string' ? view : 'chain', typeof element === 'string' ? element : undefined);
    });
    for (const view of ['plan', 'lanes', 'ptts', 'timeline']) {
        register(`chainlab.open${view[0].toUpperCase()}${view.slice(1)}Diagram`, uriArg => vscode.commands.executeCommand('chainlab.openDiagram', uriArg, view));
    }

    // Delete in the box-chain diagram: webviews get no key events of their own in VS Code, so the keybinding
    // asks the webview to delete its selection (as text edits, through the language server).
    register('chainlab.diagram.deleteSelection', () => ctx.diagrams.findActiveWebview()?.sendAction({ kind: 'chainlabDeleteSelection' } satisfies DeleteSelectionAction));

    register('chainlab.analyze', async (uriArg, name) => {
        const uri = documentUri(uriArg);
        const ptts = uri && await elementName(uri, 'ptts', name);
        if (!uri || !ptts) return void vscode.window.showWarningMessage('chainlab: no ptts to analyse in this file');
        const result = await request(ctx, `Analyze latency of ${ptts}`, 'chainlab/analyze', { uri: uri.toString(), ptts });
        if (!result) return;
        ctx.output.appendLine(`  p50 ${result.percentiles['50']} ms, p99 ${result.percentiles['99']} ms, loss ${result.loss_probability}`);
        ctx.plots.show(analysisPlot(result));
    });

    register('chainlab.explore', async (uriArg, name) => {
        const uri = documentUri(uriArg);
        const ptts = uri && await elementName(uri, 'ptts', name);
        if (!uri || !ptts) return;
        // the contract requires `vary`: without it the backend refuses the sweep (a model error shown to the user)
        const result = await request(ctx, `Explore offsets of ${ptts}`, 'chainlab/explore', { uri: uri.toString(), ptts } as RequestParamsOf<'chainlab/explore'>);
        if (!result) return;
        ctx.output.appendLine(JSON.stringify(result, null, 2));
        ctx.output.show(true);
    });

    register('chainlab.generate', async (uriArg, name) => {
        const uri = documentUri(uriArg);
        const chain = uri && await elementName(uri, 'chain', name);
        if (!uri || !chain) return;
        const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? join(uri.fsPath, '..');
        const out = join(folder, 'generated', chain);
        const reply = await request(ctx, `Generate C project for ${chain}`, 'chainlab/generate', { uri: uri.toString(), chain, out }, false);
        if (reply) void vscode.window.showInformationMessage(`chainlab: ${reply.files.length} files in ${reply.out} (build: cmake -S ${reply.out} -B build && cmake --build build)`);
    });

    register('chainlab.run', async (uriArg, name, targetArg) => {
        const uri = documentUri(uriArg);
        const chain = uri && await elementName(uri, 'chain', name);
        if (!uri || !chain) return;
        const settings = vscode.workspace.getConfiguration('chainlab');
        const target = typeof targetArg === 'string' ? targetArg : settings.get<string>('target', 'here');
        const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? join(uri.fsPath, '..');
        const reply = await request(
            ctx, `Run ${chain} on ${target}`, 'chainlab/deploy',
            { uri: uri.toString(), chain, target, scenario: settings.get('scenarios', 'baseline'), iterations: settings.get('iterations', 200), runs: join(folder, 'runs') });
        if (!reply) return;
        ctx.output.appendLine(reply.summary);
        ctx.output.show(true);
        const plot: PlotData = { title: `chain ${chain} on ${target}: measured vs predicted`, series: [], requirements: [], stats: [] };
        const predicted = reply.results.predicted.points.map(([ns, p]) => [ns / 1e6, p] as [number, number]);
        if (predicted.length) { plot.series.push({ name: 'predicted', kind: 'predicted', points: predicted }); plot.stats.push(summary('predicted', predicted)); }
        for (const s of reply.results.scenarios) {
            const csv = join(s.dir, 'latencies.csv');
            if (!existsSync(csv)) continue;
            const points = measuredPoints(readLatencies(csv));
            if (!points.length) continue;
            plot.series.push({ name: `measured ${s.scenario}`, kind: 'measured', points });
            plot.stats.push(summary(`measured ${s.scenario}`, points));
            lastMeasurement ??= { uri: uri.toString(), chain, csv };
            if (s.scenario === 'baseline') lastMeasurement = { uri: uri.toString(), chain, csv };
        }
        ctx.plots.show(plot);
        await vscode.commands.executeCommand('setContext', 'chainlab.hasMeasurement', !!lastMeasurement);
        const verdict = reply.status === 'ok' ? 'done' : reply.status;
        void vscode.window.showInformationMessage(`chainlab: run ${verdict}; report in ${reply.local_dir}`, 'Update ETP from measurement').then(choice => {
            if (choice) void vscode.commands.executeCommand('chainlab.updateEtpFromMeasurement');
        });
    });

    register('chainlab.updateEtpFromMeasurement', async () => {
        if (!lastMeasurement) return void vscode.window.showWarningMessage('chainlab: run the chain first (Run on target)');
        const document = await vscode.workspace.openTextDocument(vscode.Uri.parse(lastMeasurement.uri));
        const ranges = chainEtpRanges(document.getText(), lastMeasurement.chain);
        if (!ranges.length) return void vscode.window.showWarningMessage(`chainlab: no component has \`etp chain ${lastMeasurement.chain}\``);
        const pmf = `etp ${pmfText(readLatencies(lastMeasurement.csv))}`;
        const edit = new vscode.WorkspaceEdit();
        for (const [from, to] of ranges) edit.replace(document.uri, new vscode.Range(document.positionAt(from), document.positionAt(to)), pmf);
        await vscode.workspace.applyEdit(edit);
    });

    register('chainlab.openSample', async () => {
        const folder = vscode.workspace.workspaceFolders?.[0]?.uri;
        const sample = folder && vscode.Uri.joinPath(folder, 'samples', 'xray.chain');
        if (!sample || !existsSync(sample.fsPath)) return void vscode.window.showWarningMessage('chainlab: open the chainlab repository (it has samples/xray.chain)');
        await vscode.window.showTextDocument(sample);
    });

    register('chainlab.showLog', () => ctx.output.show());
    register('chainlab.restartBackend', async () => { await ctx.client.restart(); ctx.status.idle(); });
}

/** The code action of the same name, offered on `etp chain X` once a run of X was measured. */
export class MeasuredEtpCodeActions implements vscode.CodeActionProvider {
    provideCodeActions(document: vscode.TextDocument, range: vscode.Range): vscode.CodeAction[] {
        if (!lastMeasurement || lastMeasurement.uri !== document.uri.toString()) return [];
        const line = document.lineAt(range.start.line).text;
        if (!new RegExp(`\\betp\\s+chain\\s+${lastMeasurement.chain}\\b`).test(line)) return [];
        const action = new vscode.CodeAction(`Update ETP from measurement (${lastMeasurement.chain})`, vscode.CodeActionKind.RefactorRewrite);
        action.command = { command: 'chainlab.updateEtpFromMeasurement', title: action.title };
        return [action];
    }
}
