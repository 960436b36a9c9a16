/**
 * Undo and redo with the focus in a diagram. Diagram edits are text edits, so undoing one is undoing the text
 * document the diagram shows; but a focused webview swallows Ctrl+Z (no text editor is active), so the
 * keybindings bring the diagram's document to the front, run the editor's own undo/redo there (one step per
 * gesture, the same history as the text), and give the focus back to the diagram.
 */
import * as vscode from 'vscode';
import type { WebviewEndpoint } from 'sprotty-vscode';

export type HistoryStep = 'undo' | 'redo';

/** The commands that step the active text editor's history: VS Code's, then Theia's own ids. */
const STEP_COMMANDS: Record<HistoryStep, readonly string[]> = {
    undo: ['undo', 'core.undo'],
    redo: ['redo', 'core.redo'],
};

/** The text editor of a diagram's document: one already visible (keeping its column), else a new one beside. */
async function editorOf(uri: string): Promise<vscode.TextEditor> {
    const visible = vscode.window.visibleTextEditors.find(e => e.document.uri.toString() === uri);
    const document = visible?.document ?? (await vscode.workspace.openTextDocument(vscode.Uri.parse(uri)));
    return vscode.window.showTextDocument(document, {
        viewColumn: visible?.viewColumn ?? vscode.ViewColumn.One,
        preserveFocus: false,
    });
}

async function runFirst(ids: readonly string[]): Promise<void> {
    const known = new Set(await vscode.commands.getCommands(true));
    const id = ids.find(i => known.has(i)) ?? ids[0];
    await vscode.commands.executeCommand(id);
}

/** Steps the history of the document that `endpoint`'s diagram shows; the diagram keeps the focus. */
export async function stepDiagramHistory(endpoint: WebviewEndpoint | undefined, step: HistoryStep): Promise<void> {
    const uri = endpoint?.diagramIdentifier?.uri;
    if (!endpoint || !uri) return;
    const editor = await editorOf(uri);
    // the command acts on the active editor: make sure it is this document's before stepping
    if (vscode.window.activeTextEditor?.document !== editor.document) return;
    await runFirst(STEP_COMMANDS[step]);
    const panel = endpoint.webviewContainer;
    if ('reveal' in panel) panel.reveal(panel.viewColumn, false); // a panel (a webview view has no reveal)
}
