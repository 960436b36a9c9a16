/**
 * The webview entry inside VS Code (bundled to dist/webview.js): sprotty-vscode's starter with chainlab's container.
 */
import 'reflect-metadata';
import type { Container } from 'inversify';
import { injectable } from 'inversify';
import { configureActionHandler, TYPES } from 'sprotty';
import {
    SprottyStarter,
    VscodeDiagramServer,
    VscodeDiagramWidget,
    type SprottyDiagramIdentifier,
} from 'sprotty-vscode-webview';
import { ChainlabDiagramWidget } from './chainlab-widget.js';
import { createChainlabDiagramContainer } from './di.config.js';
import { DIAGRAM_CHOICES_ACTION, DIAGRAM_EDIT_ACTION } from '@chainlab/contract';
import '../css/diagram.css';

/**
 * Sends exported SVG to the extension, which saves it to a file (sprotty's default, a browser download, does nothing in
 * a webview).
 */
@injectable()
class ChainlabDiagramServer extends VscodeDiagramServer {
    protected override handleExportSvgAction(): boolean {
        return true;
    }
}

class ChainlabSprottyStarter extends SprottyStarter {
    protected override createContainer(identifier: SprottyDiagramIdentifier): Container {
        return createChainlabDiagramContainer(identifier.clientId);
    }

    protected override addVscodeBindings(container: Container, identifier: SprottyDiagramIdentifier): void {
        super.addVscodeBindings(container, identifier);
        container.rebind(VscodeDiagramWidget).to(ChainlabDiagramWidget).inSingletonScope();
        container.rebind(VscodeDiagramServer).to(ChainlabDiagramServer).inSingletonScope();
        // edits go to the language server, which applies them to the text; choices to the extension, which keeps them
        const context = { bind: container.bind.bind(container), isBound: container.isBound.bind(container) };
        configureActionHandler(context, DIAGRAM_EDIT_ACTION, TYPES.ModelSource);
        configureActionHandler(context, DIAGRAM_CHOICES_ACTION, TYPES.ModelSource);
    }
}

new ChainlabSprottyStarter().start();
