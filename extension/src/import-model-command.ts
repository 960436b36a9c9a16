/**
 * *chainlab: Import model (SDF3, PREESM, Amalthea)…*: a file another tool wrote (from the explorer, the editor or a
 * dialog) is read by the backend (through the language server), written as a .chain file beside it (asking before
 * replacing one) and opened with its diagram; the notes (what was expanded or left out) go to the output channel.
 */
import { basename } from 'node:path';
import * as vscode from 'vscode';
import { request, type CommandContext, type CommandHandler } from './command-context';
import { writeFileAtomic } from './atomic-write';
import { chainFileBeside, IMPORT_FILTERS, importable, importLog, importMessage } from './import-model-text';

/** The file to import: the one open in the editor when it is importable, else one the user picks. */
async function pickSource(): Promise<vscode.Uri | undefined> {
    const open = vscode.window.activeTextEditor?.document.uri;
    if (open?.scheme === 'file' && importable(open.fsPath)) return open;
    const chosen = await vscode.window.showOpenDialog({
        title: 'chainlab: import which model?',
        openLabel: 'Import',
        canSelectFiles: true,
        canSelectFolders: false,
        canSelectMany: false,
        filters: IMPORT_FILTERS,
        defaultUri: vscode.workspace.workspaceFolders?.[0]?.uri,
    });
    return chosen?.[0];
}

async function exists(uri: vscode.Uri): Promise<boolean> {
    try {
        await vscode.workspace.fs.stat(uri);
        return true;
    } catch {
        return false;
    }
}

/** Whether `target` may be written: a new file, or one the user agreed to replace. */
async function mayWrite(target: vscode.Uri): Promise<boolean> {
    if (!(await exists(target))) return true;
    const replace = 'Replace';
    const choice = await vscode.window.showWarningMessage(
        `${basename(target.fsPath)} already exists beside the imported file. Replace it?`,
        { modal: true },
        replace,
    );
    return choice === replace;
}

export function importModelCommand(ctx: CommandContext): CommandHandler {
    return async uriArg => {
        const source = uriArg instanceof vscode.Uri ? uriArg : await pickSource();
        if (!source) return;
        // the backend reads the file itself, so it must be on this machine's disk
        if (source.scheme !== 'file')
            return void vscode.window.showWarningMessage(
                `chainlab: cannot import ${source.toString()}: not a local file`,
            );
        const name = basename(source.fsPath);
        const result = await request(ctx, `Import ${name}`, 'chainlab/importModel', { path: source.fsPath }, false);
        if (!result) return;
        const target = vscode.Uri.file(chainFileBeside(source.fsPath));
        if (!(await mayWrite(target))) return;
        try {
            writeFileAtomic(target.fsPath, result.text);
        } catch (error) {
            return void vscode.window.showErrorMessage(
                `chainlab: ${basename(target.fsPath)} not written: ${(error as Error).message}`,
            );
        }
        for (const line of importLog(source.fsPath, target.fsPath, result)) ctx.output.appendLine(line);
        if (result.notes.length) ctx.output.show(true);
        await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(target), { preview: false });
        await vscode.commands.executeCommand('chainlab.openDiagram', target);
        void vscode.window.showInformationMessage(importMessage(target.fsPath, result));
    };
}
