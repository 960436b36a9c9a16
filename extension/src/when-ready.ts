/**
 * A provisional CodeLens (lens-scan.ts) is shown before the extension's commands exist: they are registered once
 * the language server has started. Its click goes through `chainlab.whenReady`, registered at once, which waits
 * for the commands and then runs the lens's own command with its arguments.
 */
import * as vscode from 'vscode';

export const WHEN_READY = 'chainlab.whenReady';

/** Registers the proxy; call the returned function once every command is registered. */
export function registerWhenReady(context: vscode.ExtensionContext): () => void {
    let ready!: () => void;
    const registered = new Promise<void>(resolve => (ready = resolve));
    context.subscriptions.push(
        vscode.commands.registerCommand(WHEN_READY, async (command: string, ...args: unknown[]) => {
            await registered;
            return vscode.commands.executeCommand(command, ...args);
        }),
    );
    return ready;
}
