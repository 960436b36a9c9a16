/**
 * *chainlab: Import measured times from CSV…*: asks for the CSV, the chain or ptts, cost or ETP and the statistic,
 * then applies the language server's edit (the backend reads the CSV, the language writes the settings) as ONE
 * WorkspaceEdit, so one undo reverts it; the output channel says what was set.
 */
import * as vscode from 'vscode';
import type { RequestParamsOf, RequestResultOf } from '@chainlab/contract';
import { documentUri, request, type CommandContext, type CommandHandler } from './command-context';
import {
    asItems,
    STATISTICS,
    targetItems,
    TIMINGS_FILTERS,
    timingsLog,
    timingsMessage,
    type Statistic,
} from './import-timings-text';

type Params = Omit<RequestParamsOf<'chainlab/importTimings'>, 'uri' | 'csv'>;

async function pickCsv(model: vscode.Uri): Promise<vscode.Uri | undefined> {
    const chosen = await vscode.window.showOpenDialog({
        title: 'chainlab: measured times from which CSV?',
        openLabel: 'Import times',
        canSelectFiles: true,
        canSelectFolders: false,
        canSelectMany: false,
        filters: TIMINGS_FILTERS,
        defaultUri: vscode.Uri.joinPath(model, '..'),
    });
    return chosen?.[0];
}

/** The chain or ptts, cost or etp, and the statistic; undefined when the user cancels a pick. */
async function pickOptions(ctx: CommandContext, uri: vscode.Uri): Promise<Params | undefined> {
    const elements = await ctx.client.sendRequest<RequestResultOf<'chainlab/elements'>>('chainlab/elements', {
        uri: uri.toString(),
    } satisfies RequestParamsOf<'chainlab/elements'>);
    const targets = targetItems(elements);
    if (targets.length === 0) {
        void vscode.window.showWarningMessage('chainlab: the model has no chain or ptts to set times in');
        return undefined;
    }
    const target =
        targets.length === 1 ? targets[0] : await vscode.window.showQuickPick(targets, { placeHolder: 'times for?' });
    if (!target) return undefined;
    const as = await vscode.window.showQuickPick(asItems(target.target), { placeHolder: 'set them as' });
    if (!as) return undefined;
    if (as.as === 'etp') return { ...target.target, as: 'etp' };
    const statistic = await vscode.window.showQuickPick([...STATISTICS], { placeHolder: 'which statistic?' });
    return statistic ? { ...target.target, as: 'cost', statistic: statistic as Statistic } : undefined;
}

export function importTimingsCommand(ctx: CommandContext): CommandHandler {
    return async (uriArg, csvArg) => {
        const uri = documentUri(uriArg);
        if (!uri) return void vscode.window.showWarningMessage('chainlab: open a .chain file first');
        const csv = csvArg instanceof vscode.Uri ? csvArg : await pickCsv(uri);
        if (!csv) return;
        // the backend reads the file itself, so it must be on this machine's disk
        if (csv.scheme !== 'file')
            return void vscode.window.showWarningMessage(`chainlab: cannot read ${csv.toString()}: not a local file`);
        const options = await pickOptions(ctx, uri);
        if (!options) return;
        const result = await request(ctx, 'Import measured times', 'chainlab/importTimings', {
            uri: uri.toString(),
            csv: csv.fsPath,
            ...options,
        });
        if (!result) return;
        const applied = await vscode.workspace.applyEdit(
            await ctx.client.protocol2CodeConverter.asWorkspaceEdit(result.edit),
        );
        if (!applied) return void vscode.window.showWarningMessage('chainlab: the editor refused the edit');
        for (const line of timingsLog(csv.fsPath, result)) ctx.output.appendLine(line);
        void vscode.window.showInformationMessage(timingsMessage(result));
    };
}
