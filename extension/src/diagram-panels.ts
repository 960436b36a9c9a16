/**
 * Diagram webviews (sprotty-vscode 1.0.0): one panel per document, view and element (a file's second ptts
 * gets its own diagram), titled with them, our webview bundle with a strict Content-Security-Policy (1.0.0's
 * default page has none), and SVG export to a file.
 */
import * as vscode from 'vscode';
import type { SprottyDiagramIdentifier } from 'sprotty-vscode';
import { isWebviewPanel, WebviewEndpoint, type OpenPanelOptions } from 'sprotty-vscode';
import { LspWebviewEndpoint, LspWebviewPanelManager } from 'sprotty-vscode/lib/lsp';
import type { LanguageClient } from 'vscode-languageclient/node';
import { Messenger } from 'vscode-messenger';
import {
    DIAGRAM_CHOICES_ACTION,
    type DiagramChoices,
    type DiagramChoicesAction,
    type DiagramView,
} from '@chainlab/contract';
import { LAST_REQUEST_KEY, preparation, rememberRequest, type LastRequests } from './diagram-prepare';
import { saveUserFile } from './save-user-file';

export const VIEW_TITLES: Record<DiagramView, string> = {
    chain: 'box chain',
    plan: 'plan',
    lanes: 'thread lanes',
    ptts: 'PTTS chain',
    timeline: 'trigger timeline',
};

/**
 * What the webview gets besides sprotty-vscode's identifier: the view and the element to show, and the user's latest
 * diagram choices (kept in the extension's global state, so a new panel and a panel after a reload start with them).
 */
type ChainlabIdentifier = SprottyDiagramIdentifier & { view?: DiagramView; element?: string; choices?: DiagramChoices };

/** The global-state key of the latest diagram choices. */
export const CHOICES_KEY = 'chainlab.diagramChoices';

export class ChainlabPanelManager extends LspWebviewPanelManager {
    private pending: { view: string; element?: string } = { view: 'chain' };

    constructor(
        private readonly context: vscode.ExtensionContext,
        languageClient: LanguageClient,
    ) {
        super({
            extensionUri: context.extensionUri,
            languageClient,
            supportedFileExtensions: ['.chain'],
            defaultDiagramType: 'chainlab-chain',
            // vscode-messenger drops messages to hidden webviews by default: a diagram behind the plot panel would
            // miss the update that shows the analysis (its context is retained, so it can take them)
            messenger: new Messenger({ ignoreHiddenViews: false }),
        });
    }

    /** Opens (or reveals) the diagram of one view of a document. */
    async open(uri: vscode.Uri, view: string, element?: string): Promise<void> {
        this.pending = { view, element };
        await this.openDiagram(uri, { diagramType: `chainlab-${view}`, reveal: true });
    }

    /**
     * sprotty-vscode 1.0.0 reuses a panel of the same document and diagram type and reloads it with only the
     * uri and type (the element is lost and the title becomes the file name): here an element's panel is
     * revealed as it is, and any other element gets a panel of its own.
     */
    override async openDiagram(uri: vscode.Uri, options: OpenPanelOptions = {}): Promise<WebviewEndpoint | undefined> {
        const identifier = await this.createDiagramIdentifier(uri, options.diagramType);
        if (!identifier) return undefined;
        const { element } = identifier as ChainlabIdentifier;
        const same = this.endpoints.find(ep => {
            const id: ChainlabIdentifier | undefined = ep.diagramIdentifier;
            return id?.uri === identifier.uri && id.diagramType === identifier.diagramType && id.element === element;
        });
        if (same) {
            if (isWebviewPanel(same.webviewContainer) && options.reveal)
                same.webviewContainer.reveal(same.webviewContainer.viewColumn, options.preserveFocus);
            return same;
        }
        const endpoint = this.createEndpoint(identifier);
        endpoint.webviewContainer.onDidDispose(() => this.didCloseWebview(endpoint));
        this.endpoints.push(endpoint);
        return endpoint;
    }

    protected override async createDiagramIdentifier(
        uri: vscode.Uri,
        diagramType?: string,
    ): Promise<SprottyDiagramIdentifier | undefined> {
        const identifier = await super.createDiagramIdentifier(uri, diagramType);
        if (identifier)
            Object.assign(identifier, this.pending, {
                choices: this.context.globalState.get<DiagramChoices>(CHOICES_KEY),
            });
        return identifier;
    }

    /** Has the server lay out the panel's likely first model while its webview loads (diagram-prepare.ts). */
    private prepare(identifier: SprottyDiagramIdentifier): void {
        const { view, element } = identifier as ChainlabIdentifier;
        const last = this.context.globalState.get<LastRequests>(LAST_REQUEST_KEY);
        const params = preparation(last, { ...identifier, view, element });
        if (params)
            this.languageClient.sendNotification('chainlab/prepareDiagram', params).catch(() => {
                // the panel's own request asks again
            });
    }

    protected override createWebview(identifier: SprottyDiagramIdentifier): vscode.WebviewPanel {
        const { view, element } = identifier as ChainlabIdentifier;
        const dist = vscode.Uri.joinPath(this.context.extensionUri, 'dist', 'diagram');
        const name = identifier.uri.slice(identifier.uri.lastIndexOf('/') + 1);
        const panel = vscode.window.createWebviewPanel(
            identifier.diagramType,
            panelTitle(name, view ?? 'chain', element),
            vscode.ViewColumn.Beside,
            { enableScripts: true, retainContextWhenHidden: true, localResourceRoots: [dist] },
        );
        const script = panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.js')).toString();
        const css = panel.webview.asWebviewUri(vscode.Uri.joinPath(dist, 'webview.css')).toString();
        const csp = `default-src 'none'; script-src ${panel.webview.cspSource}; style-src 'unsafe-inline' ${panel.webview.cspSource}; img-src ${panel.webview.cspSource} data:; font-src ${panel.webview.cspSource}`;
        panel.webview.html = `<!DOCTYPE html><html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, height=device-height">
<link rel="stylesheet" href="${css}"></head>
<body><div id="${identifier.clientId}_container" style="height: 100%;"></div><script src="${script}"></script></body></html>`;
        return panel;
    }

    protected override createEndpoint(identifier: SprottyDiagramIdentifier): LspWebviewEndpoint {
        this.prepare(identifier);
        const webviewContainer = this.createWebview(identifier);
        const messageParticipant = this.messenger.registerWebviewPanel(webviewContainer);
        const endpoint = new ChainlabWebviewEndpoint({
            languageClient: this.languageClient,
            webviewContainer,
            messenger: this.messenger,
            messageParticipant,
            identifier,
        });
        endpoint.onModelRequest = options => {
            const last = this.context.globalState.get<LastRequests>(LAST_REQUEST_KEY);
            const next = rememberRequest(last, options);
            if (next !== last) void this.context.globalState.update(LAST_REQUEST_KEY, next);
        };
        endpoint.addActionHandler<{ kind: string; svg: string }>('exportSvg', async action => {
            const target = await vscode.window.showSaveDialog({
                defaultUri: vscode.Uri.parse(
                    identifier.uri.replace(/\.chain$/, `-${(identifier as ChainlabIdentifier).view ?? 'chain'}.svg`),
                ),
                filters: { SVG: ['svg'] },
            });
            if (target) await saveUserFile(target, action.svg, 'diagram');
        });
        endpoint.addActionHandler<DiagramChoicesAction>(DIAGRAM_CHOICES_ACTION, async action => {
            await this.context.globalState.update(CHOICES_KEY, action.choices);
        });
        return endpoint;
    }
}

/** `xray.chain: System (PTTS chain)`: the file, the element shown and the view. */
export function panelTitle(file: string, view: DiagramView, element?: string): string {
    return element ? `${file}: ${element} (${VIEW_TITLES[view]})` : `${file}: ${VIEW_TITLES[view]}`;
}

/** Actions the extension handles itself (the exported SVG, megabytes; the choices) are not sent on to the server. */
const EXTENSION_ACTIONS = new Set<string>(['exportSvg', DIAGRAM_CHOICES_ACTION]);

type ActionMessage = Parameters<LspWebviewEndpoint['receiveAction']>[0];

class ChainlabWebviewEndpoint extends LspWebviewEndpoint {
    /** Told the options of each model request the webview sends. */
    onModelRequest?: (options: Record<string, unknown> | undefined) => void;

    override async receiveAction(message: ActionMessage): Promise<void> {
        if (message.action.kind === 'requestModel')
            this.onModelRequest?.((message.action as { options?: Record<string, unknown> }).options);
        if (EXTENSION_ACTIONS.has(message.action.kind))
            return WebviewEndpoint.prototype.receiveAction.call(this, message);
        return super.receiveAction(message);
    }
}
