/**
 * CodeLens through a provider registered at activation. VS Code asks a new provider only after a debounce
 * (375 ms and up) and its own round trips; the language client registers its provider once the server has
 * answered `initialize`, so that wait used to follow the server's start. Registered at activation, it overlaps
 * it: the request goes out as soon as the client has started. The client's own CodeLens feature is left out
 * (language-client.ts): one provider, one set of lenses.
 * Until the server has answered with lenses once (right after a window reload it is still starting, and on a loaded
 * machine that took seconds), the provider answers at once with provisional lenses from a scan of the text
 * (lens-scan.ts: the same titles, commands and arguments) and asks the server in the background; its answer
 * replaces them. From then on it waits for the server, which answers in milliseconds.
 * A document whose lens request came back empty or failed (the server had not built it yet, right after a reload)
 * is asked again as soon as the server publishes its diagnostics (it is built then), else after a short retry.
 * Only such a document: every change event restarts VS Code's debounce for every open editor, so firing on each
 * publish would hold back the lenses it is about to ask for.
 */
import * as vscode from 'vscode';
import { CodeLensRequest, type LanguageClient } from 'vscode-languageclient/node';
import { scanLenses } from './lens-scan';
import { WHEN_READY } from './when-ready';

/** How often a document whose lens request failed (e.g. the server cancelled it while building) is asked again. */
const RETRIES = 10;
const RETRY_MS = 500;

/** The lenses of a scan of the text; their clicks wait for the commands, which may not be registered yet. */
function provisional(document: vscode.TextDocument): vscode.CodeLens[] {
    return scanLenses(document.getText(), document.uri.toString()).map(
        lens =>
            new vscode.CodeLens(new vscode.Range(lens.line, lens.start, lens.line, lens.end), {
                title: lens.command.title,
                command: WHEN_READY,
                arguments: [lens.command.command, ...lens.command.arguments],
            }),
    );
}

/** Whether the server's lenses are the provisional ones: the same lines, titles, commands and arguments. */
function sameLenses(server: readonly vscode.CodeLens[], scanned: readonly vscode.CodeLens[]): boolean {
    const key = (lens: vscode.CodeLens, command: unknown[]) =>
        JSON.stringify([lens.range.start.line, lens.command?.title, ...command]);
    const args = (lens: vscode.CodeLens): unknown[] => (lens.command?.arguments as unknown[] | undefined) ?? [];
    const serverKeys = server.map(l => key(l, [l.command?.command, ...args(l)]));
    const scannedKeys = scanned.map(l => key(l, args(l)));
    return serverKeys.length === scannedKeys.length && serverKeys.every((k, i) => k === scannedKeys[i]);
}

export function registerCodeLens(client: LanguageClient, selector: vscode.DocumentSelector): vscode.Disposable {
    const changed = new vscode.EventEmitter<void>();
    /** Documents left without lenses, by URI: how many requests failed or came back empty. */
    const failures = new Map<string, number>();
    const built = vscode.languages.onDidChangeDiagnostics(event => {
        if (event.uris.some(uri => failures.has(uri.toString()))) changed.fire();
    });
    const retry = (document: vscode.TextDocument) => {
        const key = document.uri.toString();
        const count = (failures.get(key) ?? 0) + 1;
        failures.set(key, count);
        if (count <= RETRIES) setTimeout(() => changed.fire(), RETRY_MS);
    };
    /** Whether the server has answered with lenses: from then on its answer is awaited, no provisional ones. */
    let serverAnswered = false;
    /** The server's lenses answered in the background, by URI, for the version they were asked for. */
    const answered = new Map<string, { version: number; lenses: vscode.CodeLens[] }>();
    const asking = new Set<string>();

    const ask = async (document: vscode.TextDocument, token: vscode.CancellationToken) => {
        try {
            // sendRequest waits for the client's start, which sends the open documents before it resolves
            const lenses = await client.sendRequest(
                CodeLensRequest.type,
                client.code2ProtocolConverter.asCodeLensParams(document),
                token,
            );
            if (token.isCancellationRequested) return undefined;
            // none yet (a file of chains and ptts always has some): the server may not have built it yet
            if (!lenses?.length) retry(document);
            else failures.delete(document.uri.toString());
            return await client.protocol2CodeConverter.asCodeLenses(lenses, token);
        } catch (error) {
            // a request the server cancelled (it was building the file) leaves no lens: ask again shortly
            if (!token.isCancellationRequested) retry(document);
            return client.handleFailedRequest(CodeLensRequest.type, token, error, undefined);
        }
    };

    /** Asks the server without holding VS Code's request; its lenses replace the provisional ones when they come. */
    const askInBackground = (document: vscode.TextDocument) => {
        const key = document.uri.toString();
        if (asking.has(key)) return;
        asking.add(key);
        const version = document.version;
        void ask(document, new vscode.CancellationTokenSource().token)
            .then(lenses => {
                if (!lenses?.length) return;
                serverAnswered = true;
                // the same lenses: a swap would only retire the commands of the shown ones (VS Code then refuses a
                // click that lands on them before they are redrawn)
                if (version === document.version && sameLenses(lenses, provisional(document))) return;
                answered.set(key, { version, lenses });
                changed.fire();
            })
            // a failed request is retried (ask); nothing to report from the background
            .catch(() => undefined)
            .finally(() => asking.delete(key));
    };

    const provider = vscode.languages.registerCodeLensProvider(selector, {
        onDidChangeCodeLenses: changed.event,
        async provideCodeLenses(document, token) {
            const key = document.uri.toString();
            const ready = answered.get(key);
            answered.delete(key);
            if (ready?.version === document.version) return ready.lenses;
            if (serverAnswered) return ask(document, token);
            askInBackground(document);
            return provisional(document);
        },
    });
    return vscode.Disposable.from(provider, built, changed);
}
