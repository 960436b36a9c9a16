/**
 * The commands of a first hour with chainlab: the example workspace and the backend's set-up (the walkthrough's
 * steps), each a named factory in one short list.
 */
import * as vscode from 'vscode';
import type { BackendSetup } from './backend-setup';
import { createExampleWorkspace, openExample } from './example-workspace';

type Handler = (...args: unknown[]) => unknown;

const exampleWorkspace =
    (context: vscode.ExtensionContext): Handler =>
    () =>
        createExampleWorkspace(context);

const openExampleFile = (): Handler => (name, then) => openExample(name, then);

/** Sets the backend up if it is not yet; when it is, says which interpreter it is and offers a fresh set-up. */
const setupBackend =
    (backend: BackendSetup): Handler =>
    async () => {
        if (!backend.isReady()) return backend.ready();
        const again = backend.configured() ? [] : ['Set up again'];
        const choice = await vscode.window.showInformationMessage(
            `chainlab: the analysis backend is ready (${backend.python()}${backend.configured() ? ', from the setting chainlab.python' : ''})`,
            ...again,
        );
        if (choice) return backend.reinstall();
    };

export function registerSetupCommands(context: vscode.ExtensionContext, backend: BackendSetup): void {
    const commands: Array<[string, Handler]> = [
        ['chainlab.createExampleWorkspace', exampleWorkspace(context)],
        ['chainlab.openExample', openExampleFile()],
        ['chainlab.setupBackend', setupBackend(backend)],
    ];
    for (const [name, handler] of commands) context.subscriptions.push(vscode.commands.registerCommand(name, handler));
}
