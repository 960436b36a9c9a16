/**
 * A minimal diagram client of the bundled language server over stdio, doing what sprotty-vscode does:
 * didOpen/didChange the text, `diagram/accept` a RequestModelAction, and collect the actions the server
 * sends back (setModel, updateModel, ...) and the `diagram/openInTextEditor` notifications.
 */
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import {
    createProtocolConnection,
    DidChangeTextDocumentNotification,
    DidOpenTextDocumentNotification,
    InitializedNotification,
    InitializeRequest,
    NotificationType,
    StreamMessageReader,
    StreamMessageWriter,
    type ProtocolConnection,
} from 'vscode-languageserver/node.js';
import { ensureServerBundle, languageDir } from '../lsp/server-bundle.js';

export interface DiagramAction {
    kind: string;
    [key: string]: unknown;
}
interface ActionMessage {
    clientId: string;
    action: DiagramAction;
}

const accept = new NotificationType<ActionMessage>('diagram/accept');
const openInTextEditor = new NotificationType<{
    location: { uri: string; range: { start: { line: number; character: number } } };
    forceOpen: boolean;
}>('diagram/openInTextEditor');

export class DiagramClient {
    readonly actions: Array<ActionMessage & { at: number }> = [];
    readonly reveals: Array<{ uri: string; line: number; character: number }> = [];
    /** What the server logged (window/logMessage). */
    readonly logs: string[] = [];
    stderr = '';
    private version = 1;

    private constructor(
        private readonly server: ChildProcessWithoutNullStreams,
        readonly connection: ProtocolConnection,
    ) {}

    /** `env`: the server's environment, as the editor sets it (default: this process's). */
    static async start(env: NodeJS.ProcessEnv = process.env): Promise<DiagramClient> {
        const bundle = await ensureServerBundle();
        const server = spawn(process.execPath, [bundle, '--stdio'], { cwd: languageDir, stdio: 'pipe', env });
        const connection = createProtocolConnection(
            new StreamMessageReader(server.stdout),
            new StreamMessageWriter(server.stdin),
        );
        const client = new DiagramClient(server, connection);
        server.stderr.on('data', chunk => {
            client.stderr += String(chunk);
        });
        connection.onNotification(accept, message => {
            client.actions.push({ ...message, at: performance.now() });
        });
        connection.onNotification(new NotificationType<{ message: string }>('window/logMessage'), ({ message }) => {
            client.logs.push(message);
        });
        connection.onNotification(openInTextEditor, ({ location }) => {
            client.reveals.push({
                uri: location.uri,
                line: location.range.start.line,
                character: location.range.start.character,
            });
        });
        connection.listen();
        await connection.sendRequest(InitializeRequest.type, {
            processId: process.pid,
            rootUri: null,
            workspaceFolders: null,
            capabilities: {},
        });
        await connection.sendNotification(InitializedNotification.type, {});
        return client;
    }

    async open(uri: string, text: string): Promise<void> {
        await this.connection.sendNotification(DidOpenTextDocumentNotification.type, {
            textDocument: { uri, languageId: 'chain', version: this.version++, text },
        });
    }

    async change(uri: string, text: string): Promise<void> {
        await this.connection.sendNotification(DidChangeTextDocumentNotification.type, {
            textDocument: { uri, version: this.version++ },
            contentChanges: [{ text }],
        });
    }

    /** Sends a RequestModelAction for a new diagram client and returns the setModel answer. */
    async requestModel(
        clientId: string,
        uri: string,
        options: Record<string, unknown>,
        timeoutMs = 60_000,
    ): Promise<DiagramAction & { newRoot: Record<string, unknown> }> {
        const requestId = `${clientId}-request`;
        await this.send(clientId, {
            kind: 'requestModel',
            requestId,
            options: {
                sourceUri: uri,
                diagramType: 'chainlab-diagram',
                needsClientLayout: false,
                needsServerLayout: true,
                ...options,
            },
        });
        const reply = await this.next(clientId, a => a.responseId === requestId, timeoutMs);
        if (reply.kind !== 'setModel') throw new Error(`requestModel answered ${JSON.stringify(reply).slice(0, 400)}`);
        return reply as never;
    }

    async send(clientId: string, action: DiagramAction): Promise<void> {
        await this.connection.sendNotification(accept, { clientId, action });
    }

    /** The first action for the client (after `after` earlier ones) that satisfies `match`. */
    async next(
        clientId: string,
        match: (a: DiagramAction) => boolean,
        timeoutMs = 30_000,
        after = 0,
    ): Promise<DiagramAction> {
        const deadline = Date.now() + timeoutMs;
        for (;;) {
            const found = this.actions
                .filter(m => m.clientId === clientId)
                .slice(after)
                .find(m => match(m.action));
            if (found) return found.action;
            if (Date.now() > deadline)
                throw new Error(
                    `no matching diagram action for ${clientId} within ${timeoutMs} ms; got ${this.actions.map(a => a.action.kind).join(', ')}; stderr: ${this.stderr.slice(-2000)}`,
                );
            await new Promise(resolve => setTimeout(resolve, 20));
        }
    }

    count(clientId: string): number {
        return this.actions.filter(m => m.clientId === clientId).length;
    }

    /** The server's child processes running the Python backend (`python -m chainlab.rpc`). */
    backendPids(): number[] {
        return this.processes((cmdline, ppid) => ppid === this.server.pid && cmdline.includes('chainlab.rpc'));
    }

    /** Live processes of this machine whose command line (arguments joined by spaces) and parent match. */
    processes(match: (cmdline: string, ppid: number) => boolean): number[] {
        const pids: number[] = [];
        for (const entry of readdirSync('/proc')) {
            if (!/^\d+$/.test(entry)) continue;
            try {
                const stat = readFileSync(`/proc/${entry}/stat`, 'utf-8');
                const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
                const cmdline = readFileSync(`/proc/${entry}/cmdline`, 'utf-8').split('\0').join(' ');
                if (state !== 'Z' && match(cmdline, Number(ppid))) pids.push(Number(entry));
            } catch {
                // gone meanwhile
            }
        }
        return pids;
    }

    stop(): void {
        this.connection.dispose();
        if (this.server.exitCode === null) this.server.kill();
    }
}

/** Every element of a model tree. */
export function elements(root: { children?: unknown[] }): Array<{ type: string; id: string; [key: string]: unknown }> {
    const node = root as { type: string; id: string; children?: unknown[] };
    return [node, ...(node.children ?? []).flatMap(c => elements(c as never))];
}
