/** The webview entry inside VS Code (bundled to dist/webview.js): sprotty-vscode's starter with chainlab's container. */
import 'reflect-metadata';
import type { Container } from 'inversify';
import { configureActionHandler, TYPES } from 'sprotty';
import { SprottyStarter, VscodeDiagramWidget, type SprottyDiagramIdentifier } from 'sprotty-vscode-webview';
import { DIAGRAM_EDIT_ACTION } from './diagram-editing.js';
import { ChainlabDiagramWidget } from './chainlab-widget.js';
import { createChainlabDiagramContainer } from './di.config.js';
import '../css/diagram.css';

class ChainlabSprottyStarter extends SprottyStarter {
    protected override createContainer(identifier: SprottyDiagramIdentifier): Container {
        return createChainlabDiagramContainer(identifier.clientId);
    }

    protected override addVscodeBindings(container: Container, identifier: SprottyDiagramIdentifier): void {
        super.addVscodeBindings(container, identifier);
        container.rebind(VscodeDiagramWidget).to(ChainlabDiagramWidget).inSingletonScope();
        // edits go to the language server, which applies them to the text
        configureActionHandler({ bind: container.bind.bind(container), isBound: container.isBound.bind(container) }, DIAGRAM_EDIT_ACTION, TYPES.ModelSource);
    }
}

new ChainlabSprottyStarter().start();
