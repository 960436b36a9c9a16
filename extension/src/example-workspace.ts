/**
 * The walkthrough's example workspace: the samples shipped in the .vsix (dist/examples) copied wherever the user
 * chooses, opened as the workspace, with the X-ray chain shown at its declaration so that its CodeLens is in view.
 * Opening a folder restarts the extension host, so the file to show is handed to the next activation through the
 * global state.
 */
import { cpSync, existsSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as vscode from 'vscode';

/** The file shown first, and the global-state key that carries it across the window's reload. */
const FIRST = 'xray.chain';
const PENDING = 'chainlab.pendingExample';

interface Pending {
    folder: string;
    file: string;
}

/** The example folder in `parent`: `parent` itself when empty, else a new chainlab-examples(-N) inside it. */
function exampleFolder(parent: string): string {
    if (readdirSync(parent).length === 0) return parent;
    for (let n = 1; ; n++) {
        const folder = join(parent, n === 1 ? 'chainlab-examples' : `chainlab-examples-${n}`);
        if (!existsSync(folder)) return folder;
    }
}

/** The line of the file's first `chain` (else `ptts`) declaration, 0-based: where its CodeLens sits. */
function declarationLine(text: string): number {
    const lines = text.split('\n');
    const chain = lines.findIndex(line => /^chain\s/.test(line));
    return chain >= 0
        ? chain
        : Math.max(
              0,
              lines.findIndex(line => /^ptts\s/.test(line)),
          );
}

/** Shows `file` with its declaration at the top of the editor, the cursor on it. */
export async function showAtDeclaration(file: vscode.Uri): Promise<void> {
    const document = await vscode.workspace.openTextDocument(file);
    const line = declarationLine(document.getText());
    const range = new vscode.Range(line, 0, line, 0);
    const editor = await vscode.window.showTextDocument(document, { selection: range, preview: false });
    // a line or two of the comment above stays visible, the CodeLens right above the declaration too
    editor.revealRange(new vscode.Range(Math.max(0, line - 2), 0, line, 0), vscode.TextEditorRevealType.AtTop);
}

/** Copies the examples where the user chooses and opens them as the workspace. */
export async function createExampleWorkspace(context: vscode.ExtensionContext): Promise<void> {
    const chosen = await vscode.window.showOpenDialog({
        title: 'chainlab: where should the example workspace go?',
        openLabel: 'Create the examples here',
        canSelectFiles: false,
        canSelectFolders: true,
        canSelectMany: false,
        defaultUri: vscode.Uri.file(process.env.HOME ?? '/'),
    });
    if (!chosen?.[0]) return;
    const folder = exampleFolder(chosen[0].fsPath);
    try {
        cpSync(context.asAbsolutePath(join('dist', 'examples')), folder, { recursive: true, errorOnExist: true });
    } catch (error) {
        return void vscode.window.showErrorMessage(
            `chainlab: could not create the examples in ${folder}: ${(error as Error).message}`,
        );
    }
    const uri = vscode.Uri.file(folder);
    const open = vscode.workspace.workspaceFolders?.find(f => resolve(f.uri.fsPath) === resolve(folder));
    if (open) return showAtDeclaration(vscode.Uri.joinPath(uri, FIRST));
    await context.globalState.update(PENDING, { folder: resolve(folder), file: FIRST } satisfies Pending);
    await vscode.commands.executeCommand('vscode.openFolder', uri, { forceNewWindow: false });
}

/** After the window opened the example workspace: its first file, at the declaration. */
export async function showPendingExample(context: vscode.ExtensionContext): Promise<void> {
    const pending = context.globalState.get<Pending>(PENDING);
    if (!pending) return;
    const folder = vscode.workspace.workspaceFolders?.find(f => resolve(f.uri.fsPath) === pending.folder);
    if (!folder) return;
    await context.globalState.update(PENDING, undefined);
    await showAtDeclaration(vscode.Uri.joinPath(folder.uri, pending.file));
}

/** The chainlab commands a walkthrough link may run on an example file once it is open. */
const FOLLOW_UPS = new Set(['chainlab.openDiagram', 'chainlab.analyze', 'chainlab.run']);

/**
 * Opens an example file of the workspace by name at its declaration, then runs `then` on it (the walkthrough's links:
 * from the walkthrough no editor is active for the command to act on).
 */
export async function openExample(name: unknown, then: unknown): Promise<void> {
    const file = typeof name === 'string' && name ? name : FIRST;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
        const uri = vscode.Uri.joinPath(folder.uri, file);
        if (!existsSync(uri.fsPath)) continue;
        await showAtDeclaration(uri);
        if (typeof then === 'string' && FOLLOW_UPS.has(then)) await vscode.commands.executeCommand(then, uri);
        return;
    }
    const create = 'Create example workspace';
    const choice = await vscode.window.showWarningMessage(
        `chainlab: no ${file} in this workspace; the example workspace has it.`,
        create,
    );
    if (choice === create) await vscode.commands.executeCommand('chainlab.createExampleWorkspace');
}
