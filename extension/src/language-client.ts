/**
 * The language client: starts the bundled language server (dist/server.cjs) over stdio with the Python
 * backend's interpreter (backend-setup.ts: the `chainlab.python` setting, else the extension's private
 * environment). vscode-languageclient restarts a crashed server; the server itself restarts a dead backend on the
 * next request, so an environment set up after the server started is used without a restart.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import * as vscode from 'vscode';
import {
    CodeLensRequest,
    LanguageClient,
    State,
    type DynamicFeature,
    type LanguageClientOptions,
    type ServerOptions,
    type StaticFeature,
} from 'vscode-languageclient/node';

/** The .chain documents the client serves (saved and untitled). */
export const CHAIN_DOCUMENTS = [
    { scheme: 'file', language: 'chain' },
    { scheme: 'untitled', language: 'chain' },
];

/** The language client without its CodeLens feature: code-lens.ts registers CodeLens earlier, at activation. */
export class ChainlabLanguageClient extends LanguageClient {
    override registerFeature(feature: StaticFeature | DynamicFeature<unknown>): void {
        if ('registrationType' in feature && feature.registrationType.method === CodeLensRequest.method) return;
        super.registerFeature(feature);
    }
}

/** The server process as vscode-languageclient forks it (stdio, Node mode under Electron, inspector when debugging). */
function forkServer(module: string, env: NodeJS.ProcessEnv): ChildProcess {
    const debugging = process.execArgv.some(arg => /^--(inspect|debug)/.test(arg));
    return fork(module, ['--stdio', `--clientProcessId=${process.pid}`], {
        silent: true,
        env: { ...env, ELECTRON_RUN_AS_NODE: '1' },
        execArgv: debugging ? ['--nolazy', '--inspect=6009'] : [],
    });
}

/** `backendPython` says which interpreter runs the backend, asked again at each (re)start of the server. */
export function createLanguageClient(
    context: vscode.ExtensionContext,
    output: vscode.OutputChannel,
    backendPython: () => string,
): LanguageClient {
    const module = context.asAbsolutePath(join('dist', 'server.cjs'));
    // ELK's drawings outlive the server (a reopened diagram is drawn without ELK); the folder is made when needed
    const layouts = join(context.globalStorageUri.fsPath, 'layouts');
    const env = { ...process.env, CHAINLAB_PYTHON: backendPython(), CHAINLAB_LAYOUT_STORE: layouts };
    // The first server starts now, while the client and the busy extension host get ready (a few hundred ms
    // after a reload): it has loaded by the time `initialize` comes. Restarts fork a new one.
    let first: ChildProcess | undefined = forkServer(module, env);
    let current: ChildProcess | undefined;
    const serverOptions: ServerOptions = () => {
        current =
            first && first.exitCode === null ? first : forkServer(module, { ...env, CHAINLAB_PYTHON: backendPython() });
        first = undefined;
        return Promise.resolve(current);
    };
    const clientOptions: LanguageClientOptions = {
        documentSelector: CHAIN_DOCUMENTS,
        outputChannel: output,
        synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.chain') },
    };
    const client = new ChainlabLanguageClient('chainlab', 'chainlab language server', serverOptions, clientOptions);
    // As the client does for servers it forks itself: one that outlives `exit` by 2 s is terminated.
    client.onDidChangeState(({ newState }) => {
        const server = current;
        if (newState !== State.Stopped || !server) return;
        setTimeout(() => {
            if (server.exitCode === null && server.signalCode === null) server.kill();
        }, 2000).unref();
    });
    return client;
}
