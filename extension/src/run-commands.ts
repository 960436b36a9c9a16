/**
 * Running a chain from the editor: *Run on target*, *Calibrate and run* (a calibration run first, kept beside the
 * model for later runs) and *Update ETP from measurement*. A run's report opens in its own plot panel; the
 * notification after it offers only what can work (the report, the ETP update or a ptts around the chain).
 */
import { join } from 'node:path';
import * as vscode from 'vscode';
import type { RequestParamsOf, RequestResultOf, RunReport } from '@chainlab/contract';
import { documentUri, elementName, request, type CommandContext, type CommandHandler } from './command-context';
import { etpAction } from './etp-offer';
import { measuredSomething, reportOf, runPlot } from './plot-data';
import { openReport } from './plot-panel';

/** The chain of the latest run that measured something (the language server keeps the measurement itself). */
let lastMeasured: { uri: string; chain: string } | undefined;

export function runCommands(ctx: CommandContext): Record<string, CommandHandler> {
    return {
        'chainlab.run': runOnTarget(ctx),
        'chainlab.calibrateAndRun': calibrateAndRun,
        'chainlab.updateEtpFromMeasurement': updateEtpFromMeasurement(ctx),
    };
}

// calibrate > 0: first a calibration run of that many iterations, kept beside the model for later runs
function runOnTarget(ctx: CommandContext): CommandHandler {
    return async (uriArg, name, targetArg, calibrateArg) => {
        const uri = documentUri(uriArg);
        const chain = uri && (await elementName(ctx, uri, 'chain', name));
        if (!uri || !chain) return;
        const settings = vscode.workspace.getConfiguration('chainlab');
        const target = typeof targetArg === 'string' ? targetArg : settings.get<string>('target', 'here');
        const folder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath ?? join(uri.fsPath, '..');
        const calibrate = typeof calibrateArg === 'number' ? calibrateArg : 0;
        const what = calibrate
            ? `Calibrate ${chain} on ${target} (${calibrate} iterations) and run`
            : `Run ${chain} on ${target}`;
        const reply = await request(ctx, what, 'chainlab/deploy', {
            uri: uri.toString(),
            chain,
            target,
            scenario: settings.get('scenarios', 'baseline'),
            iterations: settings.get('iterations', 200),
            calibrate,
            runs: join(folder, 'runs'),
        });
        if (!reply) return;
        ctx.output.appendLine(reply.summary);
        ctx.output.show(true);
        ctx.plots.show(runPlot(chain, target, reply, new Date().toISOString()));
        if (measuredSomething(reply)) lastMeasured = { uri: uri.toString(), chain };
        await vscode.commands.executeCommand('setContext', 'chainlab.hasMeasurement', !!lastMeasured);
        await tellOutcome(ctx, uri.toString(), chain, reply);
    };
}

/** The notification after a run: an overloaded one warns (it measured queueing, no ETP from it), else what next. */
async function tellOutcome(ctx: CommandContext, uri: string, chain: string, reply: RunReport): Promise<void> {
    const verdict = reply.status === 'ok' ? 'done' : reply.status;
    const overloaded = reply.scenarios.filter(s => s.overloaded).map(s => s.scenario);
    const report = reportOf(reply);
    const openIt = 'Open report';
    const reportAction = report ? [openIt] : [];
    if (overloaded.length > 0) {
        void vscode.window
            .showWarningMessage(
                `chainlab: run ${verdict}, but ${overloaded.join(', ')} OVERLOADED: latency grew through the run ` +
                    '(a backlog), so it measured queueing, not the chain. Give the chain a longer period or more ' +
                    `rt-cores and run again. Report in ${reply.out_dir}`,
                ...reportAction,
            )
            .then(choice => {
                if (choice === openIt && report) openReport(report);
            });
        return;
    }
    // only an action that can work: the language server knows whether a component has `etp chain <chain>`
    const etp = await etpAction(ctx.client, uri, chain, line => ctx.output.appendLine(line));
    const update = etp ? [etp.label] : [];
    void vscode.window
        .showInformationMessage(`chainlab: run ${verdict}; report in ${reply.out_dir}`, ...reportAction, ...update)
        .then(choice => {
            if (choice === openIt && report) openReport(report);
            if (etp && choice === etp.label) void etp.take();
        });
}

const calibrateAndRun: CommandHandler = (uriArg, name, targetArg) =>
    vscode.commands.executeCommand(
        'chainlab.run',
        uriArg,
        name,
        targetArg,
        vscode.workspace.getConfiguration('chainlab').get<number>('calibrationIterations', 300),
    );

// The language server writes the edit (from the run it relayed); the editor applies it, so undo works. A run
// the server has a concern about (overloaded, cut short) is written only when the user confirms, reason shown.
function updateEtpFromMeasurement(ctx: CommandContext): CommandHandler {
    return async (uriArg, chainArg) => {
        const which =
            typeof uriArg === 'string' && typeof chainArg === 'string'
                ? { uri: uriArg, chain: chainArg }
                : lastMeasured;
        if (!which) return void vscode.window.showWarningMessage('chainlab: run the chain first (Run on target)');
        try {
            const reply = await ctx.client.sendRequest<RequestResultOf<'chainlab/etpFromMeasurement'>>(
                'chainlab/etpFromMeasurement',
                which satisfies RequestParamsOf<'chainlab/etpFromMeasurement'>,
            );
            if (reply.concern) {
                const write = 'Write it anyway';
                const choice = await vscode.window.showWarningMessage(
                    `chainlab: ${reply.concern}. Write it as the ETP of chain ${which.chain}?`,
                    { modal: true },
                    write,
                );
                if (choice !== write) return;
            }
            await vscode.workspace.applyEdit(await ctx.client.protocol2CodeConverter.asWorkspaceEdit(reply.edit));
        } catch (error) {
            void vscode.window.showWarningMessage(`chainlab: ${(error as Error).message}`);
        }
    };
}
