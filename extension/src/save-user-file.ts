/**
 * Saving what the user exported from a plot or a diagram: local files through the one atomic writer, files of other
 * schemes (a remote workspace) through VS Code's file system, which writes them whole; the user is told where, or why
 * not.
 */
import * as vscode from 'vscode';
import { writeFileAtomic } from './atomic-write';

/** Saves what the user asked to export at `target` and says where, or why not. */
export async function saveUserFile(target: vscode.Uri, data: string | Uint8Array, what: string): Promise<boolean> {
    try {
        if (target.scheme === 'file') writeFileAtomic(target.fsPath, data);
        else await vscode.workspace.fs.writeFile(target, typeof data === 'string' ? Buffer.from(data, 'utf-8') : data);
    } catch (error) {
        void vscode.window.showErrorMessage(`chainlab: ${what} not saved: ${(error as Error).message}`);
        return false;
    }
    void vscode.window.showInformationMessage(`chainlab: ${what} saved as ${target.fsPath}`);
    return true;
}
