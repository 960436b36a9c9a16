/**
 * The language client: starts the bundled language server (dist/server.cjs) over stdio with the Python
 * backend chosen by the `chainlab.python` setting. vscode-languageclient restarts a crashed server; the
 * server itself restarts a dead backend on the next request.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
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

/** The configured interpreter, else the workspace's backend/.venv (what `npm start` sets up), else python3. */
export function backendPython(): string {
    const configured = vscode.workspace.getConfiguration('chainlab').get<string>('python')?.trim();
    if (configured) return configured;
    for (const folder of vscode.workspace.workspaceFolders ?? []) {
        const venv = join(folder.uri.fsPath, 'backend', '.venv', 'bin', 'python');
        if (existsSync(venv)) return venv;
    }
    return 'python3';
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

export function createLanguageClient(context: vscode.ExtensionContext, output: vscode.OutputChannel): LanguageClient {
    const module = context.asAbsolutePath(join('dist', 'server.cjs'));
    const env = { ...process.env, CHAINLAB_PYTHON: backendPython() };
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
