/** The webview entry inside VS Code (bundled to dist/webview.js): sprotty-vscode's starter with chainlab's container. */
import 'reflect-metadata';
import type { Container } from 'inversify';
import { SprottyStarter, VscodeDiagramWidget, type SprottyDiagramIdentifier } from 'sprotty-vscode-webview';
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
    }
}

new ChainlabSprottyStarter().start();
