/**
 * The language client: starts the bundled language server (dist/server.cjs) over stdio with the Python
 * backend chosen by the `chainlab.python` setting. vscode-languageclient restarts a crashed server; the
 * server itself restarts a dead backend on the next request.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import * as vscode from 'vscode';
import { LanguageClient, TransportKind, type LanguageClientOptions, type ServerOptions } from 'vscode-languageclient/node';

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

export function createLanguageClient(context: vscode.ExtensionContext, output: vscode.OutputChannel): LanguageClient {
    const module = context.asAbsolutePath(join('dist', 'server.cjs'));
    const env = { ...process.env, CHAINLAB_PYTHON: backendPython() };
    const serverOptions: ServerOptions = {
        run: { module, transport: TransportKind.stdio, options: { env } },
        debug: { module, transport: TransportKind.stdio, options: { env, execArgv: ['--nolazy', '--inspect=6009'] } },
    };
    const clientOptions: LanguageClientOptions = {
        documentSelector: [{ scheme: 'file', language: 'chain' }, { scheme: 'untitled', language: 'chain' }],
        outputChannel: output,
        synchronize: { fileEvents: vscode.workspace.createFileSystemWatcher('**/*.chain') },
    };
    return new LanguageClient('chainlab', 'chainlab language server', serverOptions, clientOptions);
}
